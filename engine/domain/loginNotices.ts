/**
 * The login page's notices a log-out asks for by its query (engine/app/main.tsx): in a module of
 * their own, so the log-out has them at hand; the rest of the login URL's rules
 * (./returnTo.ts) load with the login.
 */

/** The login page's query after an account was deleted: the page says so (account-flows.md §4 "SSO delete"). */
export const ACCOUNT_DELETED_PARAM = 'deleted';

/**
 * The login page's query after the subscriber left the loyalty club, which signs out
 * (account-flows.md §4 "Loyalty opt-out"): the page says why it shows.
 */
export const LEFT_CLUB_PARAM = 'left-club';

/**
 * The login page's query when the SSO button's way to the provider failed (server/auth/oauthRoutes.ts:
 * its discovery cannot be reached): the page says so instead of the browser showing an error.
 */
export const SSO_UNAVAILABLE_PARAM = 'sso';
