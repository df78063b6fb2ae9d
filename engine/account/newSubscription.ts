import { useCallback, useEffect } from 'react';
import { useLocation } from 'react-router';
import { atom, useAtomValue, useSetAtom } from 'jotai';
import { ROUTES } from '../domain/routeRefs';
import { authStateAtom } from '../core/authState';
import { usePortal } from '../core/PortalContext';

/**
 * portal-core.md §4: "Adding a subscription through link stores its order number (if present) and
 * sets a new-subscription flag that drives the menu badge" (§2: the green 'new' badge on /orders).
 * Set by link-subscription, read by the sidebar (and the new subscription's card), and cleared once
 * the user has seen it: when they leave the orders page after it listed their subscriptions.
 *
 * The flag survives a reload: the tab keeps it in session storage, per tenant and for the user who
 * linked, so a reload of the success dialog or of the orders page still shows it and another user
 * signing in in the same tab never sees it. Once the orders page listed it, the stored flag says it
 * was seen: a page loaded afresh anywhere but the orders page (a typed URL, a bookmark: leaving
 * without the menu, where the orders page's own cleanup never runs) drops it. Shared state of several features, so it lives in the
 * account kit rather than in any one feature's folder.
 */
export interface NewSubscription {
  orderNumber: string | null;
}

interface StoredNewSubscription extends NewSubscription {
  userId: string;
  /** The orders page listed it: only a reload of that page still shows it. */
  seen?: boolean;
}

/** `undefined`: not read from session storage yet in this page. */
export const newSubscriptionAtom = atom<StoredNewSubscription | null | undefined>(undefined);

export const newSubscriptionKey = (tenantId: string) => `portal.newSubscription.${tenantId}`;

function sessionStore(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** The flag kept in the tab (storage failures are ignored, §8). */
export function readNewSubscription(
  storage: Storage | undefined,
  tenantId: string,
): StoredNewSubscription | null {
  try {
    const raw = storage?.getItem(newSubscriptionKey(tenantId));
    const value = raw ? (JSON.parse(raw) as Partial<StoredNewSubscription>) : null;
    if (!value || typeof value.userId !== 'string') return null;
    return {
      userId: value.userId,
      orderNumber: typeof value.orderNumber === 'string' ? value.orderNumber : null,
      ...(value.seen === true ? { seen: true } : {}),
    };
  } catch {
    return null;
  }
}

export function writeNewSubscription(
  storage: Storage | undefined,
  tenantId: string,
  value: StoredNewSubscription | null,
): void {
  try {
    if (value) storage?.setItem(newSubscriptionKey(tenantId), JSON.stringify(value));
    else storage?.removeItem(newSubscriptionKey(tenantId));
  } catch {
    // §8: storage failures are ignored; the flag then lives as long as the page.
  }
}

/** The flag for the signed-in user: a new subscription linked and not seen yet, else null. */
export function useNewSubscription(): NewSubscription | null {
  const { config } = usePortal();
  const tenantId = config.tenant.id;
  const stored = useAtomValue(newSubscriptionAtom);
  const setStored = useSetAtom(newSubscriptionAtom);
  const userId = useAtomValue(authStateAtom).user?.id;
  const onOrders = useLocation().pathname === `/${ROUTES.orders.path}`;
  const kept = stored === undefined ? readNewSubscription(sessionStore(), tenantId) : stored;
  // Seen on the orders page in an earlier page load, and this load is elsewhere: it is gone.
  const stale = stored === undefined && Boolean(kept?.seen) && !onOrders;
  useEffect(() => {
    if (!stale) return;
    writeNewSubscription(sessionStore(), tenantId, null);
    setStored(null);
  }, [stale, tenantId, setStored]);
  const value = stale ? null : kept;
  return value && userId && value.userId === userId ? { orderNumber: value.orderNumber } : null;
}

/** Sets the flag after a link (`mark`), notes that the orders page listed it (`seen`) and clears it once left (`clear`). */
export function useNewSubscriptionFlag(): {
  mark: (orderNumber: string | null) => void;
  seen: () => void;
  clear: () => void;
} {
  const { config } = usePortal();
  const tenantId = config.tenant.id;
  const setStored = useSetAtom(newSubscriptionAtom);
  const userId = useAtomValue(authStateAtom).user?.id;
  const mark = useCallback(
    (orderNumber: string | null) => {
      if (!userId) return;
      const value = { userId, orderNumber };
      writeNewSubscription(sessionStore(), tenantId, value);
      setStored(value);
    },
    [setStored, tenantId, userId],
  );
  const seen = useCallback(() => {
    const kept = readNewSubscription(sessionStore(), tenantId);
    if (kept && !kept.seen) writeNewSubscription(sessionStore(), tenantId, { ...kept, seen: true });
  }, [tenantId]);
  const clear = useCallback(() => {
    writeNewSubscription(sessionStore(), tenantId, null);
    setStored(null);
  }, [setStored, tenantId]);
  return { mark, seen, clear };
}
