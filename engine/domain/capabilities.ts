/**
 * Capability rules on a subscription, portal-core.md §6 "Roles and permissions", as named checks
 * (CONVENTIONS.md rule 3, manage-frontend's productTypes): the subscription page shows a button only
 * when its check passes, and the server refuses the call behind it with the same function.
 *
 * Every capability is gated twice: by its tenant feature flag(s) with the per-publication
 * blacklists (isFeatureOn) and by its rule over the subscription. `checkCapability` gives the
 * verdict with its reason from this one table: the subscription page shows the button by it, a
 * flow page names the reason in its notice (engine/account/flowRefusal.ts) and the server answers
 * 403 `feature_disabled` or 403 `not_allowed` by it (server/tenancy/refusals.ts).
 */
import type { Subscription } from '../../schemas/generated/subscription';
import type { FeatureFlag } from './featureFlags';
import {
  HOLIDAY_FLAGS,
  HOLIDAY_SERVICE_FLAGS,
  HOLIDAY_SERVICE_TYPES,
  type HolidayServiceType,
} from './holidayQuery';
import { isActive, isStrictActive } from './orderStatus';
import { isMembership } from './subscriptionKinds';
import { isFeatureOn, type FeatureSwitches } from './tenantFeatures';

/** The subscription fields the rules read (a full API Subscription fits). */
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

function listed(list: readonly string[] | undefined, value: string | null | undefined): boolean {
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
  'inactive',
  'notCancelable',
  'other',
] as const;
export type CapabilityRefusal = (typeof CAPABILITY_REFUSALS)[number];

/** "Can" and "why not" in one answer: the button, the notice and the server all read it. */
export type CapabilityVerdict = { allowed: true } | { allowed: false; reason: CapabilityRefusal };

/** The reasons a rule itself gives; the flag, bundle-component and licence-user gates come first (checkCapability). */
type RuleReason = Exclude<CapabilityRefusal, 'featureDisabled' | 'bundleComponent' | 'licenceUser'>;

/** One fact that refuses the capability, and the reason a notice names for it. */
type Refusal = readonly [
  reason: RuleReason,
  refuses: (s: CapabilitySubscription, ctx: CapabilityContext) => boolean,
];

interface CapabilityRule {
  /** Any of these flags on (for the subscription's publication) switches the capability on; none = always. */
  flags: readonly FeatureFlag[];
  /**
   * The facts that refuse it, in the order a notice names them: the first that holds is the
   * reason; when none holds the rule allows it. The spec's rule is their negation.
   */
  refusals: readonly Refusal[];
}

const externallyManaged: Refusal = ['externallyManaged', (s) => isExternallyManaged(s)];
const licenceManager: Refusal = ['licenceManager', (s) => isLicenceManager(s)];
const notOrderingParty: Refusal = ['notOrderingParty', (s) => !isOrderingParty(s)];
const inactive: Refusal = ['inactive', (s) => !isActive(s.orderStatus)];
const timeBased: Refusal = ['other', (s) => s.isTimebased];

