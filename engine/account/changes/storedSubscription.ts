import { useCallback } from 'react';
import { useSetAtom } from 'jotai';
import type { Subscription } from '../../../schemas/generated/subscription';
import { subscriptionsAtom } from '../../core/subscriptionsStore';

/**
 * account-flows.md §7 "a successful holiday setup or cancel replaces the stored subscription": the
 * answer takes the old subscription's place in the shared list (the orders page and pickers show
 * it at once); a list not loaded yet loads it with the change anyway.
 */
export function useReplaceStoredSubscription(): (subscription: Subscription) => void {
  const setSubscriptions = useSetAtom(subscriptionsAtom);
  return useCallback(
    (subscription: Subscription) =>
      setSubscriptions((state) =>
        state.status === 'ready'
          ? {
              status: 'ready',
              subscriptions: state.subscriptions.map((s) => (s.id === subscription.id ? subscription : s)),
            }
          : state,
      ),
    [setSubscriptions],
  );
}
