import { ROUTES } from '../../domain/routeRefs';
import { defineFeature, deferredScreen } from '../types';

/** /bundle-group/{bundleNumber} (portal-core.md §2 "Bundle group page"); always on, reached from the orders page. */
export const bundleGroupFeature = defineFeature({
  id: 'bundle-group',
  routes: [
    { ref: ROUTES.bundleGroup, access: 'login', screen: deferredScreen('bundle-group', 'BundleGroupScreen') },
  ],
});