/** §6, one entry per capability; the comment quotes the spec's rule. */
export const CAPABILITY_RULES = {
  // "holiday service: not externally managed, not licence manager, and (active and not time-based,
  // or suspended with an end date)", and the holiday blacklists of mix types and publications.
  holidayService: {
    flags: HOLIDAY_FLAGS,
    refusals: [
      externallyManaged,
      licenceManager,
      ['inactive', (s) => !isActive(s.orderStatus) && !isSuspendedWithEndDate(s)],
      [
        'notOffered',
        (s, { tenant }) =>
          (tenant.holidayService?.blacklistedMixTypes ?? []).includes(s.mixType) ||
          (tenant.holidayService?.blacklistedPublications ?? []).includes(s.publication),
      ],
      // Active but time-based, and not suspended with an end date.
      ['other', (s) => !((isActive(s.orderStatus) && !s.isTimebased) || isSuspendedWithEndDate(s))],
    ],
  },
  // "issue complaint: active, not externally managed, physical or combi, not time-based, not licence manager"
  issueComplaint: {
    flags: ['issue-complaint'],
    refusals: [
      externallyManaged,
      licenceManager,
      inactive,
      [
        'notOffered',
        (s, { tenant }) => (tenant.issueComplaint?.blacklistedPublications ?? []).includes(s.publication),
      ],
      ['other', (s) => !isPhysical(s)],
      timeBased,
    ],
  },
  // "cancellation: when cancelable, or when externally managed (WBZA) where it is then refused with a
  // notice", and not by a licence manager: the spec's rule names no role, but a licence manager
  // administers the licences of a company's subscription, and every other rule that ends or buys
  // (renewal, upgrade, payment change) needs the ordering party (docs/decisions.md "Where the
  // portal reads the spec differently").
  cancellation: {
    flags: ['cancellation'],
    refusals: [licenceManager, ['notCancelable', (s) => !s.isCancelable && !isExternallyManaged(s)]],
  },
  // §4: "Cancellation revocation is offered when the status is AK" (through the contact form, §2).
  cancellationRevocation: {
    flags: ['contact-form'],
    refusals: [
      ['notOffered', (_s, { tenant }) => !tenant.cancellation?.revocationContactActivity],
      ['other', (s) => s.orderStatus !== 'AK'],
    ],
  },
  // "upgrade: ordering party"
  upgrade: { flags: ['upgrade'], refusals: [notOrderingParty] },
  // "payment method change and billing frequency: active, ordering party, not externally managed"
  paymentMethodChange: {
    flags: ['payment-method-change'],
    refusals: [externallyManaged, notOrderingParty, inactive],
  },
  billingFrequency: {
    flags: ['billing-frequency'],
    refusals: [externallyManaged, notOrderingParty, inactive],
  },
  // "issue calendar: active, not time-based, not licence manager"
  issueCalendar: { flags: ['issue-calendar'], refusals: [licenceManager, inactive, timeBased] },
  // "payment history: ordering party, not externally managed"
  paymentHistory: { flags: ['payment-history'], refusals: [externallyManaged, notOrderingParty] },
  // "address change and opt-ins: not licence manager, not externally managed"
  addressChange: { flags: ['address-change'], refusals: [externallyManaged, licenceManager] },
  optIns: { flags: ['opt-ins'], refusals: [externallyManaged, licenceManager] },
  // "issue history: not membership, not bundle master, not licence manager" (+ issueHistory.excludedPublications)
  issueHistory: {
    flags: ['issue-history'],
    refusals: [
      licenceManager,
      ['other', (s) => isMembership(s) || isBundleMaster(s)],
      [
        'notOffered',
        (s, { tenant }) =>
          (tenant.issueHistory?.excludedPublications ?? []).some(
            (x) => x.publication === s.publication && (x.mixType === undefined || x.mixType === s.mixType),
          ),
      ],
    ],
  },
  // "download: pdfDownload medium and goods recipient"
  issueDownload: {
    flags: ['issue-download'],
    refusals: [['other', (s) => !s.mixTypeDetails.pdfDownload || !isGoodsRecipient(s)]],
  },
  // "gift certificate download: ordering party and matching gift criteria"
  giftCertificate: {
    flags: ['gift-certificate'],
    refusals: [
      notOrderingParty,
      ['other', (s) => isGoodsRecipient(s)],
      [
        'notOffered',
        (s, { tenant }) =>
          !listed(tenant.giftCertificate?.publications, s.publication) ||
          !listed(tenant.giftCertificate?.salesSources, s.salesSource),
      ],
    ],
  },
  // "renewal: renewable, ordering party, and no auto-renewal unless forced"
  renewal: {
    flags: ['renewal'],
    refusals: [
      notOrderingParty,
      ['other', (s) => !s.isRenewal],
      [
        'other',
        (s, { tenant }) => (s.renewal?.autoRenewal ?? false) && !tenant.renewal?.forceWithAutoRenewal,
      ],
    ],
  },
  // "multi-user licences: multi-licence and (licence manager or ordering party)"
  multiUserLicenses: {
    flags: ['multi-user-licenses'],
    refusals: [['other', (s) => !s.isMultiLicense || !(s.roles.includes('LV') || isOrderingParty(s))]],
  },
  // "phase upgrade: phase can upgrade, ordering party, active"
  phaseUpgrade: {
    flags: ['phase-upgrade'],
    refusals: [notOrderingParty, inactive, ['other', (s) => !s.currentPhase?.canUpgrade]],
  },
  // "e-card: never by this rule set (gated by tenant)": the subscription page offers no e-card
  // (engine/features/e-card declares no action); the e-card routes and POST /e-cards, also for a
  // subscription reached by link, are gated by the flag and its publication blacklist alone.
  eCard: { flags: ['e-card'], refusals: [] },
  // "invoice request and several detail blocks: ordering party only"
  invoiceRequest: { flags: ['invoice-request'], refusals: [externallyManaged, notOrderingParty] },
  invoiceDownload: { flags: ['invoice-download'], refusals: [externallyManaged, notOrderingParty] },
  // External link (§2): whitelisted publications (empty = all), optionally only for active subscriptions.
  externalLink: {
    flags: ['external-subscription-link'],
    refusals: [
      [
        'notOffered',
        (s, { tenant }) =>
          !tenant.externalSubscriptionLink ||
          !listed(tenant.externalSubscriptionLink.whitelistedPublications, s.publication),
      ],
      [
        'inactive',
        (s, { tenant }) =>
          Boolean(tenant.externalSubscriptionLink?.showOnlyForActive) && !isActive(s.orderStatus),
      ],
    ],
  },
  // Order attributes are part of the order: the ordering party edits them (§5 "Order attribute edit").
  orderAttributes: {
    flags: [],
    refusals: [
      notOrderingParty,
      [
        'notOffered',
        (_s, { tenant }) =>
          !(tenant.orderAttributes?.attributes ?? []).some((a) => a.editable || a.creatable),
      ],
    ],
  },
  // General contact (§2 action buttons): the contact form feature.
  contact: { flags: ['contact-form'], refusals: [] },
} satisfies Record<string, CapabilityRule>;

