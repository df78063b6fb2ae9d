/**
 * Response headers of the portal (docs/architecture.md "Sign-in safety"): a Content-Security-Policy
 * for the portal pages, nosniff everywhere, a Referrer-Policy, Strict-Transport-Security over HTTPS,
 * and no caching of API answers.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Express, RequestHandler } from 'express';
import { isFeatureOn } from '../../engine/domain/tenantFeatures';
import type { ServerTenant } from '../tenancy/tenantContext';

/**
 * The policy of the server's plain pages (the tenant list at /, the outbox), and of any page that
 * sets no policy of its own: nothing loads or runs, no form posts anywhere, no site frames it; only
 * `style="…"` attributes, which cannot run script (docs/architecture.md "Sign-in safety", response headers).
 */
export const PLAIN_PAGE_POLICY =
  "default-src 'none'; style-src-attr 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Types a browser shows as a document of our origin, where a Content-Security-Policy applies. */
const DOCUMENT_TYPE =
  /^\s*(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml)\b/i;

/**
 * Every answer: browsers must not guess a type other than the one sent (a PDF or JSON answer read as
 * HTML), and other sites learn at most our origin from a link (the full URL may hold a token).
 * Every document gets a Content-Security-Policy with `frame-ancestors`: pages set their own (the
 * portal's, the preview's, the studio's, the payment page's); one that sets none gets
 * PLAIN_PAGE_POLICY as its headers are written, so a page added later cannot go out without one.
 * Set up on the app once: the headers by a middleware, the policy on the app's response prototype
 * (`app.response`, Express's way to extend every `res`), not on each response, because a method
 * assigned to every response object gives each a shape of its own, which costs the reads of every
 * later middleware (docs/testing.md "Tests and measurements").
 */
export function applyCommonHeaders(app: Express): void {
  const response = app.response as ServerResponse;
  const writeHead = response.writeHead;
  response.writeHead = function (this: ServerResponse, ...args: Parameters<typeof writeHead>) {
    if (
      !this.hasHeader('Content-Security-Policy') &&
      DOCUMENT_TYPE.test(String(this.getHeader('Content-Type')))
    )
      this.setHeader('Content-Security-Policy', PLAIN_PAGE_POLICY);
    return writeHead.apply(this, args);
  } as typeof writeHead;
  app.use(commonHeaders);
}

const commonHeaders: RequestHandler = (req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  // Reached over HTTPS (itself, or a proxy it trusts says so: PORTAL_TRUST_PROXY): the browser keeps
  // to HTTPS for a year, so a sign-in link or cookie never goes out in the clear on a later visit.
  // Not for subdomains: a publisher's other hosts under the same name are not the portal's to bind.
  if (req.secure) res.setHeader('Strict-Transport-Security', HSTS);
  next();
};

/** One year (RFC 6797 §6.1.1), the host alone. */
export const HSTS = 'max-age=31536000';

/**
 * API answers are personal or carry secrets: sign-in answers hold an access token, FAQ and calendar
 * answers differ between a visitor and a user, every first answer sets the XSRF cookie. None may be
 * kept by the browser's or a proxy's cache. Routes may still set their own (files: private, no-store).
 */
export const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Script types the browser runs; `application/json` (the inlined portal config) is data and needs no hash. */
const EXECUTABLE_SCRIPT = /^(|module|text\/javascript|application\/javascript)$/i;

/** Hashes of the inline scripts and style elements of a page, exactly as the browser sees their text. */
export function inlineHashes(html: string): { scripts: string[]; styles: string[] } {
  const scripts: string[] = [];
  const styles: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attributes = match[1];
    if (/\ssrc\s*=/i.test(attributes)) continue;
    const type = /\stype\s*=\s*["']?([^"'\s>]*)/i.exec(attributes)?.[1] ?? '';
    if (EXECUTABLE_SCRIPT.test(type)) scripts.push(sha256(match[2]));
  }
  for (const match of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi)) styles.push(sha256(match[1]));
  return { scripts: [...new Set(scripts)], styles: [...new Set(styles)] };
}

/** Who may frame the portal: itself, and for embedded tenants their configured parent origins. */
export function frameAncestors(tenant: ServerTenant): string {
  return tenant.embedding.isEmbedded ? ["'self'", ...tenant.embedding.parentOrigins].join(' ') : "'self'";
}

