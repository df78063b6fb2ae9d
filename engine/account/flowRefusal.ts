/**
 * Why a flow page refuses a subscription (account-flows.md §6, portal-core.md §6): the verdict of
 * checkCapability (engine/domain/capabilities.ts), the same answer the subscription page shows the
 * flow's button by and the server refuses the flow's calls by, with the reason its rule gives. A
 * flow page opened by URL for a subscription the rule refuses (a bookmark, a link in an e-mail, the
 * back button after the subscription changed) says so with FlowUnavailable instead of failing to load.
 */
import {
  checkCapability,
  type Capability,
  type CapabilityContext,
  type CapabilityRefusal,
  type CapabilitySubscription,
} from '../domain/capabilities';

/** The reasons a notice can name (`account.flow.unavailable.<reason>`); `other` when the rule names none. */
export type FlowRefusal = Exclude<CapabilityRefusal, 'featureDisabled'>;

/** Null when the flow is open for the subscription, else why not. */
export function flowRefusal(
  capability: Capability,
  s: CapabilitySubscription,
  ctx: CapabilityContext,
): FlowRefusal | null {
  const verdict = checkCapability(capability, s, ctx);
  if (verdict.allowed) return null;
  // To the subscriber a feature the tenant has off, or blacklisted for the publication, is a
  // service not offered for this subscription.
  return verdict.reason === 'featureDisabled' ? 'notOffered' : verdict.reason;
}

/** Reasons where the customer service can help further: the notice links the contact page. */
export const CONTACT_HELPS: ReadonlySet<FlowRefusal> = new Set<FlowRefusal>([
  'externallyManaged',
  'notCancelable',
  'notOffered',
  'other',
]);
