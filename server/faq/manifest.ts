/** The FAQ page (portal-core.md §2). */
import type { FeatureManifest } from '../featureManifest';
import { faqRoutes } from './faqRoutes';

export const faqManifest: FeatureManifest = {
  id: 'faq',
  routers: (deps) => [{ router: faqRoutes(deps) }],
};
