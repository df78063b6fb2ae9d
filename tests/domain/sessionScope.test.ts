import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_SCOPE,
  mayCall,
  mayOpenScreen,
  sessionScope,
  speaksFor,
  type SessionScope,
} from '../../engine/domain/sessionScope';
import { FEATURES, isActionOpenTo, mayOpenRoute, subscriptionActions } from '../../engine/features';
import { needsAccount } from '../../engine/features/types';
import { ROUTES, type RouteRef } from '../../engine/domain/routeRefs';
import { FEATURE_FLAGS } from '../../engine/domain/featureFlags';
import { makeSubscription } from '../support/subscriptionBuilder';

// portal-core.md §4: "Logged in only (order number or contact form): partial state".
const partial: SessionScope = { kind: 'subscription', subscriptionId: '123-1' };
/** A session stored before the login answer named its subscription: partial, id unknown. */
const partialOfUnknownId: SessionScope = { kind: 'subscription' };

describe('the scope of a session (portal-core.md §4 login sources)', () => {
  it.each([
    ['email', null, ACCOUNT_SCOPE],
    ['token', null, ACCOUNT_SCOPE],
    ['email-zip', null, ACCOUNT_SCOPE],
    ['kicker-auth', null, ACCOUNT_SCOPE],
    ['oauth', null, ACCOUNT_SCOPE],
    ['dev', null, ACCOUNT_SCOPE],
    ['order-number', '123-1', partial],
    ['contact-form', '123-1', partial],
    ['order-number', null, partialOfUnknownId],
    ['contact-form', undefined, partialOfUnknownId],
  ] as const)('a %s session with subscription %s is %j', (loginSource, subscriptionId, scope) => {
    expect(sessionScope({ loginSource, subscriptionId })).toEqual(scope);
  });

  it('is the subscription the server scoped it to, whatever the login source says', () => {
    expect(sessionScope({ loginSource: 'token', subscriptionId: '9-9' })).toEqual({
      kind: 'subscription',
      subscriptionId: '9-9',
    });
  });
});

describe('what a "logged in only" session may call (the server refuses the rest with 403 partial_login)', () => {
  it.each([
    ['GET', '/subscriptions', true],
    ['GET', '/subscriptions?lang=de', true],
    ['GET', '/subscriptions/123-1', true],
    ['GET', '/subscriptions/123-1/payment-history?page=0', true],
    ['POST', '/subscriptions/123-1/cancel', true],
    ['POST', '/subscriptions/123-1/recommendations/R1/accept', true],
    ['HEAD', '/subscriptions/123-1/delivered-issues', true],
    ['GET', '/files/abc', true],
    ['POST', '/logout', true],
    ['GET', '/subscriptions/123-2', false],
    ['GET', '/subscriptions/123-10', false],
    ['GET', '/subscriptions/123-1%', false],
    ['POST', '/subscriptions', false],
    ['POST', '/subscriptions/acceptAllRecommendations', false],
    ['GET', '/purchase-orders', false],
    ['POST', '/purchase-orders/P1/invoices/request', false],
    ['GET', '/pending-orders', false],
    ['GET', '/publications', false],
    ['GET', '/business-partners', false],
    ['GET', '/e-cards', false],
    ['GET', '/sso-profile/getProfile', false],
    ['GET', '/loyalty-programme/optin', false],
  ])('%s %s → %s', (method, path, allowed) => {
    expect(mayCall(partial, method, path)).toBe(allowed);
  });

  it('leaves an account session every call', () => {
    for (const path of ['/purchase-orders', '/pending-orders', '/business-partners', '/subscriptions/123-2'])
      expect(mayCall(ACCOUNT_SCOPE, 'GET', path)).toBe(true);
    expect(mayCall(ACCOUNT_SCOPE, 'POST', '/subscriptions')).toBe(true);
  });

  it('keeps a partial session whose id the screen does not know to subscriptions, never the account', () => {
    expect(mayCall(partialOfUnknownId, 'GET', '/subscriptions/any-1/payment-history')).toBe(true);
    expect(mayCall(partialOfUnknownId, 'POST', '/subscriptions/acceptAllRecommendations')).toBe(false);
    expect(mayCall(partialOfUnknownId, 'GET', '/purchase-orders')).toBe(false);
    expect(mayCall(partialOfUnknownId, 'POST', '/subscriptions')).toBe(false);
  });

  it('speaks for its own subscription only', () => {
    expect(speaksFor(partial, '123-1')).toBe(true);
    expect(speaksFor(partial, '123-2')).toBe(false);
    expect(speaksFor(ACCOUNT_SCOPE, '123-2')).toBe(true);
  });
});

