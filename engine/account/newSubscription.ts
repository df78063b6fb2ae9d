import { atom } from '../core/atoms';

/**
 * portal-core.md §4: "Adding a subscription through link stores its order number (if present) and
 * sets a new-subscription flag that drives the menu badge." Set by link-subscription, read by the
 * sidebar, cleared when the orders page is seen. Shared state of several features, so it lives in
 * the account kit rather than in any one feature's folder.
 */
export const newSubscriptionAtom = atom<{ orderNumber: string | null } | null>(null);