export type Capability = keyof typeof CAPABILITY_RULES;
export const CAPABILITIES = Object.keys(CAPABILITY_RULES) as Capability[];

/**
 * §2 "Bundle components are not managed separately": a component (renewalBundleComponent S) keeps
 * only what belongs to it alone — its issues (history, downloads, calendar) and contact; every other
 * action is the bundle master's. The detail page and the server both read this through checkCapability.
 */
const BUNDLE_COMPONENT_CAPABILITIES: ReadonlySet<Capability> = new Set<Capability>([
  'issueHistory',
  'issueDownload',
  'issueCalendar',
  'contact',
]);

/**
 * A licence user (account-flows.md §3 "Licence") reads the subscription their licence gives them:
 * its issues, the calendar, contact. The contract stays the ordering party's: cancelling, pausing
 * or redirecting deliveries, complaints, addresses and opt-ins of the company's partners are not
 * theirs to change, though their role on it is a goods recipient's (WE).
 */
const LICENCE_USER_CAPABILITIES: ReadonlySet<Capability> = new Set<Capability>([
  'issueHistory',
  'issueDownload',
  'issueCalendar',
  'contact',
  'eCard',
]);

const ALLOWED: CapabilityVerdict = { allowed: true };
const refused = (reason: CapabilityRefusal): CapabilityVerdict => ({ allowed: false, reason });

/** The first fact of the capability's own rule that refuses the subscription, none when the rule allows it. */
function ruleRefusal(
  capability: Capability,
  s: CapabilitySubscription,
  ctx: CapabilityContext,
): RuleReason | undefined {
  const { refusals } = CAPABILITY_RULES[capability] as CapabilityRule;
  return refusals.find(([, refuses]) => refuses(s, ctx))?.[0];
}

/**
 * The verdict on a capability, with the reason when refused: the tenant flag with its blacklists
 * first (`featureDisabled`), then the limits of bundle components and licence users, then the
 * capability's own rule.
 */
export function checkCapability(
  capability: Capability,
  s: CapabilitySubscription,
  ctx: CapabilityContext,
): CapabilityVerdict {
  const { flags } = CAPABILITY_RULES[capability] as CapabilityRule;
  if (flags.length > 0 && !flags.some((flag) => isFeatureOn(ctx.tenant, flag, s.publication)))
    return refused('featureDisabled');
  if (isBundleSlave(s) && !BUNDLE_COMPONENT_CAPABILITIES.has(capability)) return refused('bundleComponent');
  if (s.isLicenseUser && !LICENCE_USER_CAPABILITIES.has(capability)) return refused('licenceUser');
  const reason = ruleRefusal(capability, s, ctx);
  return reason ? refused(reason) : ALLOWED;
}

export function can(capability: Capability, s: CapabilitySubscription, ctx: CapabilityContext): boolean {
  return checkCapability(capability, s, ctx).allowed;
}

// Named shorthands of the conventions (`canCancel(subscription, ctx)`).
export const canCancel = (s: CapabilitySubscription, ctx: CapabilityContext) => can('cancellation', s, ctx);
export const canRenew = (s: CapabilitySubscription, ctx: CapabilityContext) => can('renewal', s, ctx);
export const canRequestInvoice = (s: CapabilitySubscription, ctx: CapabilityContext) =>
  can('invoiceRequest', s, ctx);
