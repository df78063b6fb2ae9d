import { useCallback, useEffect } from 'react';
import { atom, useAtom } from 'jotai';
import type { PurchaseOrder } from '../../../schemas/generated/purchase-order';
import type { PendingOrder } from '../../../schemas/generated/pending-order';
import { usePortal } from '../../core/PortalContext';
import { isFeatureOn } from '../../domain/tenantFeatures';

type ListState<T> = { status: 'idle' | 'loading' | 'failed' | 'ready'; items: T[] };

const purchaseOrdersAtom = atom<ListState<PurchaseOrder>>({ status: 'idle', items: [] });
const pendingOrdersAtom = atom<ListState<PendingOrder>>({ status: 'idle', items: [] });

/**
 * §4 "Adding a subscription through link stores its order number (if present) and sets a
 * new-subscription flag that drives the menu badge." Read by the sidebar, cleared on /orders.
 */
export const newSubscriptionAtom = atom<{ orderNumber: string | null } | null>(null);

function useList<T>(listAtom: typeof purchaseOrdersAtom | typeof pendingOrdersAtom, path: string, enabled: boolean) {
  const { api } = usePortal();
  const [state, setState] = useAtom(listAtom as unknown as ReturnType<typeof atom<ListState<T>>>);
  const load = useCallback(() => {
    setState({ status: 'loading', items: [] });
    api
      .get<T[]>(path)
      .then((items) => setState({ status: 'ready', items }))
      .catch(() => setState({ status: 'failed', items: [] }));
  }, [api, path, setState]);
  useEffect(() => {
    if (enabled && state.status === 'idle') load();
  }, [enabled, state.status, load]);
  return { state: enabled ? state : { status: 'ready' as const, items: [] as T[] }, reload: load };
}

/** §7 GET /purchase-orders, fetched once like the subscriptions. */
export function usePurchaseOrders() {
  return useList<PurchaseOrder>(purchaseOrdersAtom, '/purchase-orders', true);
}

/** §7 GET /pending-orders: only if the tenant supports pending orders. */
export function usePendingOrders() {
  const { config } = usePortal();
  return useList<PendingOrder>(pendingOrdersAtom, '/pending-orders', isFeatureOn(config.tenant, 'pending-orders'));
}
