import type { LazyScreen } from '../types';

/** What address-change loads with the registry's deferred table (engine/features/deferred.ts). */
export const screens = {
  AddressesScreen: () => import('./AddressesScreen'),
  AddressChangeScreen: () => import('./AddressChangeScreen'),
} satisfies Record<string, LazyScreen>;

export const actions = () => import('./actions');
