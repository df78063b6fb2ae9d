/**
 * Capability rules on a subscription, portal-core.md §6 "Roles and permissions", as named checks
 * (CONVENTIONS.md rule 3, manage-frontend's productTypes): the subscription page shows a button only
 * when its check passes, and the server refuses the call behind it with the same function.
 *
 * Every capability is gated twice: by its tenant feature flag(s) with the per-publication
 * blacklists (isFeatureOn) and by its rule over the subscription. `checkCapability` tells which of
 * the two failed, so the server can answer 403 `feature_disabled` or 403 `not_allowed`.
 */
import type { Subscription } from '../../schemas/generated/subscription';
import type { FeatureFlag } from './featureFlags';
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

interface CapabilityRule {
  /** Any of these flags on (for the subscription's publication) switches the capability on; none = always. */
  flags: readonly FeatureFlag[];
  rule: (s: CapabilitySubscription, ctx: CapabilityContext) => boolean;
}

/** §6, one entry per capability; the comment quotes the spec's rule. */
export const CAPABILITY_RULES = {
  // "holiday service: not externally managed, not licence manager, and (active and not time-based, or suspended with an end date)"
  holidayService: {
    flags: ['holiday-redirect', 'holiday-break', 'holiday-download'],
    rule: (s, { tenant }) =>
      !isExternallyManaged(s) &&
      !isLicenceManager(s) &&
      ((isActive(s.orderStatus) && !s.isTimebased) || isSuspendedWithEndDate(s)) &&
      !(tenant.holidayService?.blacklistedMixTypes ?? []).includes(s.mixType) &&
      !(tenant.holidayService?.blacklistedPublications ?? []).includes(s.publication),
  },
  // "issue complaint: active, not externally managed, physical or combi, not time-based, not licence manager"
  issueComplaint: {
    flags: ['issue-complaint'],
    rule: (s, { tenant }) =>
      isActive(s.orderStatus) &&
      !isExternallyManaged(s) &&
      isPhysical(s) &&
      !s.isTimebased &&
      !isLicenceManager(s) &&
      !(tenant.issueComplaint?.blacklistedPublications ?? []).includes(s.publication),
  },
  // "cancellation: when cancelable, or when externally managed (WBZA) where it is then refused with a notice"
  cancellation: { flags: ['cancellation'], rule: (s) => s.isCancelable || isExternallyManaged(s) },
  // §4: "Cancellation revocation is offered when the status is AK" (through the contact form, §2).
  cancellationRevocation: {
    flags: ['contact-form'],
    rule: (s, { tenant }) =>
      s.orderStatus === 'AK' && Boolean(tenant.cancellation?.revocationContactActivity),
  },
  // "upgrade: ordering party"
  upgrade: { flags: ['upgrade'], rule: (s) => isOrderingParty(s) },
  // "payment method change and billing frequency: active, ordering party, not externally managed"
  paymentMethodChange: {
    flags: ['payment-method-change'],
    rule: (s) => isActive(s.orderStatus) && isOrderingParty(s) && !isExternallyManaged(s),
  },
  billingFrequency: {
    flags: ['billing-frequency'],
    rule: (s) => isActive(s.orderStatus) && isOrderingParty(s) && !isExternallyManaged(s),
  },
  // "issue calendar: active, not time-based, not licence manager"
  issueCalendar: {
    flags: ['issue-calendar'],
    rule: (s) => isActive(s.orderStatus) && !s.isTimebased && !isLicenceManager(s),
  },
  // "payment history: ordering party, not externally managed"
  paymentHistory: { flags: ['payment-history'], rule: (s) => isOrderingParty(s) && !isExternallyManaged(s) },
  // "address change and opt-ins: not licence manager, not externally managed"
  addressChange: { flags: ['address-change'], rule: (s) => !isLicenceManager(s) && !isExternallyManaged(s) },
  optIns: { flags: ['opt-ins'], rule: (s) => !isLicenceManager(s) && !isExternallyManaged(s) },
  // "issue history: not membership, not bundle master, not licence manager" (+ issueHistory.excludedPublications)
  issueHistory: {
    flags: ['issue-history'],
    rule: (s, { tenant }) =>
      !isMembership(s) &&
      !isBundleMaster(s) &&
      !isLicenceManager(s) &&
      !(tenant.issueHistory?.excludedPublications ?? []).some(
        (x) => x.publication === s.publication && (x.mixType === undefined || x.mixType === s.mixType),
      ),
  },
  // "download: pdfDownload medium and goods recipient"
  issueDownload: {
    flags: ['issue-download'],
    rule: (s) => s.mixTypeDetails.pdfDownload && isGoodsRecipient(s),
  },
  // "gift certificate download: ordering party and matching gift criteria"
  giftCertificate: {
    flags: ['gift-certificate'],
    rule: (s, { tenant }) =>
      isOrderingParty(s) &&
      !isGoodsRecipient(s) &&
      listed(tenant.giftCertificate?.publications, s.publication) &&
      listed(tenant.giftCertificate?.salesSources, s.salesSource),
  },
  // "renewal: renewable, ordering party, and no auto-renewal unless forced"
  renewal: {
    flags: ['renewal'],
    rule: (s, { tenant }) =>
      s.isRenewal &&
      isOrderingParty(s) &&
      (!(s.renewal?.autoRenewal ?? false) || Boolean(tenant.renewal?.forceWithAutoRenewal)),
  },
  // "multi-user licences: multi-licence and (licence manager or ordering party)"
  multiUserLicenses: {
    flags: ['multi-user-licenses'],
    rule: (s) => s.isMultiLicense && (s.roles.includes('LV') || isOrderingParty(s)),
  },
  // "phase upgrade: phase can upgrade, ordering party, active"
  phaseUpgrade: {
    flags: ['phase-upgrade'],
    rule: (s) => Boolean(s.currentPhase?.canUpgrade) && isOrderingParty(s) && isActive(s.orderStatus),
  },
  // "e-card: never by this rule set (gated by tenant)": the subscription page offers no e-card
  // (engine/features/e-card declares no action); the e-card routes and POST /e-cards, also for a
  // subscription reached by link, are gated by the flag and its publication blacklist alone.
  eCard: { flags: ['e-card'], rule: () => true },
  // "invoice request and several detail blocks: ordering party only"
  invoiceRequest: { flags: ['invoice-request'], rule: (s) => isOrderingParty(s) && !isExternallyManaged(s) },
  invoiceDownload: {
    flags: ['invoice-download'],
    rule: (s) => isOrderingParty(s) && !isExternallyManaged(s),
  },
  // External link (§2): whitelisted publications (empty = all), optionally only for active subscriptions.
  externalLink: {
    flags: ['external-subscription-link'],
    rule: (s, { tenant }) => {
      const link = tenant.externalSubscriptionLink;
      if (!link) return false;
      return (
        listed(link.whitelistedPublications, s.publication) &&
        (!link.showOnlyForActive || isActive(s.orderStatus))
      );
    },
  },
  // Order attributes are part of the order: the ordering party edits them (§5 "Order attribute edit").
  orderAttributes: {
    flags: [],
    rule: (s, { tenant }) =>
      isOrderingParty(s) && (tenant.orderAttributes?.attributes ?? []).some((a) => a.editable || a.creatable),
  },
  // General contact (§2 action buttons): the contact form feature.
  contact: { flags: ['contact-form'], rule: () => true },
} satisfies Record<string, CapabilityRule>;