describe('which screens a "logged in only" session may open', () => {
  it('opens its own subscription and the screens that need only its list, not the account or another subscription', () => {
    expect(mayOpenScreen(partial, {})).toBe(true);
    expect(mayOpenScreen(partial, { subscriptionId: '123-1' })).toBe(true);
    expect(mayOpenScreen(partial, { subscriptionId: '123-2' })).toBe(false);
    expect(mayOpenScreen(partial, { account: true })).toBe(false);
    expect(mayOpenScreen(ACCOUNT_SCOPE, { account: true, subscriptionId: '123-2' })).toBe(true);
  });

  it.each(
    (
      [
        [ROUTES.orders, {}, true],
        [ROUTES.subscription, { id: '123-1' }, true],
        [ROUTES.subscriptionRenewal, { id: '123-1' }, true],
        [ROUTES.subscriptionCancellation, { id: '123-1' }, true],
        [ROUTES.subscription, { id: '123-2' }, false],
        [ROUTES.linkSubscription, {}, false],
        [ROUTES.businessPartners, {}, false],
        [ROUTES.eCard, {}, false],
        [ROUTES.subscriptionECard, { id: '123-1' }, false],
        [ROUTES.ssoProfile, {}, false],
        [ROUTES.loyaltyProgramme, {}, false],
        [ROUTES.loyaltyRewards, {}, false],
        [ROUTES.faq, {}, true],
      ] as Array<[RouteRef, Record<string, string>, boolean]>
    ).map(([ref, params, open]) => [(ref as typeof ROUTES.orders).id, ref, params, open] as const),
  )('%s %j → %s', (_id, ref, params, open) => {
    expect(mayOpenRoute(partial, ref, params)).toBe(open);
    expect(mayOpenRoute(ACCOUNT_SCOPE, ref, params)).toBe(true);
  });

  it('marks as the account’s exactly the screens whose first call the server refuses a partial session', () => {
    // The call each screen of the whole account makes first; a new `account` route joins this table.
    const firstCall: Record<string, [string, string]> = {
      'link-subscription': ['POST', '/subscriptions'],
      'business-partners': ['GET', '/business-partners'],
      'e-card': ['GET', '/e-cards'],
      'subscription-e-card': ['GET', '/e-cards'],
      'sso-profile': ['GET', '/sso-profile/getProfile'],
      'loyalty-programme': ['GET', '/loyalty-programme/optin'],
      'loyalty-programme-optin': ['GET', '/loyalty-programme/optin'],
      'loyalty-programme-rewards': ['GET', '/loyalty-programme/optin'],
      'loyalty-programme-reward': ['GET', '/loyalty-programme/optin'],
      'loyalty-programme-favorites': ['GET', '/loyalty-programme/optin'],
      'loyalty-programme-history': ['GET', '/loyalty-programme/optin'],
    };
    const accountRoutes = FEATURES.flatMap((feature) => feature.routes)
      .filter((route) => needsAccount(route.access))
      .map((route) => route.ref.id);
    expect(accountRoutes.sort()).toEqual(Object.keys(firstCall).sort());
    for (const [method, path] of Object.values(firstCall)) expect(mayCall(partial, method, path)).toBe(false);
  });
});

describe('the subscription page of a "logged in only" session', () => {
  const tenant = { features: [...FEATURE_FLAGS], buttons: { hiddenActions: [] } };
  const subscription = makeSubscription({ id: '123-1' });
  const ids = async (scope: SessionScope) =>
    (await subscriptionActions(tenant as never, subscription, { tenant }))
      .filter((action) => isActionOpenTo(scope, action, subscription))
      .map((action) => action.id);

  it('offers every button the account has: none of the registry leads to a screen of the account', async () => {
    expect(await ids(partial)).toEqual(await ids(ACCOUNT_SCOPE));
  });

  it('offers no button to a screen of the account (a link to the e-card form, say)', () => {
    // The subscription page offers no e-card (portal-core.md §6); a feature that linked there would be the account's.
    const actions = [
      {
        id: 'e-card-link',
        allowed: () => true,
        target: { kind: 'route' as const, route: ROUTES.subscriptionECard },
        labelKey: 'x',
        hiddenBy: 'e-card' as const,
        order: 1,
        group: 'manage' as const,
      },
    ];
    const linking = { id: 'e-card-link', routes: [], actions: async () => ({ actions }) };
    const features = [...FEATURES, linking];
    const open = (scope: SessionScope) =>
      actions
        .filter((action) => isActionOpenTo(scope, action, subscription, features))
        .map((action) => action.id);
    expect(open(ACCOUNT_SCOPE)).toEqual(['e-card-link']);
    expect(open(partial)).toEqual([]);
  });
});
