import { lazy, Suspense, type ComponentType } from 'react';

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
