import { ACCOUNT_DELETED_PARAM, LEFT_CLUB_PARAM, SSO_UNAVAILABLE_PARAM } from './loginNotices';

/**
 * Where a sign-in sends the browser afterwards (portal-core.md §2 "Login": "After login the user
 * goes to the subscription if query subscriptionId is present, else to the originally requested
 * path without the p query, else to orders"). One rule for the screens and the server.
 *
 * A destination is a path of this portal's screens, relative to its base (`/subscriptions/1?view=x`,
 * never `/t/acme/subscriptions/1`). Anything a browser could read as another origin, another
 * portal or no screen at all is refused, on the server (/sso/authorize, sign-in links) and on the
 * screen alike:
 *  - it starts with exactly one '/' ("//host" and "/\host" are protocol-relative in browsers);
 *  - no backslash anywhere (browsers turn '\' into '/' in URLs);
 *  - no control characters, spaces or other characters a browser strips or rewrites;
 *  - no scheme ("javascript:", "https://host"): ruled out by the leading single '/';
 *  - no dot segments ("/..", "/./"): the path stays under the portal's base;
 *  - its first segment names no screen: `/t/…` is another tenant's portal on the shared host,
 *    `/api/…` and `/sso/…` are the server's, and `/login` itself would only sign in again;
 *  - the same rules again after percent-decoding, where "/%2F%2Fhost" or "/%5Chost" would turn
 *    into the forms above;
 *  - at most RETURN_TO_MAX_LENGTH characters (it is stored with the OAuth request).
 */
export const RETURN_TO_MAX_LENGTH = 512;

/** §2 "else to orders": where a sign-in goes when nothing names a page. */
export const DEFAULT_SIGN_IN_DESTINATION = '/orders';

const CONTROL_OR_SPACE = /[\p{Cc} \u2028\u2029]/u;
/** After decoding, a space is data ("%20"); control characters still are not. */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
/**
 * First path segments that are not a screen of this portal (compared without case: Express
 * matches `/T/other/` like `/t/other/`).
 */
const NOT_A_SCREEN = new Set(['t', 'api', 'sso', 'login']);

