import type { LazyScreen } from '../types';

/** What sso-profile-page loads with the registry's deferred table (engine/features/deferred.ts). */
export const screens = {
  SsoProfileScreen: () => import('./SsoProfileScreen'),
  SsoUndoScreen: () => import('./SsoUndoScreen'),
} satisfies Record<string, LazyScreen>;
