/**
 * The order system's API (docs/operators.md): mounted by server/app.ts under /operator/v1 with its
 * own list of parts (server/operator/operatorParts.ts), keys instead of sessions, so not among the
 * /api routers; the manifest declares its personal data and its event.
 */
import type { FeatureManifest } from '../featureManifest';
import { operatorPersonalData } from './personalData';

export const operatorManifest: FeatureManifest = {
  id: 'operator',
  personalData: operatorPersonalData,
  events: ['change.rejected'],
};
