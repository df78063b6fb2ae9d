import { defineFeature, deferredActions } from '../types';

/**
 * The phase upgrade (portal-core.md §2 "a phase-upgrade button", §6 "phase upgrade: phase can
 * upgrade, ordering party, active"), switched by `phase-upgrade`: a button on the subscription page
 * of a subscription whose current phase (a trial, say) can be upgraded now; it opens a dialog that
 * asks, then moves the subscription to its next phase (POST /subscriptions/{id}/phase-upgrade).
 * No route of its own: the spec names none.
 */
export const phaseUpgradeFeature = defineFeature({
  id: 'phase-upgrade',
  flags: ['phase-upgrade'],
  routes: [],
  actions: deferredActions('phase-upgrade'),
});
