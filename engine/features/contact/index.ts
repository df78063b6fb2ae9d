import { defineFeature } from '../types';

/** /contact (portal-core.md §2 "Contact", §4, §5, §8), open to anonymous visitors, switched by `contact-form`. */
export const contactFeature = defineFeature({
  id: 'contact',
  flag: 'contact-form',
  routes: [{ path: 'contact', access: 'anonymous', screen: () => import('./ContactScreen') }],
  menu: { to: '/contact', labelKey: 'contact.menuTitle', order: 90 },
});
