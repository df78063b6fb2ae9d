import { Router } from 'express';
import type { AuthService } from '../auth/authService';
import { sanitizeHtml } from '../../cli/build/sanitizeTenantHtml';
import { requireFeature } from '../tenancy/requireFeature';
import type { FaqEntry } from '../../schemas/generated/tenant';
import { optionalUser, userOrUndefined } from './optionalUser';
import { publicPagesTenant, type PublicPagesTenant } from './tenantSettings';

/** The FAQ entries of a tenant with their HTML sanitized once (tenant HTML, DESIGN.md "tenants/"). */
const sanitized = new WeakMap<object, FaqEntry[]>();
function entriesOf(tenant: PublicPagesTenant): FaqEntry[] {
  let entries = sanitized.get(tenant);
  if (!entries) {
    entries = (tenant.faq?.entries ?? []).map((entry) => ({
      ...entry,
      category: entry.category ?? 'general',
      public: entry.public ?? false,
      content: Object.fromEntries(Object.entries(entry.content).map(([locale, html]) => [locale, sanitizeHtml(String(html))])),
    }));
    sanitized.set(tenant, entries);
  }
  return entries;
}

/**
 * GET /faq (portal-core.md §2 "FAQ", §6): the FAQ entries, of which anonymous visitors get only
 * those flagged public. The built page does not carry the entries (cli/build/tenantPage.ts strips
 * them), so a non-public entry never reaches an anonymous browser.
 */
export function faqRoutes(deps: { auth: AuthService }): Router {
  const router = Router();
  router.get('/faq', optionalUser(deps.auth), (_req, res) => {
    const tenant = publicPagesTenant(res);
    requireFeature(tenant, 'faq');
    const loggedIn = userOrUndefined(res) !== undefined;
    const entries = entriesOf(tenant).filter((entry) => loggedIn || entry.public);
    res.set('cache-control', 'private, no-store');
    res.json({ entries });
  });
  return router;
}
