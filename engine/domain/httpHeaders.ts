/**
 * The names the browser and the server agree on (portal-core.md §7): the session token's header and
 * the XSRF cookie and header of unsafe requests.
 */
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
export const AUTH_HEADER = 'x-auth-token';
