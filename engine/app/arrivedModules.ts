import { lazy, type ComponentType } from 'react';

/**
 * Lazy components that render at once when their module has arrived before they do. React shows a
 * Suspense boundary's content no sooner than 300 ms after its fallback appeared, and a
 * `React.lazy` suspends on its first render however early its module came: the screen a visit
 * starts on, asked for beside the entry (cli/build/deferredScreens.ts), would show the loading
 * notice first and mount, and ask for its data, that much later. A module asked for through
 * `startLoading` is kept once it arrives, and a component of `lazyArrived` takes it without
 * suspending. A failed download is not kept: the component asks again, as `React.lazy` does.
 */
type Loader<M> = () => Promise<M>;

const arrived = new Map<Loader<unknown>, unknown>();

const loadModule = <M>(loader: Loader<M>): Promise<M> =>
  loader().then((module) => {
    arrived.set(loader, module);
    return module;
  });

/** Asks for a module without waiting for it: a failure shows where the module is used, not here. */
export const startLoading = (loader: Loader<unknown>): void => void loadModule(loader).catch(() => undefined);

/** `React.lazy` of a loader's module (`pick` names the component in it, `default` unless told). */
export function lazyArrived<M, P extends object = object>(
  loader: Loader<M>,
  pick: (module: M) => ComponentType<P> = (module) => (module as { default: ComponentType<P> }).default,
): ComponentType<P> {
  return lazy(() => {
    const module = arrived.get(loader) as M | undefined;
    if (module === undefined) return loadModule(loader).then((loaded) => ({ default: pick(loaded) }));
    // A thenable that answers at once: React.lazy then has the component in its first render.
    const ready = { default: pick(module) };
    return { then: (resolve: (value: typeof ready) => void) => resolve(ready) } as Promise<typeof ready>;
  });
}
