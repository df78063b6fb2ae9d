import { useCallback, useEffect, useState } from 'react';
import type { Subscription } from '../../../schemas/generated/subscription';
import { usePortal } from '../../core/PortalContext';

export type SubscriptionState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; subscription: Subscription };

/** GET /subscriptions/{id}; a failure opens the dialog that returns to /orders (§8). */
export function useSubscription(id: string): { state: SubscriptionState; replace: (s: Subscription) => void } {
  const { api } = usePortal();
  const [state, setState] = useState<SubscriptionState>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    api
      .get<Subscription>(`/subscriptions/${encodeURIComponent(id)}`)
      .then((subscription) => live && setState({ status: 'ready', subscription }))
      .catch(() => live && setState({ status: 'failed' }));
    return () => {
      live = false;
    };
  }, [api, id]);
  const replace = useCallback((subscription: Subscription) => setState({ status: 'ready', subscription }), []);
  return { state, replace };
}

/** A paged list of the subscription page (§2, §9: pages of 10, zero-based). */
export function usePagedList<T>(path: string | null) {
  const { api } = usePortal();
  const [page, setPage] = useState(0);
  // `loadedPage` is the page the items belong to: while the next page loads the old items stay.
  const [state, setState] = useState<{ status: 'loading' | 'failed' | 'ready'; items: T[]; totalPages: number; totalItems: number; loadedPage: number }>({
    status: 'loading',
    items: [],
    totalPages: 1,
    totalItems: 0,
    loadedPage: 0,
  });
  useEffect(() => {
    if (!path) return;
    let live = true;
    setState((s) => ({ ...s, status: 'loading' }));
    api
      .get<{ items: T[]; totalPages: number; totalItems: number }>(`${path}?page=${page}`)
      .then(
        (result) =>
          live && setState({ status: 'ready', items: result.items, totalPages: result.totalPages, totalItems: result.totalItems, loadedPage: page }),
      )
      .catch(() => live && setState((s) => ({ ...s, status: 'failed' })));
    return () => {
      live = false;
    };
  }, [api, path, page]);
  return { page, setPage, state };
}
