/**
 * Client error reports (portal-core.md §9 "Error-reporting sample rate"): the browsers' errors in
 * the operator's log and metrics. No tenant switch: every portal's pages report.
 */
import type { FeatureManifest } from '../featureManifest';
import { clientErrorRoutes } from './clientErrorRoutes';

export const clientErrorsManifest: FeatureManifest = {
  id: 'client-errors',
  routers: (deps) => [{ router: clientErrorRoutes(deps) }],
};