/** Origins of the tenant's external pages that the portal shows in a frame (external navigation links, showInIframe). */
function framedOrigins(tenant: ServerTenant): string[] {
  const links = tenant.externalNavigationLinks ?? [];
  const origins = new Set<string>();
  for (const link of links) {
    if (!link.showInIframe || !link.url) continue;
    try {
      const url = new URL(link.url);
      if (url.protocol === 'https:' || url.protocol === 'http:') origins.add(url.origin);
    } catch {
      // the validator refuses such URLs; a page without the frame is the safe outcome
    }
  }
  return [...origins];
}

/**
 * A CSP source expression that is safe in the header and matches one file: https, a host and
 * optional port, a path of non-empty segments whose characters cannot end or split a directive
 * (no whitespace, quotes, commas or semicolons) and that does not end in `/` (which would allow a folder).
 */
const SCRIPT_SOURCE =
  /^https:\/\/[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:[0-9]{1,5})?(\/([A-Za-z0-9._~!$&()*+=:@-]|%[0-9A-Fa-f]{2})+)+$/;

/**
 * The tenant's contact script (`contactForm.customScriptUrl`, portal-core.md §2 "Contact": "an
 * optional tenant custom script is injected") as a `script-src` source, when the contact-form
 * feature is on. The URL itself, not its origin: CSP3 matches a source with a path against that
 * path exactly, so the policy allows this one file and nothing else of its host. Its query is left
 * out (CSP ignores it; the script loads with it). The schema (`definitions.scriptUrl`) refuses
 * anything else already; a value that still does not make a safe source is left out, so the script
 * is blocked rather than the header broken or widened.
 */
export function contactScriptSource(tenant: ServerTenant): string | undefined {
  const value = tenant.contactForm?.customScriptUrl;
  if (!value || !isFeatureOn(tenant, 'contact-form')) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return undefined;
  const source = `https://${url.host}${url.pathname}`;
  return SCRIPT_SOURCE.test(source) ? source : undefined;
}

export interface PagePolicyOptions {
  /**
   * `portal dev`: Vite adds module CSS as <style> elements from script and talks to its HMR
   * websocket, so style elements and ws: connections are allowed there, and only there.
   */
  development?: boolean;
  /**
   * False where the page shares its origin with the development pages or the outbox (a tenant at
   * `/t/<id>/` on a server with /studio, /preview or /outbox, and the studio's own preview of a
   * draft): the tenant's contact script would run at their origin and could read the outbox's
   * sign-in links or drive the studio. It runs on the tenant's own host (`<id>.localhost` on a
   * development server), whose origin those pages never answer (server/app.ts `offTenantHosts`).
   */
  contactScript?: boolean;
}

/**
 * The Content-Security-Policy of a portal page (index.html of a tenant). Scripts come only from the
 * portal's own origin (and the tenant's contact script, below) or are inline with a hash computed
 * from this very page, so an injected <script> or event-handler attribute does not run. The inlined
 * theme <style> is allowed by its hash.
 * `style-src-attr 'unsafe-inline'`: tenant HTML (announcement, FAQ, contact info messages, sanitized
 * at build time) keeps the `style="…"` attributes publishers write, and hashes of attribute values
 * would need 'unsafe-hashes' per value of every tenant text; style attributes cannot run script.
 * `img-src https:`: covers, logos and e-card previews come from the order system's and publishers'
 * image hosts, which no tenant file lists. The one script from elsewhere is the tenant's contact
 * script, by its full URL (contactScriptSource); the page is one app whose routes share this
 * policy, so it is allowed on every route, though only the contact screen adds it.
 */
export function pageSecurityPolicy(
  tenant: ServerTenant,
  html: string,
  options: PagePolicyOptions = {},
): string {
  const { scripts, styles } = inlineHashes(html);
  const styleSources = options.development ? ["'self'", "'unsafe-inline'"] : ["'self'", ...styles];
  const frames = framedOrigins(tenant);
  const contactScript = options.contactScript === false ? undefined : contactScriptSource(tenant);
  return [
    "default-src 'self'",
    `script-src ${["'self'", ...(contactScript ? [contactScript] : []), ...scripts].join(' ')}`,
    `style-src ${styleSources.join(' ')}`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    `connect-src 'self'${options.development ? ' ws: wss:' : ''}`,
    `frame-src ${frames.length ? frames.join(' ') : "'none'"}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors(tenant)}`,
  ].join('; ');
}

/**
 * Referrer policy of a page: a page opened with a query may carry a token (`/login?p=…`,
 * `?confirm=…`, `?reset=…`, `?code=…&state=…`), which must not travel even as a same-origin referrer
 * of its assets and API calls; other pages send their origin to other sites only.
 */
export function pageReferrerPolicy(url: string): string {
  return url.includes('?') ? 'no-referrer' : 'strict-origin-when-cross-origin';
}
