/**
 * The kicker SSO cookie (portal-core.md §7, §8): its value is a query string whose `ssoid` part
 * names the SSO session. Missing cookie or ssoid: a console message, no login (§8).
 */
export function readKickerSsoId(cookieName: string, cookieHeader: string = document.cookie): string | undefined {
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

/** Log-out expires the cookie (§4). */
export function expireKickerCookie(cookieName: string): void {
  document.cookie = `${cookieName}=; Max-Age=0; Path=/`;
}
