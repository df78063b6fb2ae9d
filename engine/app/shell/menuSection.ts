/**
 * Which sidebar item a path belongs to, so every route shows where the visitor is: the item whose
 * path it is or lies under, else — for the pages reached from the orders overview (a subscription,
 * its flows, a bundle group) — the orders item.
 */
const ORDERS_SUB_PAGES = ['/subscriptions/', '/bundle-group/'];

export function currentMenuItem<T extends { to: string }>(
  items: readonly T[],
  pathname: string,
): T | undefined {
  const own = items.find((item) => pathname === item.to || pathname.startsWith(`${item.to}/`));
  if (own) return own;
  if (!ORDERS_SUB_PAGES.some((prefix) => pathname.startsWith(prefix))) return undefined;
  return items.find((item) => item.to === '/orders');
}
