import type { Locale } from '../../schemas/generated/tenant';

/**
 * The locales a portal speaks (portal-core.md §8): the schema's list (schemas/tenant.schema.json
 * `definitions.locale`, generated into `Locale`), one place for the engine, the server and the CLI.
 * The object below makes the compiler check the list against the schema both ways, so a locale
 * added to the schema is refused here until it is listed; its texts are JSON files
 * (README "Adding a locale").
 */
export type { Locale };
const IN_SCHEMA: Record<Locale, true> = { 'de-DE': true, 'en-GB': true };
export const LOCALES = Object.keys(IN_SCHEMA) as readonly Locale[];
/** The language of last resort when neither the visitor nor the tenant names one. */
export const FALLBACK_LOCALE: Locale = 'en-GB';

/**
 * The locale whose text stands in for a key missing in the locale shown: British English when the
 * tenant offers it, else the tenant's own default locale, never a language the tenant does not
 * offer. The portal looks texts up by it (engine/core/i18n.ts) and the tenant page fills each
 * locale's text file by it (tenant/page/tenantTexts.ts).
 */
export function fallbackLocaleOf(tenant: { locales: readonly string[]; defaultLocale: string }): string {
  return tenant.locales.includes(FALLBACK_LOCALE) ? FALLBACK_LOCALE : tenant.defaultLocale;
}
