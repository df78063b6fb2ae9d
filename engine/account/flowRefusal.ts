/**
 * Why a flow page refuses a subscription (account-flows.md §6, portal-core.md §6): the same
 * checkCapability the subscription page shows the flow's button by and the server refuses the
 * flow's calls by, plus the one fact of the rule that explains it where one does. A flow page
 * opened by URL for a subscription the rule refuses (a bookmark, a link in an e-mail, the back
 * button after the subscription changed) says so with FlowUnavailable instead of failing to load.
 */
import {
  checkCapability,
  isBundleSlave,
  isExternallyManaged,
  isLicenceManager,
  isOrderingParty,
  isSuspendedWithEndDate,
  type Capability,
  type CapabilityContext,
  type CapabilitySubscription,
} from '../domain/capabilities';
import { isActive } from '../domain/orderStatus';

/** The reasons a notice can name; `other` when the rule refuses for none of them alone. */
export const FLOW_REFUSALS = [
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
export type FlowRefusal = (typeof FLOW_REFUSALS)[number];

type Fact = (s: CapabilitySubscription, ctx: CapabilityContext) => boolean;

const externallyManaged: Fact = (s) => isExternallyManaged(s);
const licenceManager: Fact = (s) => isLicenceManager(s);
const notOrderingParty: Fact = (s) => !isOrderingParty(s);
const inactive: Fact = (s) => !isActive(s.orderStatus);

/**
 * The facts each capability's rule (engine/domain/capabilities.ts) refuses on, in the order a
 * notice names them; the first that holds is the reason. A capability not listed, or a refusal
 * none of its facts explains (time-based, no auto-renewal, …), gets the general notice.
 */
const RULE_FACTS: Partial<Record<Capability, ReadonlyArray<readonly [FlowRefusal, Fact]>>> = {
  // "holiday service: not externally managed, not licence manager, and (active and not time-based,
  // or suspended with an end date)", and the holiday blacklists of mix types and publications.
  holidayService: [
    ['externallyManaged', externallyManaged],
    ['licenceManager', licenceManager],
    ['inactive', (s) => !isActive(s.orderStatus) && !isSuspendedWithEndDate(s)],
    [
      'notOffered',
      (s, { tenant }) =>
        (tenant.holidayService?.blacklistedMixTypes ?? []).includes(s.mixType) ||
        (tenant.holidayService?.blacklistedPublications ?? []).includes(s.publication),
    ],
  ],
  // "issue complaint: active, not externally managed, physical or combi, not time-based, not licence manager"
  issueComplaint: [
    ['externallyManaged', externallyManaged],
    ['licenceManager', licenceManager],
    ['inactive', inactive],
    [
      'notOffered',
      (s, { tenant }) => (tenant.issueComplaint?.blacklistedPublications ?? []).includes(s.publication),
    ],
  ],
  // "cancellation: when cancelable, or when externally managed (WBZA)"
  cancellation: [['notCancelable', (s) => !s.isCancelable]],
  renewal: [['notOrderingParty', notOrderingParty]],
  upgrade: [['notOrderingParty', notOrderingParty]],
  // "payment method change: active, ordering party, not externally managed"
  paymentMethodChange: [
    ['externallyManaged', externallyManaged],
    ['notOrderingParty', notOrderingParty],
    ['inactive', inactive],
  ],
  // "address change and opt-ins: not licence manager, not externally managed"
  addressChange: [
    ['externallyManaged', externallyManaged],
    ['licenceManager', licenceManager],
  ],
  optIns: [
    ['externallyManaged', externallyManaged],
    ['licenceManager', licenceManager],
  ],
};

/**
 * Null when the flow is open for the subscription, else why not: the tenant's flag or publication
 * blacklist first (checkCapability's `feature_disabled`), then the bundle component and licence
 * user limits of checkCapability, then the rule's own facts.
 */
export function flowRefusal(
  capability: Capability,
  s: CapabilitySubscription,
  ctx: CapabilityContext,
): FlowRefusal | null {
  const check = checkCapability(capability, s, ctx);
  if (check === 'ok') return null;
  if (check === 'feature_disabled') return 'notOffered';
  if (isBundleSlave(s)) return 'bundleComponent';
  if (s.isLicenseUser) return 'licenceUser';
  const fact = (RULE_FACTS[capability] ?? []).find(([, holds]) => holds(s, ctx));
  return fact ? fact[0] : 'other';
}

/** Reasons where the customer service can help further: the notice links the contact page. */
export const CONTACT_HELPS: ReadonlySet<FlowRefusal> = new Set<FlowRefusal>([
  'externallyManaged',
  'notCancelable',
  'notOffered',
  'other',
]);
