import { ROUTES } from '../../domain/routeRefs';
import { defineFeature, deferredScreen } from '../types';

/**
 * The opt-in widget (account-flows.md §2 "Opt-in widget", §3, §5, §7 POST /opt-in, §8), a feature of
 * its own under the `opt-ins` flag: its settings are the tenant file's `optIns.widget` (the providers
 * with their texts and voucher pools), and without providers, or for an unknown `provider`, the page
 * shows the disabled message with the fallback contact. The voucher code is shown on the page the
 * double opt-in link opens (docs/subscribers.md "Opt-in widget").
 */
export const optInWidgetFeature = defineFeature({
  id: 'opt-in-widget',
  flags: ['opt-ins'],
  routes: [
    {
      ref: ROUTES.optInWidget,
      access: 'anonymous',
      screen: deferredScreen('opt-in-widget', 'OptInWidgetScreen'),
    },
  ],
});
