import { isEmbeddedInFrame } from '../../core/hostFrame';

/**
 * Where a shop-link reward's shop opens (account-flows.md §4 "Reward claim": a claim "redirects to
 * a shop link"). Standalone the portal's tab goes there. Embedded in a publisher's page the shop
 * opens in a new tab: in the frame it would replace the portal inside the publisher's page.
 */
export function shopLinkTarget(): '_blank' | undefined {
  return isEmbeddedInFrame() ? '_blank' : undefined;
}

/** Only a web address is followed: the order system's link is data, never script (`javascript:`). */
export function isShopUrl(url: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

/**
 * Sends the subscriber on to the shop right after the claim. False when there is nothing to open
 * or a browser blocked the new tab of an embedded portal: the screen then offers the link.
 */
export function goToShop(url: string): boolean {
  if (!isShopUrl(url)) return false;
  if (shopLinkTarget() === undefined) {
    window.location.assign(url);
    return true;
  }
  // An empty tab first, cut from the portal's frame before it loads the shop (what
  // rel="noopener noreferrer" does for a link): the shop never gets a handle on the frame.
  const tab = window.open('about:blank', '_blank');
  if (!tab) return false;
  tab.opener = null;
  tab.location.href = url;
  return true;
}
