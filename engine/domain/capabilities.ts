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
 *
 * The rules' parts and their verdict are engine/domain/capabilityRule.ts; the two rules the orders
 * page's cards read are engine/domain/cardCapabilities.ts. Both are exported from here too.
 */
import type { Subscription } from '../../schemas/generated/subscription';
import {
  HOLIDAY_FLAGS,
  HOLIDAY_SERVICE_FLAGS,
  HOLIDAY_SERVICE_TYPES,
  type HolidayServiceType,
} from './holidayQuery';
import { isActive } from './orderStatus';
import { isMembership } from './subscriptionKinds';
import { isFeatureOn } from './tenantFeatures';
import {
  allows,
  externallyManaged,
  inactive,
  isBundleMaster,
  isExternallyManaged,
  isGoodsRecipient,
  isOrderingParty,
  isPhysical,
  isSuspendedWithEndDate,
  licenceManager,
  listed,
  notOrderingParty,
  notRecipient,
  ruleRefusal,
  timeBased,
  verdictOf,
  type CapabilityContext,
  type CapabilityRule,
  type CapabilitySubscription,
  type CapabilityVerdict,
} from './capabilityRule';
import { issueDownloadRule, renewalRule } from './cardCapabilities';

export * from './capabilityRule';
export * from './cardCapabilities';

/* §6, one rule per capability; the comment quotes the spec's rule. Each is a constant of its own, so
 * a screen that asks one named check (showsCardDownload, canRenew) does not carry the whole table. */