export type Capability = keyof typeof CAPABILITY_RULES;
export const CAPABILITIES = Object.keys(CAPABILITY_RULES) as Capability[];

export type CapabilityCheck = 'ok' | 'feature_disabled' | 'not_allowed';

/** Which gate, if any, refuses the capability: the tenant flag (with blacklists) first, then the rule. */
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

export function checkCapability(
  capability: Capability,
  s: CapabilitySubscription,
  ctx: CapabilityContext,
): CapabilityCheck {
  const { flags, rule } = CAPABILITY_RULES[capability] as CapabilityRule;
  if (flags.length > 0 && !flags.some((flag) => isFeatureOn(ctx.tenant, flag, s.publication)))
    return 'feature_disabled';
  if (isBundleSlave(s) && !BUNDLE_COMPONENT_CAPABILITIES.has(capability)) return 'not_allowed';
  if (s.isLicenseUser && !LICENCE_USER_CAPABILITIES.has(capability)) return 'not_allowed';
  return rule(s, ctx) ? 'ok' : 'not_allowed';
}

export function can(capability: Capability, s: CapabilitySubscription, ctx: CapabilityContext): boolean {
  return checkCapability(capability, s, ctx) === 'ok';
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

/** Which holiday service types the tenant offers for the subscription's publication (§6, blacklists per type). */
export function holidayServiceTypes(
  s: CapabilitySubscription,
  ctx: CapabilityContext,
): Array<'redirect' | 'break' | 'download'> {
  if (!CAPABILITY_RULES.holidayService.rule(s, ctx)) return [];
  const types = [
    ['redirect', 'holiday-redirect'],
    ['break', 'holiday-break'],
    ['download', 'holiday-download'],
  ] as const;
  return types.filter(([, flag]) => isFeatureOn(ctx.tenant, flag, s.publication)).map(([type]) => type);
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
