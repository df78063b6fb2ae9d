import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { PortalConfig, PortalTenant } from '../../engine/core/portalConfig';
import { themeToCss } from '../../engine/domain/theme';
import type { ResolvedTenant } from '../tenant';
import { ROOT_DIR } from '../paths';
import { sanitizeTenantHtml } from './sanitizeTenantHtml';
import { tenantTexts } from './tenantTexts';

let tenantSchema: object | undefined;
function schema(): object {
  tenantSchema ??= JSON.parse(readFileSync(path.join(ROOT_DIR, 'schemas', 'tenant.schema.json'), 'utf8'));
  return tenantSchema!;
}

/**
 * What a tenant's page inlines: the public part of the validated tenant (tenant HTML sanitized
 * here, at build time), its merged texts and its theme CSS. Hosts, the schema pointer, raw texts,
 * theme tokens, webhook endpoints and the FAQ entries (served by GET /api/faq) stay out of the page.
 */
export function tenantPageInput(tenant: ResolvedTenant): { config: Omit<PortalConfig, 'basePath'>; themeCss: string } {
  // portal-core.md §6: anonymous visitors see only public FAQ entries, so no entry is inlined in
  // the page; the FAQ screen asks GET /api/faq, which filters by the session. Left out before
  // sanitizing, so no time goes into HTML that the page never carries.
  const { entries: _entries, ...faqWithoutEntries } = tenant.faq;
  const safe = sanitizeTenantHtml({ ...tenant, faq: faqWithoutEntries }, schema() as never);
  // The webhook endpoints (URLs and secrets of the publisher's systems) are server-side only.
  const { $schema: _schema, texts: _texts, theme: _theme, themeTokens, hosts: _hosts, webhooks: _webhooks, ...rest } = safe;
  const publicTenant: PortalTenant = rest;
  return {
    config: { tenant: publicTenant, texts: tenantTexts(tenant) },
    themeCss: themeToCss(themeTokens),
  };
}
