import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';

/**
 * A part of the orders page whose code loads the first time it is shown, not with the page: most
 * visits show none of them (docs/testing.md "Speed and size"). Until its code is there it shows
 * nothing; a part is rendered only when it has something to show, so its first showing loads it.
 */
export function loadedWhenShown<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Loaded = lazy(async () => ({ default: await load() }));
  return function PartWhenShown(props: P) {
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  };
}

/**
 * A part above the subscriptions whose code loads once the account's data says it has something
 * to show (pending orders, rejected changes): `usePart(needed)` gives the part when its code is
 * there, and whether the page still waits for it. A page that holds its lists until then has no
 * part arriving above cards already shown (docs/testing.md "Speed and size"). A file that does not
 * load fails the screen as a screen's own file would (engine/core/ScreenErrorBoundary.tsx).
 */
export function loadedWhenNeeded<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  return function usePart(needed: boolean): { Part: ComponentType<P> | undefined; waiting: boolean } {
    const [, setArrived] = useState(0);
    const [failure, setFailure] = useState<{ error: unknown }>();
    useEffect(() => {
      if (!needed || loaded) return;
      let live = true;
      loading ??= load().then((part) => (loaded = part));
      loading.then(
        () => live && setArrived((count) => count + 1),
        (error: unknown) => {
          loading = undefined;
          if (live) setFailure({ error });
        },
      );
      return () => {
        live = false;
      };
    }, [needed]);
    if (failure) throw failure.error;
    return { Part: needed ? loaded : undefined, waiting: needed && !loaded };
  };
}
