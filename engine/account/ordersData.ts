import { useCallback, useEffect } from 'react';
import { atom, useAtom, type PrimitiveAtom } from 'jotai';
import type { PurchaseOrder } from '../../schemas/generated/purchase-order';
import type { PendingOrder } from '../../schemas/generated/pending-order';
import { usePortal } from '../core/PortalContext';
import { useLanguage } from '../core/translation';
import { isFeatureOn } from '../domain/tenantFeatures';
import { mayCall } from '../domain/sessionScope';
import { useSessionScope } from '../core/authState';
import { storedResource, type Resource } from './resource';

interface ListState<T> {
  status: 'idle' | 'loading' | 'failed' | 'ready';
  items: T[];
  /** The language the server worded the items in: another screen language loads them again. */
  locale?: string;
}

const purchaseOrdersAtom = atom<ListState<PurchaseOrder>>({ status: 'idle', items: [] });
const pendingOrdersAtom = atom<ListState<PendingOrder>>({ status: 'idle', items: [] });

/**
 * A list fetched once per session and shared by the screens that show it (like the subscriptions,
 * §4); fetched again, quietly, when the screen's language changes, since the server words article
 * and product names in it (engine/core/subscriptionsStore.ts does the same).
 */
function useStoredList<T>(
  listAtom: PrimitiveAtom<ListState<T>>,
  path: string,
  enabled: boolean,
): Resource<T[]> {
  const { api } = usePortal();
  const language = useLanguage();
  const [state, setState] = useAtom(listAtom);
  const fetchList = useCallback(
    (quiet: boolean) => {
      setState((previous) => (quiet ? { ...previous, locale: language } : { status: 'loading', items: [] }));
      api
        .get<T[]>(path)
        .then((items) => setState({ status: 'ready', items, locale: language }))
        .catch(() =>
          setState((previous) =>
            quiet && previous.status === 'ready' ? previous : { status: 'failed', items: [] },
          ),
        );
    },
    [api, path, language, setState],
  );
  const load = useCallback(() => fetchList(false), [fetchList]);
  useEffect(() => {
    if (!enabled) return;
    if (state.status === 'idle') load();
    else if (
      state.status === 'ready' &&
      state.locale !== undefined &&
      language !== undefined &&
      state.locale !== language
    )
      fetchList(true);
  }, [enabled, state, language, load, fetchList]);
  return enabled
    ? storedResource(state.status, state.items, load)
    : { state: { status: 'ready', data: [] }, reload: load };
}

/**
 * §7 GET /purchase-orders, fetched once like the subscriptions; not asked by a "logged in only"
 * session (portal-core.md §4), whose one subscription has no purchase orders of the account: it
 * gets an empty list instead of the server's 403 (engine/domain/sessionScope.ts).
 */
export function usePurchaseOrders(): Resource<PurchaseOrder[]> {
  const scope = useSessionScope();
  return useStoredList(purchaseOrdersAtom, '/purchase-orders', mayCall(scope, 'GET', '/purchase-orders'));
}

/** §7 GET /pending-orders: only if the tenant supports pending orders, and not for a "logged in only" session (§4). */
export function usePendingOrders(): Resource<PendingOrder[]> {
  const { config } = usePortal();
  const scope = useSessionScope();
  return useStoredList(
    pendingOrdersAtom,
    '/pending-orders',
    isFeatureOn(config.tenant, 'pending-orders') && mayCall(scope, 'GET', '/pending-orders'),
  );
}
