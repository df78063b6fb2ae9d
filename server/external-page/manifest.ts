/** External pages: the user id they ask for (portal-core.md §2). */
import type { FeatureManifest } from '../featureManifest';
import { userIdRoutes } from './userIdRoutes';

export const externalPageManifest: FeatureManifest = {
  id: 'external-page',
  routers: (deps) => [{ router: userIdRoutes(deps) }],
};
