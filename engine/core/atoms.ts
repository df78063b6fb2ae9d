import {
  createContext,
  createElement,
  useCallback,
  useContext,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';

/**
 * The portal's shared state: a handful of plain values (the auth state, the subscriptions list,
 * the orders lists) that several screens read and write. Jotai's primitive atoms in shape
 * (`atom`, a store with get/set/sub, `useAtomValue`, `useSetAtom`, `useAtom`), without its derived
 * and async atoms, which the portal never used and which cost 3 KB of gzipped JavaScript on every
 * screen (README "Speed and size").
 */
export interface Atom<Value> {
  readonly init: Value;
}

/** A value with its initial state; the atom object itself is the key in every store. */
export function atom<Value>(init: Value): Atom<Value> {
  return { init };
}

type SetStateAction<Value> = Value | ((previous: Value) => Value);

export interface AtomStore {
  get<Value>(atom: Atom<Value>): Value;
  set<Value>(atom: Atom<Value>, update: SetStateAction<Value>): void;
  /** Calls `listener` after every change of `atom`; returns the unsubscribe function. */
  sub(atom: Atom<unknown>, listener: () => void): () => void;
}

export function createStore(): AtomStore {
  const values = new Map<Atom<unknown>, unknown>();
  const listeners = new Map<Atom<unknown>, Set<() => void>>();
  const get = <Value>(atom: Atom<Value>): Value =>
    values.has(atom) ? (values.get(atom) as Value) : atom.init;
  return {
    get,
    set(atom, update) {
      const previous = get(atom);
      const next =
        typeof update === 'function' ? (update as (previous: unknown) => unknown)(previous) : update;
      if (Object.is(next, previous)) return;
      values.set(atom, next);
      listeners.get(atom)?.forEach((listener) => listener());
    },
    sub(atom, listener) {
      const set = listeners.get(atom) ?? new Set();
      listeners.set(atom, set);
      set.add(listener);
      return () => set.delete(listener);
    },
  };
}

const StoreContext = createContext<AtomStore | null>(null);

/** Without `store`, the provider keeps a store of its own (tests render screens this way). */
export function Provider({ store, children }: { store?: AtomStore; children?: ReactNode }) {
  const [own] = useState(() => store ?? createStore());
  return createElement(StoreContext.Provider, { value: store ?? own }, children);
}

function useStore(): AtomStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('atoms need a <Provider store={…}> above them (engine/main.tsx)');
  return store;
}

export function useAtomValue<Value>(atom: Atom<Value>): Value {
  const store = useStore();
  const subscribe = useCallback((listener: () => void) => store.sub(atom, listener), [store, atom]);
  return useSyncExternalStore(subscribe, () => store.get(atom));
}

export function useSetAtom<Value>(atom: Atom<Value>): (update: SetStateAction<Value>) => void {
  const store = useStore();
  return useCallback((update: SetStateAction<Value>) => store.set(atom, update), [store, atom]);
}

export function useAtom<Value>(atom: Atom<Value>): [Value, (update: SetStateAction<Value>) => void] {
  return [useAtomValue(atom), useSetAtom(atom)];
}

export type PrimitiveAtom<Value> = Atom<Value>;
