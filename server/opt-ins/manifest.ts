/** Opt-ins (account-flows.md §2). */
import type { FeatureManifest } from '../featureManifest';
import { createOptIns } from './optInService';
import { optInRoutes } from './optInRoutes';
import { optInsPersonalData } from './personalData';
import { dropRejectedOptIns, dropRejectedOptInConfirmation } from '../store/changeRejectionStore';

export const optInsManifest: FeatureManifest = {
  id: 'opt-ins',
  routers: (deps) => [{ router: optInRoutes({ auth: deps.auth, optIns: createOptIns(deps) }) }],
  personalData: optInsPersonalData,
  events: ['opt_ins.changed', 'opt_in.confirmed'],
  rejections: { 'opt_ins.changed': dropRejectedOptIns, 'opt_in.confirmed': dropRejectedOptInConfirmation },
};