// "holiday service: not externally managed, not licence manager, and (active and not time-based,
// or suspended with an end date)", and the holiday blacklists of mix types and publications.
const holidayServiceRule: CapabilityRule = {
  flags: HOLIDAY_FLAGS,
  refusals: [
    externallyManaged,
    licenceManager,
    // Beyond §6's rule: the deliveries are the recipient's and the contract the ordering party's; an
    // invoice recipient alone (who pays a relative's subscription, say) may not pause or redirect them.
    notRecipient,
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
};
// "issue complaint: active, not externally managed, physical or combi, not time-based, not licence manager"
const issueComplaintRule: CapabilityRule = {
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
};
// "cancellation: when cancelable, or when externally managed (WBZA) where it is then refused with a
// notice", and only by the ordering party: the spec's rule names no role, but every other rule that
// ends or buys (renewal, upgrade, payment change) needs the ordering party, and the order system's
// `isCancelable` is one flag per subscription, the same for its invoice recipient, its goods
// recipient (a gift's) and its licence manager, who may not end the contract (docs/decisions.md
// "Where the portal reads the spec differently").
const cancellationRule: CapabilityRule = {
  flags: ['cancellation'],
  refusals: [
    licenceManager,
    notOrderingParty,
    ['notCancelable', (s) => !s.isCancelable && !isExternallyManaged(s)],
  ],
};
// §4: "Cancellation revocation is offered when the status is AK" (through the contact form, §2),
// to whom the cancellation is: the ordering party (cancellationRule), not a gift's recipient.
const cancellationRevocationRule: CapabilityRule = {
  flags: ['contact-form'],
  refusals: [
    notOrderingParty,
    ['notOffered', (_s, { tenant }) => !tenant.cancellation?.revocationContactActivity],
    ['other', (s) => s.orderStatus !== 'AK'],
  ],
};
// "upgrade: ordering party"
const upgradeRule: CapabilityRule = { flags: ['upgrade'], refusals: [notOrderingParty] };
// "payment method change and billing frequency: active, ordering party, not externally managed"
const paymentMethodChangeRule: CapabilityRule = {
  flags: ['payment-method-change'],
  refusals: [externallyManaged, notOrderingParty, inactive],
};
const billingFrequencyRule: CapabilityRule = {
  flags: ['billing-frequency'],
  refusals: [externallyManaged, notOrderingParty, inactive],
};
// "issue calendar: active, not time-based, not licence manager"
const issueCalendarRule: CapabilityRule = {
  flags: ['issue-calendar'],
  refusals: [licenceManager, inactive, timeBased],
  bundleComponents: true,
  licenceUsers: true,
};
// "payment history: ordering party, not externally managed"
const paymentHistoryRule: CapabilityRule = {
  flags: ['payment-history'],
  refusals: [externallyManaged, notOrderingParty],
};
// "address change and opt-ins: not licence manager, not externally managed"
const addressChangeRule: CapabilityRule = {
  flags: ['address-change'],
  refusals: [externallyManaged, licenceManager],
};
const optInsRule: CapabilityRule = { flags: ['opt-ins'], refusals: [externallyManaged, licenceManager] };
// "issue history: not membership, not bundle master, not licence manager" (+ issueHistory.excludedPublications)
const issueHistoryRule: CapabilityRule = {
  flags: ['issue-history'],
  bundleComponents: true,
  licenceUsers: true,
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
};
// "gift certificate download: ordering party and matching gift criteria"
const giftCertificateRule: CapabilityRule = {
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
};
// "multi-user licences: multi-licence and (licence manager or ordering party)"
const multiUserLicensesRule: CapabilityRule = {
  flags: ['multi-user-licenses'],
  refusals: [['other', (s) => !s.isMultiLicense || !(s.roles.includes('LV') || isOrderingParty(s))]],
};
// "phase upgrade: phase can upgrade, ordering party, active"
const phaseUpgradeRule: CapabilityRule = {
  flags: ['phase-upgrade'],
  refusals: [notOrderingParty, inactive, ['other', (s) => !s.currentPhase?.canUpgrade]],
};
// "e-card: never by this rule set (gated by tenant)": the subscription page offers no e-card
// (engine/features/e-card declares no action); the e-card routes and POST /e-cards, also for a
// subscription reached by link, are gated by the flag and its publication blacklist alone.
const eCardRule: CapabilityRule = { flags: ['e-card'], refusals: [], licenceUsers: true };
// "invoice request and several detail blocks: ordering party only"
const invoiceRequestRule: CapabilityRule = {
  flags: ['invoice-request'],
  refusals: [externallyManaged, notOrderingParty],
};
const invoiceDownloadRule: CapabilityRule = {
  flags: ['invoice-download'],
  refusals: [externallyManaged, notOrderingParty],
};
// External link (§2): whitelisted publications (empty = all), optionally only for active subscriptions.
const externalLinkRule: CapabilityRule = {
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
};
// Order attributes are part of the order: the ordering party edits them (§5 "Order attribute edit").
const orderAttributesRule: CapabilityRule = {
  flags: [],
  refusals: [
    notOrderingParty,
    [
      'notOffered',
      (_s, { tenant }) => !(tenant.orderAttributes?.attributes ?? []).some((a) => a.editable || a.creatable),
    ],
  ],
};
// General contact (§2 action buttons): the contact form feature.
const contactRule: CapabilityRule = {
  flags: ['contact-form'],
  refusals: [],
  bundleComponents: true,
  licenceUsers: true,
};

export const CAPABILITY_RULES = {
  holidayService: holidayServiceRule,
  issueComplaint: issueComplaintRule,
  cancellation: cancellationRule,
  cancellationRevocation: cancellationRevocationRule,
  upgrade: upgradeRule,
  paymentMethodChange: paymentMethodChangeRule,
  billingFrequency: billingFrequencyRule,
  issueCalendar: issueCalendarRule,
  paymentHistory: paymentHistoryRule,
  addressChange: addressChangeRule,
  optIns: optInsRule,
  issueHistory: issueHistoryRule,
  issueDownload: issueDownloadRule,
  giftCertificate: giftCertificateRule,
  renewal: renewalRule,
  multiUserLicenses: multiUserLicensesRule,
  phaseUpgrade: phaseUpgradeRule,
  eCard: eCardRule,
  invoiceRequest: invoiceRequestRule,
  invoiceDownload: invoiceDownloadRule,
  externalLink: externalLinkRule,
  orderAttributes: orderAttributesRule,
  contact: contactRule,
} satisfies Record<string, CapabilityRule>;

export type Capability = keyof typeof CAPABILITY_RULES;
// Marked pure: a page that asks only named checks leaves the table, and the rules it does not ask, out.
export const CAPABILITIES = /* @__PURE__ */ Object.keys(CAPABILITY_RULES) as Capability[];

/** The verdict on a capability, with the reason when refused (verdictOf). */
export function checkCapability(
  capability: Capability,
  s: CapabilitySubscription,
  ctx: CapabilityContext,
): CapabilityVerdict {
  return verdictOf(CAPABILITY_RULES[capability], s, ctx);
}

export function can(capability: Capability, s: CapabilitySubscription, ctx: CapabilityContext): boolean {
  return checkCapability(capability, s, ctx).allowed;
}

// Named shorthands of the conventions (`canCancel(subscription, ctx)`), each reading its own rule.
export const canCancel = /* @__PURE__ */ allows(cancellationRule);
export const canRequestInvoice = /* @__PURE__ */ allows(invoiceRequestRule);
export const canDownloadInvoice = /* @__PURE__ */ allows(invoiceDownloadRule);
export const canSeePaymentHistory = /* @__PURE__ */ allows(paymentHistoryRule);
export const canSeeIssueHistory = /* @__PURE__ */ allows(issueHistoryRule);
export const canContactAbout = /* @__PURE__ */ allows(contactRule);
export const canRevokeCancellation = /* @__PURE__ */ allows(cancellationRevocationRule);
export const canDownloadGiftCertificate = /* @__PURE__ */ allows(giftCertificateRule);
export const canOpenExternalLink = /* @__PURE__ */ allows(externalLinkRule);
export const canUpgradePhase = /* @__PURE__ */ allows(phaseUpgradeRule);

/** Which holiday service types the tenant offers for the subscription's publication (§6, blacklists per type). */
export function holidayServiceTypes(s: CapabilitySubscription, ctx: CapabilityContext): HolidayServiceType[] {
  if (ruleRefusal(holidayServiceRule, s, ctx)) return [];
  return HOLIDAY_SERVICE_TYPES.filter((type) =>
    isFeatureOn(ctx.tenant, HOLIDAY_SERVICE_FLAGS[type], s.publication),
  );
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
