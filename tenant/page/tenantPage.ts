import type { PortalConfig, PortalTenant } from '../../engine/domain/portalConfig';
import type { Locale } from '../../engine/domain/locales';
import { themeToCss } from '../../engine/domain/theme';
import { loadSchema } from '../schemaErrors';
import type { ResolvedTenant } from '../types';
import { sanitizeTenantHtml } from './sanitizeTenantHtml';
import { splitTenantTexts, tenantTexts } from './tenantTexts';

type PageInput = {
  config: Omit<PortalConfig, 'basePath'>;
  themeCss: string;
  /** The page's `<meta name="description">` in the tenant's default language, its name filled in. */
  description: string;
  /** The browser's toolbar colour on phones (`<meta name="theme-color">`): the theme's primary colour. */
  themeColor: string;
};

/** The text key of the portal's description; the shell adds the page's title to it per screen. */
const DESCRIPTION_KEY = 'shell.metaDescription';

/** The tenant's description text (its own override, else the base text) with its name in place of `{{name}}`. */
function describe(tenant: PortalTenant, table: Readonly<Record<string, string>> | undefined): string {
  return (table?.[DESCRIPTION_KEY] ?? '').replace(/\{\{\s*name\s*\}\}/g, tenant.name);
}

/**
 * What a tenant's page inlines: the public part of the validated tenant (tenant HTML sanitized
 * here, at build time), its merged texts and its theme CSS. Hosts, the schema pointer, raw texts,
 * theme tokens, webhook endpoints and the FAQ entries (served by GET /api/faq) stay out of the page.
 * Pages made per request (`portal dev`, the studio's preview) carry the full texts like this.
 */
export function tenantPageInput(tenant: ResolvedTenant): PageInput {
  const { tenant: publicTenant, themeCss } = publicPart(tenant);
  const texts = tenantTexts(tenant);
  return {
    config: { tenant: publicTenant, texts },
    themeCss,
    description: describe(publicTenant, texts[tenant.defaultLocale as Locale]),
    themeColor: tenant.themeTokens.colors.primary,
  };
}

/**
 * A built page's input: instead of the full texts, only the tenant's own texts per
 * offered locale, and the URL of each locale's base texts file, which `textFile` writes (once per
 * distinct table) and names.
 */
export function builtTenantPageInput(
  tenant: ResolvedTenant,
  textFile: (locale: Locale, base: Readonly<Record<string, string>>) => string,
  buildCache?: Parameters<typeof splitTenantTexts>[1],
): PageInput & { textFiles: Partial<Record<Locale, string>> } {
  const { tenant: publicTenant, themeCss } = publicPart(tenant);
  const texts: Partial<Record<Locale, Record<string, string>>> = {};
  const textFiles: Partial<Record<Locale, string>> = {};
  let description = '';
  for (const { locale, base, overrides } of splitTenantTexts(tenant, buildCache)) {
    texts[locale] = overrides;
    textFiles[locale] = textFile(locale, base);
    if (locale === tenant.defaultLocale) description = describe(publicTenant, { ...base, ...overrides });
  }
  return {
    config: { tenant: publicTenant, texts, textFiles },
    themeCss,
    description,
    themeColor: tenant.themeTokens.colors.primary,
    textFiles,
  };
}

function publicPart(tenant: ResolvedTenant): { tenant: PortalTenant; themeCss: string } {
  // portal-core.md §6: anonymous visitors see only public FAQ entries, so no entry is inlined in
  // the page; the FAQ screen asks GET /api/faq, which filters by the session. Left out before
  // sanitizing, so no time goes into HTML that the page never carries.
  const { entries: _entries, ...faqWithoutEntries } = tenant.faq;
  const safe = sanitizeTenantHtml({ ...tenant, faq: faqWithoutEntries }, loadSchema('tenant') as never);
  // The webhook endpoints (URLs and secrets of the publisher's systems) are server-side only, and
  // so are the offer experiments: the server shows each subscriber their variant's offers.
  const {
    $schema: _schema,
    texts: _texts,
    theme: _theme,
    themeTokens,
    hosts: _hosts,
    webhooks: _webhooks,
    offerExperiments: _offerExperiments,
    ...rest
  } = safe;
  return { tenant: rest, themeCss: themeToCss(themeTokens) };
}
