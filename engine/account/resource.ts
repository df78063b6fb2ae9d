import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiClient } from '../core/apiClient';
import { usePortal } from '../core/PortalContext';
import { useLanguage } from '../core/translation';
import { ApiError } from '../domain/apiError';

/**
 * The states of anything a screen loads: loading (with the data of the previous load, if any, so a
 * paged list keeps its page while the next one comes), failed, or ready with its data. One shape
 * for every screen, rendered by ResourceView (loading / error with try again / empty notice).
 */
export type ResourceState<T> =
  | { status: 'loading'; previous?: T }
  // `notFound`: the server answered 404 (no such thing on this account), which trying again will not change.
  | { status: 'failed'; notFound?: boolean }
  | { status: 'ready'; data: T };

export interface Resource<T> {
  state: ResourceState<T>;
  reload: () => void;
}

/** The data of a resource: when ready, or the previous data while it reloads. */
export function dataOf<T>(state: ResourceState<T>): T | undefined {
  return state.status === 'ready' ? state.data : state.status === 'loading' ? state.previous : undefined;
}

/**
 * Loads `load(api)` when the screen mounts and again whenever `key` changes (the path with its
 * query, a page number, the session…) or `reload()` is called. An answer that arrives after the key
 * changed or the screen left is dropped, so a slow first page never overwrites the second.
 * `replace` puts the answer of a change in place without loading again.
 *
 * A change of the screen's language loads again too, quietly: the server words product, article
 * and offer names in the language of the call, so the new words replace the old ones
 * when they arrive, while the screen keeps what it shows (a form keeps what was typed). A quiet load
 * that fails keeps the words in the old language rather than an error in place of the screen.
 */
export function useResource<T>(
  key: string,
  load: (api: ApiClient) => Promise<T>,
): Resource<T> & { replace: (data: T) => void } {
  const { api } = usePortal();
  const language = useLanguage();
  const [state, setState] = useState<ResourceState<T>>({ status: 'loading' });
  const [round, setRound] = useState(0);
  // `load` is a fresh closure on every render; the key says when its answer changes.
  const loader = useRef(load);
  loader.current = load;
  // What the last load was asked for: when only the language differs, the next load is a quiet one.
  const asked = useRef<{ api: ApiClient; key: string; round: number } | null>(null);

  useEffect(() => {
    let live = true;
    const before = asked.current;
    const quiet = before !== null && before.api === api && before.key === key && before.round === round;
    asked.current = { api, key, round };
    if (!quiet)
      setState((previous) =>
        previous.status === 'loading' ? previous : { status: 'loading', previous: dataOf(previous) },
      );
    loader.current(api).then(
      (data) => live && setState({ status: 'ready', data }),
      (error: unknown) =>
        live &&
        setState((previous) =>
          quiet && previous.status === 'ready'
            ? previous
            : { status: 'failed', notFound: error instanceof ApiError && error.status === 404 },
        ),
    );
    return () => {
      live = false;
    };
  }, [api, key, round, loader, language]);

  // Loading from the moment of the call, not from the effect after the next paint: a screen that
  // shows a change's note and reloads never shows the note beside the state it changed.
  const reload = useCallback(() => {
    setState((previous) => ({ status: 'loading', previous: dataOf(previous) }));
    setRound((n) => n + 1);
  }, []);
  // A change's answer carries the new state (an order attribute saved returns the subscription).
  const replace = useCallback((data: T) => setState({ status: 'ready', data }), []);
  return { state, reload, replace };
}

/**
 * A list shared by several screens and kept in a store (the subscriptions, purchase orders): its
 * store state as a resource, so it is shown by the same ResourceView. `idle` (not asked yet) shows
 * as loading, since the store asks at once.
 */
export function storedResource<T>(
  status: 'idle' | 'loading' | 'failed' | 'ready',
  data: T,
  reload: () => void,
): Resource<T> {
  if (status === 'ready') return { state: { status: 'ready', data }, reload };
  if (status === 'failed') return { state: { status: 'failed' }, reload };
  return { state: { status: 'loading' }, reload };
}
