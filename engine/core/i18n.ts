import { FALLBACK_LOCALE, type Locale, type PortalConfig } from './portalConfig';
import { createTranslator, type Translator } from './translation';

/**
 * Where the visitor's choice of language is kept: local storage, per tenant, so it survives
 * sign-in in every form — a magic link opened in a new tab, the OAuth round trip, a kicker-cookie
 * sign-in in another tab, a reload (issue 14, finding 4). Per tenant because every tenant under
 * /t/<id>/ shares one origin and may offer other languages.
 */
export function localeStorageKey(tenantId: string): string {
  return `portal.locale.${tenantId}`;
}

/**
 * The `lang` query parameter of portal-core.md §1: "de" gives German, "en" British English,
 * any other value is used as given (and then matched against the tenant's locales, see
 * offeredLocale).
 */
export function localeFromLangParam(lang: string | null): string | undefined {
  if (!lang) return undefined;
  if (lang === 'de') return 'de-DE';
  if (lang === 'en') return 'en-GB';
  return lang;
}

/** The short form a link carries (`?lang=de`), the inverse of localeFromLangParam. */
export function langParam(locale: string): 'de' | 'en' {
  return locale.startsWith('de') ? 'de' : 'en';
}

/**
 * The tenant's locale that a wish names: exactly, or by its language ("en-US" → "en-GB"); a
 * language the tenant does not offer gives undefined. A tenant that offers only German shows only
 * German, whatever `?lang` says (issue 14, finding 4; portal-core.md §1 "The tenant has a default
 * locale").
 */
export function offeredLocale(offered: readonly string[], wish: string | null | undefined): Locale | undefined {
  if (!wish) return undefined;
  const exact = offered.find((locale) => locale.toLowerCase() === wish.toLowerCase());
  const sameLanguage = offered.find((locale) => locale.slice(0, 2).toLowerCase() === wish.slice(0, 2).toLowerCase());
  return (exact ?? sameLanguage) as Locale | undefined;
}

/**
 * Query parameter first (a sign-in link carries the language the visitor used, see
 * server/auth/signInMailJobs.ts), then the visitor's earlier choice, then the tenant default —
 * each only when the tenant offers it.
 */
export function initialLocale(config: PortalConfig, search: string, storage: Pick<Storage, 'getItem'> | undefined = safeLocalStorage()): Locale {
  const offered = config.tenant.locales;
  const fromQuery = offeredLocale(offered, localeFromLangParam(new URLSearchParams(search).get('lang')));
  if (fromQuery) return fromQuery;
  let stored: string | null = null;
  try {
    stored = storage?.getItem(localeStorageKey(config.tenant.id)) ?? null;
  } catch {
    // Storage can be blocked inside third-party frames; the tenant default is fine then.
  }
  return offeredLocale(offered, stored) ?? (config.tenant.defaultLocale as Locale);
}

export function rememberLocale(tenantId: string, locale: string, storage: Pick<Storage, 'setItem'> | undefined = safeLocalStorage()): void {
  try {
    storage?.setItem(localeStorageKey(tenantId), locale);
  } catch {
    // see initialLocale
  }
}

function safeLocalStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/** The flag button toggles between the two locales. */
export function otherLocale(current: string): Locale {
  return current.startsWith('de') ? 'en-GB' : 'de-DE';
}

export async function createI18n(config: PortalConfig, locale: string): Promise<Translator> {
  return createTranslator({
    locale,
    // A text missing in the locale shown falls back to the tenant's own default locale, never to
    // a language the tenant does not offer.
    fallbackLocale: config.tenant.locales.includes(FALLBACK_LOCALE) ? FALLBACK_LOCALE : config.tenant.defaultLocale,
    texts: config.texts,
  });
}
