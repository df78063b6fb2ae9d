/**
 * What every capability rule is made of (portal-core.md §6 "Roles and permissions"): the facts
 * about a subscription, the refusals with the reasons a notice names, and the verdict of one rule.
 * The rules themselves are engine/domain/capabilities.ts (the table) and cardCapabilities.ts (the
 * two the orders page's cards read, so that page does not carry the table).
 */
import type { Subscription } from '../../schemas/generated/subscription';
import type { FeatureFlag } from './featureFlags';
import { isActive } from './orderStatus';
import { isFeatureOn, type FeatureSwitches } from './tenantFeatures';

export type CapabilitySubscription = Pick<
  Subscription,
  | 'orderStatus'
  | 'publication'
  | 'mixType'
  | 'mixTypeDetails'
  | 'roles'
  | 'currentRoleBusinessPartner'
  | 'salesDocumentType'
  | 'salesSource'
  | 'isTimebased'
  | 'isCancelable'
  | 'isRenewal'
  | 'isMultiLicense'
  | 'isLicenseUser'
  | 'isCombiSubscription'
  | 'currentSuspension'
  | 'currentPhase'
  | 'renewal'
  | 'businessPartners'
>;

/** The tenant settings the rules read (a validated tenant fits; every setting optional). */
export interface CapabilityTenant extends FeatureSwitches {
  renewal?: { forceWithAutoRenewal?: boolean };
  giftCertificate?: { publications?: readonly string[]; salesSources?: readonly string[] };
  bundle?: { publicationsWithHiddenComponents?: readonly string[] };
  issueHistory?: { excludedPublications?: ReadonlyArray<{ publication: string; mixType?: string }> };
  issueComplaint?: { blacklistedPublications?: readonly string[] };
  holidayService?: { blacklistedMixTypes?: readonly string[]; blacklistedPublications?: readonly string[] };
  externalSubscriptionLink?: {
    urlTemplate: string;
    whitelistedPublications?: readonly string[];
    showOnlyForActive?: boolean;
  };
  download?: { showDownloadForSubsWithKnownActivationDate?: boolean };
  cancellation?: { revocationContactActivity?: string };
  orderAttributes?: { attributes?: ReadonlyArray<{ type: string; editable?: boolean; creatable?: boolean }> };
}

export interface CapabilityContext {
  tenant: CapabilityTenant;
}

// --- facts about a subscription (§3, §4, §6, §9) ------------------------------------------------

export const isOrderingParty = (s: Pick<Subscription, 'roles'>) => s.roles.includes('AG');
export const isGoodsRecipient = (s: Pick<Subscription, 'roles'>) => s.roles.includes('WE');
/** The user acts as licence manager: LV is their only (first by precedence AG, WE, RE, LV) role. */
export const isLicenceManager = (s: Pick<Subscription, 'currentRoleBusinessPartner'>) =>
  s.currentRoleBusinessPartner.role === 'LV';
/** Sales document type WBZA: managed outside the portal's order system (§6 "cancellation"). */
export const isExternallyManaged = (s: Pick<Subscription, 'salesDocumentType'>) =>
  s.salesDocumentType === 'WBZA';
/** Print (PR) or combi: something is delivered on paper. */
export const isPhysical = (s: Pick<Subscription, 'mixType' | 'isCombiSubscription'>) =>
  s.mixType === 'PR' || s.mixType === 'KO' || s.isCombiSubscription;
/** §9 "Offer classification": bundle component M master, S slave. */
export const isBundleMaster = (s: Pick<Subscription, 'renewal'>) => s.renewal?.renewalBundleComponent === 'M';
export const isBundleSlave = (s: Pick<Subscription, 'renewal'>) => s.renewal?.renewalBundleComponent === 'S';
/** Suspended (IU) with a known end date: a holiday break that can be changed. */
export const isSuspendedWithEndDate = (s: Pick<Subscription, 'orderStatus' | 'currentSuspension'>) =>
  s.orderStatus === 'IU' && Boolean(s.currentSuspension?.suspendedToDate);

export function listed(list: readonly string[] | undefined, value: string | null | undefined): boolean {
  return !list || list.length === 0 || (value != null && list.includes(value));
}

// --- the capabilities ---------------------------------------------------------------------------

/**
 * Why a capability is refused, the reason that comes with the verdict. The server answers
 * `featureDisabled` with 403 `feature_disabled` and every other reason with 403 `not_allowed`
 * (server/tenancy/refusals.ts); a flow page names the reason in its notice
 * (engine/account/FlowUnavailable.tsx, `account.flow.unavailable.<reason>`); `other` where the
 * rule refuses for a fact no notice names (time-based, no auto-renewal, …).
 */
export const CAPABILITY_REFUSALS = [
  'featureDisabled',
  'notOffered',
  'bundleComponent',
  'licenceUser',
  'externallyManaged',
  'licenceManager',
  'notOrderingParty',
  'notRecipient',
  'inactive',
  'notCancelable',
  'other',
] as const;
export type CapabilityRefusal = (typeof CAPABILITY_REFUSALS)[number];

/** "Can" and "why not" in one answer: the button, the notice and the server all read it. */
export type CapabilityVerdict = { allowed: true } | { allowed: false; reason: CapabilityRefusal };