export const canDownloadInvoice = (s: CapabilitySubscription, ctx: CapabilityContext) =>
  can('invoiceDownload', s, ctx);
export const canSeePaymentHistory = (s: CapabilitySubscription, ctx: CapabilityContext) =>
  can('paymentHistory', s, ctx);
export const canSeeIssueHistory = (s: CapabilitySubscription, ctx: CapabilityContext) =>
  can('issueHistory', s, ctx);
export const canDownloadIssues = (s: CapabilitySubscription, ctx: CapabilityContext) =>
  can('issueDownload', s, ctx);
export const canContactAbout = (s: CapabilitySubscription, ctx: CapabilityContext) => can('contact', s, ctx);
export const canRevokeCancellation = (s: CapabilitySubscription, ctx: CapabilityContext) =>
  can('cancellationRevocation', s, ctx);
export const canDownloadGiftCertificate = (s: CapabilitySubscription, ctx: CapabilityContext) =>
  can('giftCertificate', s, ctx);
export const canOpenExternalLink = (s: CapabilitySubscription, ctx: CapabilityContext) =>
  can('externalLink', s, ctx);
export const canUpgradePhase = (s: CapabilitySubscription, ctx: CapabilityContext) =>
  can('phaseUpgrade', s, ctx);

/** Which holiday service types the tenant offers for the subscription's publication (§6, blacklists per type). */
export function holidayServiceTypes(s: CapabilitySubscription, ctx: CapabilityContext): HolidayServiceType[] {
  if (ruleRefusal('holidayService', s, ctx)) return [];
  return HOLIDAY_SERVICE_TYPES.filter((type) =>
    isFeatureOn(ctx.tenant, HOLIDAY_SERVICE_FLAGS[type], s.publication),
  );
}

/**
 * §2 "Orders page": "A download button appears on a card only for active subscriptions that
 * support download" — strict active (A, AK); IZ too when the tenant shows downloads for
 * subscriptions with a known activation date.
 */
export function showsCardDownload(s: CapabilitySubscription, ctx: CapabilityContext): boolean {
  const activeEnough =
    isStrictActive(s.orderStatus) ||
    (s.orderStatus === 'IZ' && Boolean(ctx.tenant.download?.showDownloadForSubsWithKnownActivationDate));
  return activeEnough && can('issueDownload', s, ctx);
}

/** §2 "Orders page": "A renewal action appears for active non-bundle renewable subscriptions without auto-renewal." */
export function showsCardRenewal(
  s: CapabilitySubscription & Pick<Subscription, 'bundle'>,
  ctx: CapabilityContext,
): boolean {
  return isActive(s.orderStatus) && !s.bundle && !(s.renewal?.autoRenewal ?? false) && can('renewal', s, ctx);
}

// --- display rules of the detail block (§2 "Subscription detail") --------------------------------

/** The detail fields the page shows, by the display rules of §2. */
export function detailVisibility(
  s: CapabilitySubscription & Pick<Subscription, 'activeHolidayServiceType'>,
  ctx: CapabilityContext,
) {
  const orderingParty = isOrderingParty(s);
  const autoRenewal = s.renewal?.autoRenewal ?? false;
  return {
    holidayIndicator: s.activeHolidayServiceType !== null,
    validTo: !s.isRenewal,
    expiryIssue: s.isRenewal && (s.orderStatus === 'AK' || !autoRenewal),
    suspension: s.orderStatus === 'IU' && Boolean(s.currentSuspension),
    autoRenewalFields: autoRenewal && orderingParty,
    validFrom:
      isActive(s.orderStatus) &&
      s.orderStatus !== 'AK' &&
      isFeatureOn(ctx.tenant, 'valid-from', s.publication),
    payment: orderingParty,
    nextPayment: orderingParty,
    premium: orderingParty,
    goodsRecipient: orderingParty,
  };
}

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

/** §2: the external link with {orderNumber} and {publication} filled in. */
export function externalLinkUrl(
  s: Pick<Subscription, 'orderNumber' | 'publication'>,
  ctx: CapabilityContext,
): string | null {
  const template = ctx.tenant.externalSubscriptionLink?.urlTemplate;
  if (!template) return null;
  return template
    .replaceAll('{orderNumber}', encodeURIComponent(s.orderNumber))
    .replaceAll('{publication}', encodeURIComponent(s.publication));
}
