import { isEmbeddedInFrame } from '../../core/hostFrame';

/**
 * Where a shop-link reward's shop opens (account-flows.md §4 "Reward claim": a claim "redirects to
 * a shop link"). Standalone the portal's tab goes there. Embedded in a publisher's page the shop
 * opens in a new tab: in the frame it would replace the portal inside the publisher's page.
 */
export function shopLinkTarget(): '_blank' | undefined {
  return isEmbeddedInFrame() ? '_blank' : undefined;
}

/**
 * Sends the subscriber on to the shop right after the claim. False when a browser blocked the new
 * tab of an embedded portal: the screen then offers the link to open by hand.
 */
export function goToShop(url: string): boolean {
  if (shopLinkTarget() === undefined) {
    window.location.assign(url);
    return true;
  }
  const tab = window.open(url, '_blank');
  if (!tab) return false;
  // The shop gets no handle on the portal's frame (what rel="noopener" does for a link).
  tab.opener = null;
  return true;
}
