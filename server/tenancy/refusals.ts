/**
 * The one way the server refuses what a subscriber may not do, so
 * every route answers the same three refusals with the same codes:
 *
 *  - 403 `feature_disabled`: the tenant has the feature switched off, or blacklisted for the
 *    publication (portal-core.md §6 feature flags with their per-publication blacklists);
 *  - 403 `not_allowed`: the capability rule of §6 refuses it for this subscription and role;
 *  - 404 `not_found`: it is not the user's (a subscription not linked to them is "not found", §6),
 *    so a probe learns nothing about other accounts.
 *
 * The checks are the same engine/domain functions the screens use (CONVENTIONS.md rule 3).
 */
import type { Subscription } from '../../schemas/generated/subscription';
import {
  CAPABILITY_RULES,
  checkCapability,
  type Capability,
  type CapabilityContext,
  type CapabilityRefusal,
} from '../../engine/domain/capabilities';
import type { FeatureFlag } from '../../engine/domain/featureFlags';
import { isFeatureOn, type FeatureSwitches } from '../../engine/domain/tenantFeatures';
import type { LifecycleRefusal } from '../../engine/domain/lifecycle';
import { HttpError, notFound } from '../http/errors';
import type { ServerTenant } from './tenantContext';

export const refuse = {
  featureDisabled: (what: string, details?: unknown) =>
    new HttpError(403, 'feature_disabled', `This portal does not offer ${what}.`, details),
  notAllowed: (message: string, details?: unknown) => new HttpError(403, 'not_allowed', message, details),
  notYours: (message = 'Not found.') => notFound(message),
};

/** 403 `feature_disabled` unless the flag is on for the tenant (and not blacklisted for the publication). */
export function requireFeature(tenant: FeatureSwitches, flag: FeatureFlag, publication?: string): void {
  if (!isFeatureOn(tenant, flag, publication))
    throw refuse.featureDisabled(publication ? `${flag} for ${publication}` : flag);
}

export function capabilityContext(tenant: ServerTenant): CapabilityContext {
  return { tenant };
}

/**
 * Why a capability rule refused, in words for a developer reading the answer; the portal shows its
 * own text by the reason code (`account.flow.unavailable.<reason>`, engine/account/texts.json).
 */
const CAPABILITY_REFUSAL_MESSAGES: Record<CapabilityRefusal, string> = {
  featureDisabled: 'the portal does not offer it for this publication',
  notOffered: 'it is not offered for this subscription',
  bundleComponent: "the subscription is part of a bundle: use the bundle's main subscription",
  licenceUser: 'the subscription is used through a licence: the ordering party changes it',
  externallyManaged: 'the subscription is not managed through this portal',
  licenceManager: 'a licence manager may not do this',
  notOrderingParty: 'only the ordering party of the subscription may do this',
  notRecipient: 'only the goods recipient or the ordering party of the subscription may do this',
  inactive: 'the subscription is not active',
  notCancelable: 'the subscription cannot be cancelled online',
  other: 'the rule of portal-core.md §6 refuses it for this subscription',
};

/**
 * 403 `feature_disabled` when the tenant has the feature off for the publication, 403 `not_allowed`
 * when the rule of §6 refuses; either carries the rule's reason in `details` (`{ capability, reason }`),
 * the reason the button and the flow's notice go by
 * (docs/architecture.md "Server: schema → route → service → store").
 */
export function requireCapability(
  capability: Capability,
  subscription: Subscription,
  tenant: ServerTenant,
): void {
  const verdict = checkCapability(capability, subscription, capabilityContext(tenant));
  if (verdict.allowed) return;
  const details = { capability, reason: verdict.reason };
  // Named by the tenant file's feature ids (`issue-history`), which an operator switches.
  if (verdict.reason === 'featureDisabled')
    throw refuse.featureDisabled(
      `${CAPABILITY_RULES[capability].flags.join(' or ')} for ${subscription.publication}`,
      details,
    );
  throw refuse.notAllowed(
    `${capability} is not possible: ${CAPABILITY_REFUSAL_MESSAGES[verdict.reason]} (${verdict.reason}, portal-core.md §6).`,
    details,
  );
}

const LIFECYCLE_REFUSALS: Record<LifecycleRefusal, { status: number; message: string }> = {
  already_cancelled: { status: 409, message: 'This subscription is already cancelled.' },
  not_cancellable: { status: 409, message: 'This subscription cannot be cancelled online.' },
  inactive: { status: 409, message: 'This subscription is not active.' },
  date_in_past: { status: 400, message: 'The date has passed.' },
  date_after_end: { status: 400, message: 'The date is after the end of the subscription.' },
  offer_already_accepted: {
    status: 409,
    message: 'This offer has already been accepted for this subscription.',
  },
  offer_already_used: {
    status: 409,
    message: 'A retention offer has been taken for this subscription this year already.',
  },
  already_renewed: {
    status: 409,
    message:
      'This subscription has been renewed already: another renewal is offered once the months it bought have run.',
  },
  renewed_term: {
    status: 409,
    message:
      'This subscription has been renewed: a cancellation takes effect at the end of the renewed term, no earlier.',
  },
  offer_payment_open: {
    status: 409,
    message:
      'The payment of another offer for this subscription is still open: finish it in its payment window or give it up (POST /subscriptions/{id}/pending-payments/{paymentId}/abandon) first.',
  },
  payment_already_settled: { status: 409, message: 'This payment has already been settled.' },
  upgrade_format_held: {
    status: 409,
    message: 'This subscription already has, or will have, the format this upgrade offers.',
  },
  invalid_range: { status: 400, message: 'The dates are not a valid range.' },
  phase_not_upgradable: {
    status: 409,
    message: 'The current phase of this subscription cannot be upgraded now.',
  },
  beyond_calendar: {
    status: 409,
    message:
      'This change would reach past 31 December 9999, the last day the portal keeps: the subscription runs to the end already.',
  },
};

/** The answer to a transition the subscription's lifecycle refused (engine/domain/lifecycle.ts), by the refusal's name. */
export function refusedTransition(refusal: LifecycleRefusal): HttpError {
  const { status, message } = LIFECYCLE_REFUSALS[refusal];
  return new HttpError(status, refusal, message);
}
