/**
 * The kicker SSO cookie (portal-core.md §7, §8): its value is a query string whose `ssoid` part
 * names the SSO session. Missing cookie or ssoid: a console message, no login (§8).
 */
export function readKickerSsoId(
  cookieName: string,
  cookieHeader: string = document.cookie,
): string | undefined {
  const raw = cookieHeader.split('; ').find((part) => part.startsWith(`${cookieName}=`));
  if (!raw) {
    console.info(`kicker-auth: no ${cookieName} cookie, not logging in`);
    return undefined;
  }
  let value: string;
  try {
    value = decodeURIComponent(raw.slice(cookieName.length + 1));
  } catch {
    value = '';
  }
  const ssoId = new URLSearchParams(value).get('ssoid') ?? undefined;
  if (!ssoId) console.info(`kicker-auth: the ${cookieName} cookie has no ssoid, not logging in`);
  return ssoId || undefined;
}

/**
 * Log-out expires the cookie (§4). The server sets it on the portal's own base path (so it never
 * reaches another tenant on a shared host); a cookie of an older version on `/` goes too.
 */
export function expireKickerCookie(cookieName: string, basePath: string): void {
  document.cookie = `${cookieName}=; Max-Age=0; Path=${basePath}`;
  document.cookie = `${cookieName}=; Max-Age=0; Path=/`;
}
