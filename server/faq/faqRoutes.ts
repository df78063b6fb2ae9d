import { createHash } from 'node:crypto';
import { Router } from 'express';
import type { AuthService } from '../auth/authService';
import { requireFeature } from '../tenancy/refusals';
import { optionalUser, userOrUndefined } from '../auth/optionalUser';
import { requestTenant, type ServerTenant } from '../tenancy/tenantContext';
import type { FaqAnswer, FaqAnswerEntry } from '../../schemas/generated/public-pages';

/**
 * The FAQ entries of a tenant with their HTML sanitized once per content (tenant HTML, docs/architecture.md
 * "The folders": `tenants/`). Keyed by tenant id and a hash of the entries, not by the tenant object: `portal
 * dev` reloads an edited tenant file into the same object (Object.assign), and the edited entries must be
 * served at once. Hashing the entries is cheap next to sanitizing them.
 */
const sanitized = new Map<string, { hash: string; entries: FaqAnswerEntry[] }>();
/**
 * The sanitizer (DOMPurify on jsdom) is loaded on the first FAQ request, not with the server: jsdom
 * alone is about 90 MB of a server's memory, which a portal without the FAQ never needs.
 */
let sanitizer: Promise<(html: string) => string> | undefined;
async function entriesOf(tenant: ServerTenant): Promise<FaqAnswerEntry[]> {
  const source = tenant.faq?.entries ?? [];
  const hash = createHash('sha256').update(JSON.stringify(source)).digest('base64url');
  const cached = sanitized.get(tenant.id);
  if (cached?.hash === hash) return cached.entries;
  sanitizer ??= import('../../tenant/page/sanitizeTenantHtml').then(
    (module) => module.sanitizeHtml,
    (error) => {
      sanitizer = undefined; // a failed load is tried again by the next request, not cached
      throw error;
    },
  );
  const sanitizeHtml = await sanitizer;
  const entries = source.map((entry): FaqAnswerEntry => ({
    id: entry.id,
    title: entry.title,
    category: entry.category ?? 'general',
    public: entry.public ?? false,
    content: Object.fromEntries(
      Object.entries(entry.content).map(([locale, html]) => [locale, sanitizeHtml(String(html))]),
    ),
  }));
  sanitized.set(tenant.id, { hash, entries });
  return entries;
}

/**
 * GET /faq (portal-core.md §2 "FAQ", §6): the FAQ entries, of which anonymous visitors get only
 * those flagged public. The built page does not carry the entries (tenant/page/tenantPage.ts strips
 * them), so a non-public entry never reaches an anonymous browser.
 */
export function faqRoutes(deps: { auth: AuthService }): Router {
  const router = Router();
  router.get('/faq', optionalUser(deps.auth), async (_req, res) => {
    const tenant = requestTenant(res);
    requireFeature(tenant, 'faq');
    const loggedIn = userOrUndefined(res) !== undefined;
    const entries = (await entriesOf(tenant)).filter((entry) => loggedIn || entry.public);
    res.set('cache-control', 'private, no-store');
    const answer: FaqAnswer = { entries };
    res.json(answer);
  });
  return router;
}