function firstSegment(path: string): string {
  return path
    .slice(1)
    .split(/[/?#;]/, 1)[0]
    .toLowerCase();
}

function isPlainPortalPath(path: string, forbidden: RegExp = CONTROL_OR_SPACE): boolean {
  return (
    path.startsWith('/') &&
    !path.startsWith('//') &&
    !path.includes('\\') &&
    !forbidden.test(path) &&
    !/\/\.{1,2}(\/|$|\?|#)/.test(path) &&
    !NOT_A_SCREEN.has(firstSegment(path))
  );
}

export function isSamePortalPath(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > RETURN_TO_MAX_LENGTH) return false;
  if (!isPlainPortalPath(value)) return false;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return false; // a malformed escape is no path of ours
  }
  return decoded === value || isPlainPortalPath(decoded, CONTROL);
}

/** The value when it is a same-portal path, else undefined (callers fall back to their default page). */
export function samePortalPathOrUndefined(value: unknown): string | undefined {
  return isSamePortalPath(value) ? value : undefined;
}

/**
 * The login screen's own query keys: the sign-in's (token, OAuth answer, registration and reset
 * links, the forgot-password dialog), the language (applied at start, engine/core/i18n.ts), the
 * notices of a deleted account and of a left loyalty club, and the destination itself. Every other key of a login URL belongs to
 * the page it leads to (§2: login keeps the query).
 */
export const LOGIN_QUERY_KEYS: readonly string[] = [
  ACCOUNT_DELETED_PARAM,
  LEFT_CLUB_PARAM,
  SSO_UNAVAILABLE_PARAM,
  'p',
  'code',
  'state',
  'iss',
  'session_state',
  'error',
  'error_description',
  'error_uri',
  'confirm',
  'reset',
  'forgot',
  'lang',
  'returnTo',
  'subscriptionId',
];

/** Keys a page's login hands on at the top of the login URL: the token login and the language of a sign-in link. */
const KEPT_FOR_LOGIN = ['p', 'lang'];

/** Adds `extra`'s keys that `path` does not have yet; the path as it was when the result would not be a destination. */
function withQuery(path: string, extra: URLSearchParams): string {
  if (!extra.toString()) return path;
  const hashAt = path.indexOf('#');
  const hash = hashAt >= 0 ? path.slice(hashAt) : '';
  const beforeHash = hashAt >= 0 ? path.slice(0, hashAt) : path;
  const queryAt = beforeHash.indexOf('?');
  const pathname = queryAt >= 0 ? beforeHash.slice(0, queryAt) : beforeHash;
  const query = new URLSearchParams(queryAt >= 0 ? beforeHash.slice(queryAt) : '');
  for (const [key, value] of extra) if (!query.has(key)) query.append(key, value);
  return samePortalPathOrUndefined(`${pathname}?${query}${hash}`) ?? path;
}

/**
 * The destination a page hands to login: its path and query without the token `p` (spent by the
 * login) and `lang` (applied at start). Undefined when that is no destination.
 */
export function destinationOf(pathname: string, search: string): string | undefined {
  const query = new URLSearchParams(search);
  for (const key of KEPT_FOR_LOGIN) query.delete(key);
  const rest = query.toString();
  return samePortalPathOrUndefined(rest ? `${pathname}?${rest}` : pathname);
}

/**
 * The query of the login URL a visitor without a session is sent to from a page (§2 access rules:
 * "redirect to login with the query kept"): `p` and `lang` stay on top for the login screen, and so
 * do the page's own keys, which the login hands back to the page (requestedDestination); the page's
 * path travels as `returnTo`, with any key the login screen reads itself (LOGIN_QUERY_KEYS:
 * `returnTo=renewal` of the flow pages, for one), which on top would be taken for the login's.
 * Orders, where a sign-in goes anyway, needs no `returnTo`.
 */
export function loginSearchFor(pathname: string, search: string): string {
  const from = new URLSearchParams(search);
  const query = new URLSearchParams();
  for (const key of KEPT_FOR_LOGIN) {
    const value = from.get(key);
    if (value !== null) query.set(key, value);
  }
  if (destinationOf(pathname, search) !== undefined) {
    const loginOwn = new URLSearchParams();
    const pageOwn = new URLSearchParams();
    for (const [key, value] of from)
      if (!KEPT_FOR_LOGIN.includes(key))
        (LOGIN_QUERY_KEYS.includes(key) ? loginOwn : pageOwn).append(key, value);
    const returnTo = samePortalPathOrUndefined(loginOwn.toString() ? `${pathname}?${loginOwn}` : pathname);
    if (returnTo !== undefined) {
      for (const [key, value] of pageOwn) query.append(key, value);
      if (returnTo !== DEFAULT_SIGN_IN_DESTINATION) query.set('returnTo', returnTo);
    }
  }
  const result = query.toString();
  return result ? `?${result}` : '';
}

/**
 * The page a login URL asks to lead to (§2): the subscription of `subscriptionId`, else the
 * `returnTo` path, else orders when the URL carries other keys of a page; those keys join the
 * destination's query. Undefined when the URL names no page (a sign-in then goes to orders).
 * The screen sends this value with a login link request and to /sso/authorize, and the server
 * checks it again (isSamePortalPath) before a link or the OAuth state carries it.
 */
export function requestedDestination(loginSearch: string): string | undefined {
  const query = new URLSearchParams(loginSearch);
  const subscriptionId = query.get('subscriptionId');
  const named =
    (subscriptionId
      ? samePortalPathOrUndefined(`/subscriptions/${encodeURIComponent(subscriptionId)}`)
      : undefined) ?? samePortalPathOrUndefined(query.get('returnTo'));
  const rest = new URLSearchParams();
  for (const [key, value] of query) if (!LOGIN_QUERY_KEYS.includes(key)) rest.append(key, value);
  if (named) return withQuery(named, rest);
  return rest.toString() ? withQuery(DEFAULT_SIGN_IN_DESTINATION, rest) : undefined;
}

/**
 * Where a finished sign-in goes: the page its answer names (a partner sign-in link's
 * subscription, the path stored with the OAuth state), else the page the login URL asks for
 * (requestedDestination), else orders. Every candidate passes isSamePortalPath.
 */
export function destinationAfterSignIn(loginSearch: string, answered?: unknown): string {
  return (
    samePortalPathOrUndefined(answered) ?? requestedDestination(loginSearch) ?? DEFAULT_SIGN_IN_DESTINATION
  );
}
