import type { LazyScreen } from '../types';

/** What multi-user-licenses loads with the registry's deferred table (engine/features/deferred.ts). */
export const screens = {
  LicensesScreen: () => import('./LicensesScreen'),
  AcceptLicenseScreen: () => import('./AcceptLicenseScreen'),
  ConfirmManagerScreen: () => import('./ConfirmManagerScreen'),
} satisfies Record<string, LazyScreen>;

export const actions = () => import('./actions');
