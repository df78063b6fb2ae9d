import { ROUTES } from '../../domain/routeRefs';
import { defineFeature, deferredScreen } from '../types';

/**
 * The catch-all of portal-core.md §2, switched by the `external-navigation` flag: a path equal to
 * the text of an external navigation link embeds its URL; any other path says 'Page not found'.
 * Its one route is `*`: engine/app/router.tsx puts it last, as the catch-all.
 */
export const externalPageFeature = defineFeature({
  id: 'external-page',
  flags: ['external-navigation'],
  routes: [
    {
      ref: ROUTES.catchAll,
      access: 'anonymous',
      screen: deferredScreen('external-page', 'ExternalPageScreen'),
    },
  ],
});