/** The reasons a rule itself gives; the flag, bundle-component and licence-user gates come first (checkCapability). */
export type RuleReason = Exclude<CapabilityRefusal, 'featureDisabled' | 'bundleComponent' | 'licenceUser'>;

/** One fact that refuses the capability, and the reason a notice names for it. */
export type Refusal = readonly [
  reason: RuleReason,
  refuses: (s: CapabilitySubscription, ctx: CapabilityContext) => boolean,
];

export interface CapabilityRule {
  /** Any of these flags on (for the subscription's publication) switches the capability on; none = always. */
  flags: readonly FeatureFlag[];
  /**
   * The facts that refuse it, in the order a notice names them: the first that holds is the
   * reason; when none holds the rule allows it. The spec's rule is their negation.
   */
  refusals: readonly Refusal[];
  /**
   * §2 "Bundle components are not managed separately": a component (renewalBundleComponent S)
   * keeps only what belongs to it alone — its issues (history, downloads, calendar) and contact;
   * every other action is the bundle master's.
   */
  bundleComponents?: true;
  /**
   * A licence user (account-flows.md §3 "Licence") reads the subscription their licence gives
   * them: its issues, the calendar, contact, e-cards. The contract stays the ordering party's:
   * cancelling, pausing or redirecting deliveries, complaints, addresses and opt-ins of the
   * company's partners are not theirs to change, though their role on it is a goods recipient's (WE).
   */
  licenceUsers?: true;
}

export const externallyManaged: Refusal = ['externallyManaged', (s) => isExternallyManaged(s)];
export const licenceManager: Refusal = ['licenceManager', (s) => isLicenceManager(s)];
export const notOrderingParty: Refusal = ['notOrderingParty', (s) => !isOrderingParty(s)];
/** Neither the goods recipient nor the ordering party: an invoice recipient only (RE), who pays someone else's subscription. */
export const notRecipient: Refusal = ['notRecipient', (s) => !isGoodsRecipient(s) && !isOrderingParty(s)];
export const inactive: Refusal = ['inactive', (s) => !isActive(s.orderStatus)];
export const timeBased: Refusal = ['other', (s) => s.isTimebased];

const ALLOWED: CapabilityVerdict = { allowed: true };
const refused = (reason: CapabilityRefusal): CapabilityVerdict => ({ allowed: false, reason });

/** The first fact of a rule that refuses the subscription, none when the rule allows it. */
export function ruleRefusal(
  rule: CapabilityRule,
  s: CapabilitySubscription,
  ctx: CapabilityContext,
): RuleReason | undefined {
  return rule.refusals.find(([, refuses]) => refuses(s, ctx))?.[0];
}

/**
 * The verdict of a rule: the tenant flag with its blacklists first (`featureDisabled`), then the
 * limits of bundle components and licence users, then the rule's own facts.
 */
export function verdictOf(
  rule: CapabilityRule,
  s: CapabilitySubscription,
  ctx: CapabilityContext,
): CapabilityVerdict {
  if (rule.flags.length > 0 && !rule.flags.some((flag) => isFeatureOn(ctx.tenant, flag, s.publication)))
    return refused('featureDisabled');
  if (isBundleSlave(s) && !rule.bundleComponents) return refused('bundleComponent');
  if (s.isLicenseUser && !rule.licenceUsers) return refused('licenceUser');
  const reason = ruleRefusal(rule, s, ctx);
  return reason ? refused(reason) : ALLOWED;
}

/** A named check of one rule (`canCancel(subscription, ctx)`). */
export const allows = (rule: CapabilityRule) => (s: CapabilitySubscription, ctx: CapabilityContext) =>
  verdictOf(rule, s, ctx).allowed;

// --- bundles (§6: "Bundle masters show their slaves; bundle slaves are hidden when the master's
// publication is in the tenant's hidden-components list") ----------------------------------------

export function hidesBundleComponents(
  master: Pick<Subscription, 'publication'>,
  ctx: CapabilityContext,
): boolean {
  return (ctx.tenant.bundle?.publicationsWithHiddenComponents ?? []).includes(master.publication);
}

/** The components (slaves) of a bundle master to list, none when the tenant hides them. */
export function visibleBundleComponents<T extends Pick<Subscription, 'id' | 'bundle' | 'renewal'>>(
  master: T & Pick<Subscription, 'publication'>,
  all: readonly T[],
  ctx: CapabilityContext,
): T[] {
  if (!master.bundle || hidesBundleComponents(master, ctx)) return [];
  return all.filter(
    (s) => s.id !== master.id && s.bundle?.bundleNumber === master.bundle?.bundleNumber && isBundleSlave(s),
  );
}

/** Whether a subscription is a component hidden behind its master (the orders page leaves it out). */
export function isHiddenBundleComponent<T extends Pick<Subscription, 'bundle' | 'renewal' | 'publication'>>(
  s: T,
  all: readonly T[],
  ctx: CapabilityContext,
): boolean {
  if (!s.bundle || !isBundleSlave(s)) return false;
  const master = all.find((m) => m.bundle?.bundleNumber === s.bundle?.bundleNumber && isBundleMaster(m));
  return master !== undefined && hidesBundleComponents(master, ctx);
}
