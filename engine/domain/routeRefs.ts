/**
 * Route references (Backstage's createRouteRef): one named reference per route of the spec's route
 * table (portal-core.md §2, account-flows.md §2, route-inventory.txt). A feature serves a route by
 * naming its reference in engine/features/<id>/index.ts; menu items, subscription-page actions and
 * links build their paths from the reference with `href`, so a path is written once and a link to
 * a route no enabled feature serves can be told apart (useRouteServed of
 * engine/core/featureRoutes.tsx, which the app shell answers from the registry).
 * Pure data: the CLI and the server read it under Node.
 */
export interface RouteRef<P extends string = string> {
  /** The route's name in the spec's route table. */
  id: string;
  /** Path relative to the portal base, react-router syntax (`subscriptions/:id`); `*` is the catch-all. */
  path: string;
  /** The parameters the path needs, for `href`. */
  params: readonly P[];
}

function routeRef<const P extends string = never>(id: string, path: string): RouteRef<P> {
  const params = [...path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]) as P[];
  return { id, path, params };
}

export const ROUTES = {
  orders: routeRef('orders', 'orders'),
  linkSubscription: routeRef('link-subscription', 'link-subscription'),
  // The link a confirm_email answer mails to the address on record, anonymous like accept-license.
  linkSubscriptionConfirm: routeRef('link-subscription-confirm', 'link-subscription/confirm'),
  businessPartners: routeRef('business-partners', 'business-partners'),
  subscription: routeRef<'id'>('subscription', 'subscriptions/:id'),
  bundleGroup: routeRef<'bundleNumber'>('bundle-group', 'bundle-group/:bundleNumber'),
  subscriptionAddresses: routeRef<'id'>('subscription-business-partners', 'subscriptions/:id/addresses'),
  subscriptionBusinessPartner: routeRef<'id' | 'bpNumber'>(
    'subscription-business-partner',
    'subscriptions/:id/business-partners/:bpNumber',
  ),
  holidayService: routeRef<'id'>('holiday-service', 'subscriptions/:id/holiday-service'),
  // route-inventory.txt: "The three holiday-* paths ... redirect keeping the rest of the query".
  holidayRedirect: routeRef<'id'>('holiday-redirect', 'subscriptions/:id/holiday-redirect'),
  holidayBreak: routeRef<'id'>('holiday-break', 'subscriptions/:id/holiday-break'),
  holidayDownload: routeRef<'id'>('holiday-download', 'subscriptions/:id/holiday-download'),
  subscriptionPaymentDetails: routeRef<'id'>(
    'subscription-payment-details',
    'subscriptions/:id/payment-details',
  ),
  subscriptionComplaint: routeRef<'id'>('subscription-complaint', 'subscriptions/:id/complaint'),
  subscriptionLicenses: routeRef<'id'>('subscription-licenses', 'subscriptions/:id/licenses'),
  acceptLicense: routeRef<'id' | 'licenseId'>(
    'accept-license',
    'subscriptions/:id/licenses/:licenseId/accept',
  ),
  // The licence-manager appointment's confirm link, anonymous like accept-license.
  confirmLicenseManager: routeRef<'id' | 'appointmentId'>(
    'confirm-license-manager',
    'subscriptions/:id/license-managers/:appointmentId/confirm',
  ),
  subscriptionCancellation: routeRef<'id'>('subscription-cancellation', 'subscriptions/:id/cancellation'),
  subscriptionRenewal: routeRef<'id'>('subscription-renewal', 'subscriptions/:id/renewal'),
  subscriptionUpgrade: routeRef<'id'>('subscription-upgrade', 'subscriptions/:id/upgrade'),
  subscriptionOptIns: routeRef<'id'>('subscription-opt-ins', 'subscriptions/:id/opt-ins'),
  subscriptionECard: routeRef<'id'>('subscription-e-card', 'subscriptions/:id/e-card'),
  faq: routeRef('faq', 'faq'),
  contact: routeRef('contact', 'contact'),
  renewal: routeRef('renewal', 'renewal'),
  bulkRenewal: routeRef('bulk-renewal', 'bulk-renewal'),
  upgrade: routeRef('upgrade', 'upgrade'),
  cancellation: routeRef('cancellation', 'cancellation'),
  emailWidget: routeRef('email-widget', 'email-widget'),
  optInWidget: routeRef('opt-in-widget', 'opt-in-widget'),
  issueCalendar: routeRef('issue-calendar', 'issue-calendar'),
  issueCalendarPublication: routeRef<'publication'>(
    'issue-calendar-publication',
    'issue-calendar/publications/:publication',
  ),
  login: routeRef('login', 'login'),
  eCard: routeRef('e-card', 'e-card'),
  ssoProfile: routeRef('sso-profile', 'sso-profile'),
  // The link of the notice to an account's old address, anonymous like link-subscription/confirm.
  ssoProfileUndo: routeRef('sso-profile-undo', 'sso-profile/undo'),
  // The double opt-in link's page (account-flows.md §4 "Opt-ins"): anonymous, the link is the proof.
  optInConfirm: routeRef('opt-ins-confirm', 'opt-ins/confirm'),
  memberships: routeRef('memberships', 'memberships'),
  loyaltyProgramme: routeRef('loyalty-programme', 'loyalty-programme'),
  loyaltyOptIn: routeRef('loyalty-programme-optin', 'loyalty-programme/optin'),
  loyaltyRewards: routeRef('loyalty-programme-rewards', 'loyalty-programme/rewards'),
  loyaltyReward: routeRef<'rewardId'>('loyalty-programme-reward', 'loyalty-programme/rewards/:rewardId'),
  loyaltyFavorites: routeRef('loyalty-programme-favorites', 'loyalty-programme/favorites'),
  loyaltyHistory: routeRef('loyalty-programme-history', 'loyalty-programme/history'),
  // portal-core.md §2 "Catch-all": any other path.
  catchAll: routeRef('catch-all', '*'),
} as const;

export type Query = Record<string, string | undefined>;

/**
 * The absolute in-portal path of a route: its parameters filled in (encoded), then the query
 * (entries without a value left out). `href(ROUTES.subscription, { id: 'S1' })` → `/subscriptions/S1`.
 */
export function href(ref: RouteRef, params: Readonly<Record<string, string>> = {}, query?: Query): string {
  const path = ref.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`href(${ref.id}): parameter "${name}" missing`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams(
    Object.entries(query ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined),
  ).toString();
  return `/${path}${search ? `?${search}` : ''}`;
}
