import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { PortalConfig, ShellTenant } from '../../engine/core/portalConfig';
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
 * theme tokens and the FAQ entries (served by GET /api/faq) stay out of the page.
 */
export function tenantPageInput(tenant: ResolvedTenant): { config: Omit<PortalConfig, 'basePath'>; themeCss: string } {
  const safe = sanitizeTenantHtml(tenant, schema() as never) as ResolvedTenant & Record<string, unknown>;
  const { $schema: _schema, texts: _texts, theme: _theme, themeTokens, hosts: _hosts, ...publicTenant } = safe;
  // portal-core.md §6: anonymous visitors see only public FAQ entries, so no entry is inlined in
  // the page; the FAQ screen asks GET /api/faq, which filters by the session.
  const page = publicTenant as Record<string, unknown>;
  if (page.faq && typeof page.faq === 'object') {
    const { entries: _entries, ...faqWithoutEntries } = page.faq as Record<string, unknown>;
    page.faq = faqWithoutEntries;
  }
  return {
    config: { tenant: publicTenant as unknown as ShellTenant, texts: tenantTexts(tenant as never) },
    themeCss: themeToCss(themeTokens),
  };
}
