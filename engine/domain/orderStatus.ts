/**
 * Order statuses and their groupings, portal-core.md §4 "Order status".
 *   A  active · AK active with known termination date (cancelled) · I inactive
 *   IZ inactive with known activation date, shown as active · IU active but halted (suspended)
 */
export const ORDER_STATUSES = ['A', 'AK', 'I', 'IZ', 'IU'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** active = A, IZ or AK */
export function isActive(status: string): boolean {
  return status === 'A' || status === 'IZ' || status === 'AK';
}

/** active-not-cancelled = A or IZ */
export function isActiveNotCancelled(status: string): boolean {
  return status === 'A' || status === 'IZ';
}

/** strict active = A or AK */
export function isStrictActive(status: string): boolean {
  return status === 'A' || status === 'AK';
}

export function isSuspended(status: string): boolean {
  return status === 'IU';
}

/** Status colour of §2 "Subscription detail": active or activation-known green, inactive red, halted or termination-known orange. */
export type StatusTone = 'success' | 'error' | 'warning';
export function statusTone(status: string): StatusTone {
  if (status === 'A' || status === 'IZ') return 'success';
  if (status === 'AK' || status === 'IU') return 'warning';
  return 'error';
}

export type SubscriptionFilter = 'active' | 'inactive' | 'all';

/**
 * Whether a subscription has ended, for the orders page filter (§2 "Orders page"). Only I has:
 * IU is "active but halted" (§4 table) — a subscriber on a holiday break must still find it
 * under "active" — although the §4 grouping "active" (A, IZ, AK) leaves it out for capability rules.
 */
export function hasEnded(status: string): boolean {
  return !isActive(status) && !isSuspended(status);
}

/** The orders page filter: active = not ended, inactive = ended, all. */
export function matchesFilter(status: string, filter: SubscriptionFilter): boolean {
  if (filter === 'all') return true;
  return filter === 'active' ? !hasEnded(status) : hasEnded(status);
}
