import { useCallback, useEffect } from 'react';
import { atom, useAtom } from 'jotai';
import type { Subscription } from '../../schemas/generated/subscription';
import { usePortal } from './PortalContext';
import { useLanguage } from './translation';

export type SubscriptionsState =
  | { status: 'idle' | 'loading' | 'failed'; subscriptions: [] }
  /** `locale`: the language the server worded the list in (left out by a change that puts its answer in place). */
  | { status: 'ready'; subscriptions: Subscription[]; locale?: string };

const INITIAL: SubscriptionsState = { status: 'idle', subscriptions: [] };

/**
 * The order list of portal-core.md §4: fetched once and shared by every screen that lists
 * subscriptions; while a fetch runs further fetches are ignored; a failure sets the error state
 * (`failed`) and is logged to the console (§8), a finished load the complete state (`ready`).
 * Log-out resets it.
 *
 * The server words product names in the screen's language: after the flag button
 * switched it, the list is fetched again, quietly — it stays on screen until the new words arrive.
 */
export const subscriptionsAtom = atom<SubscriptionsState>(INITIAL);
export const resetSubscriptions = INITIAL;

export function useSubscriptions(): { state: SubscriptionsState; reload: () => void } {
  const { api } = usePortal();
  const language = useLanguage();
  const [state, setState] = useAtom(subscriptionsAtom);

  const fetchList = useCallback(
    (quiet: boolean) => {
      if (!quiet) setState({ status: 'loading', subscriptions: [] });
      // Marked at once, so the other screens that list subscriptions do not fetch it a second time.
      else
        setState((previous) => (previous.status === 'ready' ? { ...previous, locale: language } : previous));
      api
        .get<Subscription[]>('/subscriptions')
        .then((subscriptions) => setState({ status: 'ready', subscriptions, locale: language }))
        .catch((error: unknown) => {
          // §8 "Orders load error": the failure sets the error state and logs the response.
          console.error('The order list did not load:', error);
          setState((previous) =>
            quiet && previous.status === 'ready' ? previous : { status: 'failed', subscriptions: [] },
          );
        });
    },
    [api, language, setState],
  );
  const load = useCallback(() => fetchList(false), [fetchList]);

  useEffect(() => {
    if (state.status === 'idle') load();
    else if (
      state.status === 'ready' &&
      state.locale !== undefined &&
      language !== undefined &&
      state.locale !== language
    )
      fetchList(true);
  }, [state, language, load, fetchList]);

  return { state, reload: load };
}
