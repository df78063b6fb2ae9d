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
  s: CapabilitySubscription & Pick<Subscription, 'bundle'>,
  ctx: CapabilityContext,
): boolean {
  return isActive(s.orderStatus) && !s.bundle && !(s.renewal?.autoRenewal ?? false) && canRenew(s, ctx);
}
