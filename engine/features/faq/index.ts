import { defineFeature } from '../types';

/** /faq (portal-core.md §2 "FAQ"), open to anonymous visitors, switched by the `faq` flag. */
export const faqFeature = defineFeature({
  id: 'faq',
  flag: 'faq',
  routes: [{ path: 'faq', access: 'anonymous', screen: () => import('./FaqScreen') }],
  menu: { to: '/faq', labelKey: 'faq.menuTitle', order: 80 },
});
