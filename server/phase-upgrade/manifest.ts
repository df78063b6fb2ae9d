/** The phase upgrade (portal-core.md §2 "a phase-upgrade button", §6). */
import type { FeatureManifest } from '../featureManifest';
import { phaseUpgradeSlice } from './phaseUpgradeRoutes';

export const phaseUpgradeManifest: FeatureManifest = {
  id: 'phase-upgrade',
  routers: (deps) => [{ slice: phaseUpgradeSlice(deps) }],
  events: ['phase_upgrade.requested'],
};
