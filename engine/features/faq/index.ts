import { ROUTES } from '../../domain/routeRefs';
import { defineFeature, deferredScreen } from '../types';

/** /faq (portal-core.md §2 "FAQ"), open to anonymous visitors, switched by the `faq` flag. */
export const faqFeature = defineFeature({
  id: 'faq',
  flags: ['faq'],
  routes: [{ ref: ROUTES.faq, access: 'anonymous', screen: deferredScreen('faq', 'FaqScreen') }],
  menu: { route: ROUTES.faq, labelKey: 'faq.menuTitle', order: 80 },
});
