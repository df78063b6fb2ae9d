import { ROUTES } from '../../core/routeRefs';
import { can } from '../../domain/capabilities';
import { defineFeature } from '../types';

/**
 * E-card (account-flows.md §2 "E-card", §5, §7 POST /e-cards, §9), switched by `e-card`: the card
 * form at /e-card and at /subscriptions/{id}/e-card (both `account`: GET and POST /e-cards are the
 * account's, refused to a "logged in only" session, portal-core.md §4), and the subscription page's button
 * to the latter. portal-core.md §2 lists no menu item for it, so there is none; §6 "e-card: never by
 * this rule set (gated by tenant)" is engine/domain/capabilities.ts `eCard` — the flag (and its
 * publication blacklist) decides, nothing about the subscription does (README "E-cards").
 */
export const eCardFeature = defineFeature({
  id: 'e-card',
  flags: ['e-card'],
  routes: [
    { ref: ROUTES.eCard, access: 'account', screen: () => import('./ECardScreen') },
    { ref: ROUTES.subscriptionECard, access: 'account', screen: () => import('./ECardScreen') },
  ],
  actions: [
    {
      id: 'e-card',
      allowed: (s, ctx) => can('eCard', s, ctx),
      target: { kind: 'route', route: ROUTES.subscriptionECard },
      labelKey: 'e-card.action',
      hiddenBy: 'e-card',
      order: 138,
      group: 'manage',
    },
  ],
});
