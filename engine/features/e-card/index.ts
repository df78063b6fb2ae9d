import { ROUTES } from '../../domain/routeRefs';
import { defineFeature, deferredScreen } from '../types';

/**
 * E-card (account-flows.md §2 "E-card", §5, §7 POST /e-cards, §9), switched by `e-card`: the card
 * form at /e-card and at /subscriptions/{id}/e-card (both `account`: GET and POST /e-cards are the
 * account's, refused to a "logged in only" session, portal-core.md §4). portal-core.md §2 lists no
 * menu item for it, so there is none, and §6 "e-card: never by this rule set (gated by tenant)"
 * puts no button on the subscription page (account-flows.md §6: "e-card from a subscription is
 * never offered by that rule, while the e-card route is login-gated and tenant-gated"): the
 * publisher links the routes from its own pages or an external navigation link. The routes are
 * gated by the flag (and its publication blacklist) alone, engine/domain/capabilities.ts `eCard`.
 */
export const eCardFeature = defineFeature({
  id: 'e-card',
  flags: ['e-card'],
  routes: [
    { ref: ROUTES.eCard, access: 'account', screen: deferredScreen('e-card', 'ECardScreen') },
    { ref: ROUTES.subscriptionECard, access: 'account', screen: deferredScreen('e-card', 'ECardScreen') },
  ],
});
