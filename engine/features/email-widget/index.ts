import { ROUTES } from '../../domain/routeRefs';
import { defineFeature, deferredScreen } from '../types';

/**
 * The e-mail widget (account-flows.md §2 "Email widget", §3, §5, §7 POST /link-email), switched by
 * `email-widget`: the anonymous form at /email-widget and, when opened from the mailed link
 * (`?token=`), its result — the subscription and the reward cards with downloads (docs/subscribers.md
 * "E-mail widget" says why the result waits for the link).
 */
export const emailWidgetFeature = defineFeature({
  id: 'email-widget',
  flags: ['email-widget'],
  routes: [
    {
      ref: ROUTES.emailWidget,
      access: 'anonymous',
      screen: deferredScreen('email-widget', 'EmailWidgetScreen'),
    },
  ],
});
