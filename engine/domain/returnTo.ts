/**
 * Where a sign-in may send the browser afterwards (portal-core.md §2 "Login": "the originally
 * requested path"). Only a path inside this portal qualifies; anything a browser could read as
 * another origin is refused, on the server (/sso/authorize, sign-in links) and on the screen alike:
 *  - it starts with exactly one '/' ("//host" and "/\host" are protocol-relative in browsers);
 *  - no backslash anywhere (browsers turn '\' into '/' in URLs);
 *  - no control characters, spaces or other characters a browser strips or rewrites;
 *  - no scheme ("javascript:", "https://host"): ruled out by the leading single '/';
 *  - no dot segments ("/..", "/./"): the path stays under the portal's base;
 *  - the same rules again after percent-decoding, where "/%2F%2Fhost" or "/%5Chost" would turn
 *    into the forms above;
 *  - at most RETURN_TO_MAX_LENGTH characters (it is stored with the OAuth request).
 */
export const RETURN_TO_MAX_LENGTH = 512;

const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f-\u009f\u2028\u2029]/;
/** After decoding, a space is data ("%20"); control characters still are not. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

function isPlainPortalPath(path: string, forbidden: RegExp = CONTROL_OR_SPACE): boolean {
  return (
    path.startsWith('/') &&
    !path.startsWith('//') &&
    !path.includes('\\') &&
    !forbidden.test(path) &&
    !/\/\.{1,2}(\/|$|\?|#)/.test(path)
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
