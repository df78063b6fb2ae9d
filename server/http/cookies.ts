/** Parses a Cookie header; malformed parts are skipped rather than failing the request. */
export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index <= 0) continue;
    const name = part.slice(0, index).trim();
    try {
      cookies[name] = decodeURIComponent(part.slice(index + 1).trim());
    } catch {
      // ignore undecodable values
    }
  }
  return cookies;
}

export interface TenantCookieOptions {
  /** The tenant's base path: `/t/<id>/` under the shared prefix, `/` on the tenant's own host. */
  basePath: string;
  /** Sent over HTTPS (req.secure): the cookie gets `Secure`. */
  secure: boolean;
  expires?: Date;
  /** `Max-Age=0` expires the cookie at once (log-out). */
  maxAgeSeconds?: number;
  sameSite: 'Strict' | 'Lax' | 'None';
  /** Embedded portals on another site: a partitioned third-party cookie (needs Secure). */
  partitioned?: boolean;
  /** Not readable by scripts (the OAuth binding); the XSRF cookie must stay readable. */
  httpOnly?: boolean;
}

/**
 * A Set-Cookie value scoped to one tenant: `Path` is the tenant's base path, so
 * on the shared host one tenant's cookies never reach another tenant's portal or API, and there is
 * never a `Domain` attribute, so on a tenant's own host the cookie stays host-only (not sent to
 * sibling subdomains of other tenants).
 */
export function tenantCookie(name: string, value: string, options: TenantCookieOptions): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${options.basePath}`];
  if (options.expires) parts.push(`Expires=${options.expires.toUTCString()}`);
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
  if (options.httpOnly) parts.push('HttpOnly');
  parts.push(`SameSite=${options.sameSite}`);
  if (options.secure || options.sameSite === 'None') parts.push('Secure');
  if (options.partitioned) parts.push('Partitioned');
  return parts.join('; ');
}
