import { useCallback, useEffect } from 'react';
import { atom, useAtom } from './atoms';
import type { Subscription } from '../../schemas/generated/subscription';
import { usePortal } from './PortalContext';

export type SubscriptionsState =
  | { status: 'idle' | 'loading' | 'failed'; subscriptions: [] }
  | { status: 'ready'; subscriptions: Subscription[] };

const INITIAL: SubscriptionsState = { status: 'idle', subscriptions: [] };

/**
 * The order list of portal-core.md §4: fetched once and shared by every screen that lists
 * subscriptions; while a fetch runs further fetches are ignored; a failure sets the error state
 * (`failed`), a finished load the complete state (`ready`). Log-out resets it.
 */
export const subscriptionsAtom = atom<SubscriptionsState>(INITIAL);
export const resetSubscriptions = INITIAL;

export function useSubscriptions(): { state: SubscriptionsState; reload: () => void } {
  const { api } = usePortal();
  const [state, setState] = useAtom(subscriptionsAtom);

  const load = useCallback(() => {
    setState({ status: 'loading', subscriptions: [] });
    api
      .get<Subscription[]>('/subscriptions')
      .then((subscriptions) => setState({ status: 'ready', subscriptions }))
      .catch(() => setState({ status: 'failed', subscriptions: [] }));
  }, [api, setState]);

  useEffect(() => {
    if (state.status === 'idle') load();
  }, [state.status, load]);

  return { state, reload: load };
}
