import type { PortalConfig } from '../../engine/domain/portalConfig';
import type { Locale } from '../../engine/domain/locales';

export const HEAD_PLACEHOLDER = '<!--portal:head-->';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** JSON inside <script> must not be able to close the tag or open a comment. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The texts of a locale are most of a page (a thousand keys). Frozen tables are the shared base
 * texts of a feature set (tenant/page/tenantTexts.ts): they are serialized once, however many tenants
 * ship them (per-tenant work is only what differs).
 */
const serializedTables = new WeakMap<object, string>();
function textsJson(texts: Partial<Record<string, Record<string, string>>>): string {
  const parts = Object.entries(texts).flatMap(([locale, table]) => {
    if (!table) return [];
    let json = Object.isFrozen(table) ? serializedTables.get(table) : undefined;
    if (json === undefined) {
      json = scriptSafeJson(table);
      if (Object.isFrozen(table)) serializedTables.set(table, json);
    }
    return `${scriptSafeJson(locale)}:${json}`;
  });
  return `{${parts.join(',')}}`;
}

/** The page's configuration as script-safe JSON, the texts spliced in (the same JSON as stringifying it whole). */
function configJson(config: Omit<PortalConfig, 'basePath'>): string {
  const { texts, textFiles, ...rest } = config;
  const head = scriptSafeJson({ ...rest, ...(textFiles && { textFiles }), basePath: '' });
  return `${head.slice(0, -1)},"texts":${textsJson(texts)}}`;
}

/**
 * Inlines a tenant into the engine's index.html (docs/architecture.md "Building tenants"): title,
 * description, theme CSS and the portal configuration, so the first paint is branded and needs no extra
 * request. Used by `portal build` and by `portal dev` alike. A built page names its base texts' files instead
 * of carrying them, so they are downloaded once for all tenants; the default locale's is preloaded, so
 * its download starts with the page's and not only once the entry script runs (engine/core/i18n.ts
 * fetches it the same way: same URL, against <base href>, CORS mode, same-origin credentials).
 */
export function renderTenantHtml(
  template: string,
  input: {
    config: Omit<PortalConfig, 'basePath'>;
    themeCss: string;
    description?: string;
    themeColor?: string;
  },
): string {
  if (!template.includes(HEAD_PLACEHOLDER))
    throw new Error(`index.html lacks the ${HEAD_PLACEHOLDER} placeholder`);
  const { tenant, textFiles } = input.config;
  const preload = textFiles?.[tenant.defaultLocale as Locale];
  const head = [
    `<title>${escapeHtml(tenant.name)}</title>`,
    // Search results show it under the title (Lighthouse's SEO audit asks for it); the shell
    // replaces it per screen and language (engine/app/shell/usePageTitle.ts).
    ...(input.description ? [`<meta name="description" content="${escapeHtml(input.description)}">`] : []),
    ...(input.themeColor ? [`<meta name="theme-color" content="${escapeHtml(input.themeColor)}">`] : []),
    ...(preload
      ? [`<link rel="preload" href="${escapeHtml(preload)}" as="fetch" crossorigin="anonymous">`]
      : []),
    `<style id="portal-theme">${input.themeCss.replace(/<\/style/gi, '<\\/style')}</style>`,
    `<script type="application/json" id="portal-config">${configJson(input.config)}</script>`,
  ].join('\n    ');
  return template
    .replace(HEAD_PLACEHOLDER, head)
    .replace('<html lang="en-GB">', `<html lang="${tenant.defaultLocale}">`);
}
