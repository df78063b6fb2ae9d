/**
 * The capabilities the orders page's cards read (portal-core.md §2 "Orders page"): the download and
 * the renewal button. Their rules are in the table of engine/domain/capabilities.ts like every
 * other; they live here so the orders page loads two rules, not all of them.
 */
import type { Subscription } from '../../schemas/generated/subscription';
import {
  allows,
  isGoodsRecipient,
  notOrderingParty,
  type CapabilityContext,
  type CapabilityRule,
  type CapabilitySubscription,
} from './capabilityRule';
import { isActive, isStrictActive } from './orderStatus';

// "download: pdfDownload medium and goods recipient"
export const issueDownloadRule: CapabilityRule = {
  flags: ['issue-download'],
  bundleComponents: true,
  licenceUsers: true,
  refusals: [['other', (s) => !s.mixTypeDetails.pdfDownload || !isGoodsRecipient(s)]],
};
// "renewal: renewable, ordering party, and no auto-renewal unless forced"
export const renewalRule: CapabilityRule = {
  flags: ['renewal'],
  refusals: [
    notOrderingParty,
    ['other', (s) => !s.isRenewal],
    ['other', (s, { tenant }) => (s.renewal?.autoRenewal ?? false) && !tenant.renewal?.forceWithAutoRenewal],
  ],
};

export const canRenew = /* @__PURE__ */ allows(renewalRule);
export const canDownloadIssues = /* @__PURE__ */ allows(issueDownloadRule);

/**
 * Whether a renewal is offered now, on a card, in the summary or as the subscription page's action:
 * the rule allows it and no renewal the subscriber accepted still runs (engine/domain/lifecycle.ts
 * renewedUntil, which the server sends with every subscription). While one runs no further renewal
 * is offered; the renewal screen itself asks only the rule and says until when it runs.
 */
export function offersRenewal(
  s: CapabilitySubscription & Pick<Subscription, 'renewedUntil'>,
  ctx: CapabilityContext,
): boolean {
  return !s.renewedUntil && canRenew(s, ctx);
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
  return activeEnough && canDownloadIssues(s, ctx);
}

/** §2 "Orders page": "A renewal action appears for active non-bundle renewable subscriptions without auto-renewal." */
export function showsCardRenewal(
  s: CapabilitySubscription & Pick<Subscription, 'bundle' | 'renewedUntil'>,
  ctx: CapabilityContext,
): boolean {
  return isActive(s.orderStatus) && !s.bundle && !(s.renewal?.autoRenewal ?? false) && offersRenewal(s, ctx);
}
