/** What phase-upgrade loads with the registry's deferred table (engine/features/deferred.ts). */
export const actions = () => import('./actions');
