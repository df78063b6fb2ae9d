import type { LazyScreen } from '../types';

/** What upgrade loads with the registry's deferred table (engine/features/deferred.ts). */
export const screens = {
  UpgradeScreen: () => import('./UpgradeScreen'),
  UpgradeEntryScreen: () => import('./UpgradeEntryScreen'),
} satisfies Record<string, LazyScreen>;

export const actions = () => import('./actions');
