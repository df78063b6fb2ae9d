/**
 * What a session may do, by how it was opened (portal-core.md §4 "Login sources", §6 "Access
 * levels"): "Fully logged in: a user exists and the source is email, token, sso, email-zip or
 * kicker-auth. Logged in only (order number or contact form): partial state, no sidebar."
 *
 * A "logged in only" session comes from an anonymous flow's sign-in link (the renewal and upgrade
 * login by order number and last name, the anonymous cancellation check, the contact form's linked
 * page; server/auth/partialLogin.ts) and speaks for one subscription: that subscription and
 * everything under it, the list (which then holds just that one) and log-out. The server refuses
 * every other call that needs a session with 403 `partial_login` (server/auth/authMiddleware.ts
 * requireUser); the screens ask the same functions before they make a call, show a button or open
 * a screen, so a partial session never meets a refusal it could not avoid.
 *
 * Pure: the server and the browser import it alike.
 */

/** The login sources of §4 whose sessions are "logged in only" (partial). */
export const PARTIAL_LOGIN_SOURCES: readonly string[] = ['order-number', 'contact-form'];

/**
 * §4 "fully logged in": email, token, sso, email-zip, kicker-auth; oauth and dev are this project's
 * names for the SSO and development sign-ins, which open the account's own session too.
 */
export const FULL_LOGIN_SOURCES: readonly string[] = [
  'email',
  'token',
  'sso',
  'email-zip',
  'kicker-auth',
  'oauth',
  'dev',
];

export type SessionScope =
  /** Acts for the whole account. */
  | { kind: 'account' }
  /**
   * §4 "logged in only": acts for one subscription. Its id is what the login answer names
   * (`subscriptionId`); a session stored before the answer named it knows only that it is partial.
   */
  | { kind: 'subscription'; subscriptionId?: string };

export const ACCOUNT_SCOPE: SessionScope = { kind: 'account' };

/**
 * The scope of a session: partial when the server scoped it to a subscription (its
 * `subscriptionId`) or when it was opened by a partial login source; the account's otherwise.
 */
export function sessionScope(session: {
  loginSource?: string | null;
  subscriptionId?: string | null;
}): SessionScope {
  if (session.subscriptionId) return { kind: 'subscription', subscriptionId: session.subscriptionId };
  if (session.loginSource && PARTIAL_LOGIN_SOURCES.includes(session.loginSource))
    return { kind: 'subscription' };
  return ACCOUNT_SCOPE;
}

export const isPartialScope = (
  scope: SessionScope,
): scope is Extract<SessionScope, { kind: 'subscription' }> => scope.kind === 'subscription';

/** Whether this scope speaks for the subscription (a partial session whose id is unknown is given the benefit: its list holds just its own). */
export function speaksFor(scope: SessionScope, subscriptionId: string): boolean {
  return (
    scope.kind === 'account' || scope.subscriptionId === undefined || scope.subscriptionId === subscriptionId
  );
}

const SUBSCRIPTION_PATH = /^\/subscriptions\/([^/?#]+)/;

/**
 * Whether a session of this scope may make this call of the API (method, path under /api without
 * the query). Calls that need no session (the anonymous pages' FAQ, contact, calendar and the
 * sign-in calls) are open to every visitor and not ruled here. For a partial session (§4):
 *  - POST /logout;
 *  - GET /subscriptions: the list, which holds just its subscription;
 *  - anything under /subscriptions/{its id}: the subscription page, its flows and changes;
 *  - GET /files/{key}: a download key, made by one of the calls above for this session only;
 *  - nothing else: not POST /subscriptions (linking adds business partners to the account), not
 *    the account's purchase and pending orders, business partners, publications, e-cards, SSO
 *    profile or loyalty programme, not bulk renewal (/subscriptions/acceptAllRecommendations).
 */
export function mayCall(scope: SessionScope, method: string, apiPath: string): boolean {
  if (scope.kind === 'account') return true;
  const verb = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  const path = apiPath.split(/[?#]/)[0];
  if (path === '/logout') return true;
  if (path === '/subscriptions' || path === '/subscriptions/') return verb === 'GET';
  if (verb === 'GET' && /^\/files\/[^/]+$/.test(path)) return true;
  const match = SUBSCRIPTION_PATH.exec(path);
  if (!match) return false;
  let id: string;
  try {
    id = decodeURIComponent(match[1]);
  } catch {
    return false; // a malformed escape is nobody's subscription
  }
  // The server knows the id; a session stored without it (by an older server) knows only that
  // the session is partial, and its list holds just that one subscription.
  return scope.subscriptionId === undefined ? !isAccountWidePath(id) : scope.subscriptionId === id;
}

/** Paths under /subscriptions/ that are not a subscription's (bulk renewal acts on the account). */
const ACCOUNT_WIDE_UNDER_SUBSCRIPTIONS = ['acceptAllRecommendations'];
const isAccountWidePath = (segment: string) => ACCOUNT_WIDE_UNDER_SUBSCRIPTIONS.includes(segment);

/**
 * Whether a screen may open in this scope. `account`: the screen makes calls of the whole account
 * (its route's access is `account` in the feature registry); `subscriptionId`: the subscription the
 * screen is about (its route's `:id`). A partial session opens the screens of its own subscription
 * and those that need no more than its list.
 */
export function mayOpenScreen(
  scope: SessionScope,
  screen: { account?: boolean; subscriptionId?: string },
): boolean {
  if (scope.kind === 'account') return true;
  if (screen.account) return false;
  return screen.subscriptionId === undefined || speaksFor(scope, screen.subscriptionId);
}
