import i18next, { type i18n } from 'i18next';
import { FALLBACK_LOCALE, type Locale, type PortalConfig } from './portalConfig';

const LOCALE_STORAGE_KEY = 'portal.locale';

/**
 * The `lang` query parameter of portal-core.md §1: "de" gives German, "en" British English,
 * any other value is used as given (i18next then falls back to en-GB).
 */
export function localeFromLangParam(lang: string | null): string | undefined {
  if (!lang) return undefined;
  if (lang === 'de') return 'de-DE';
  if (lang === 'en') return 'en-GB';
  return lang;
}

/** Query parameter first, then the visitor's earlier choice in this tab, then the tenant default. */
export function initialLocale(config: PortalConfig, search: string): string {
  const fromQuery = localeFromLangParam(new URLSearchParams(search).get('lang'));
  if (fromQuery) return fromQuery;
  try {
    const stored = sessionStorage.getItem(LOCALE_STORAGE_KEY);
    if (stored) return stored;
  } catch {
    // Storage can be blocked inside third-party frames; the tenant default is fine then.
  }
  return config.tenant.defaultLocale;
}

export function rememberLocale(locale: string): void {
  try {
    sessionStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // see initialLocale
  }
}

/** The flag button toggles between the two locales. */
export function otherLocale(current: string): Locale {
  return current.startsWith('de') ? 'en-GB' : 'de-DE';
}

export async function createI18n(config: PortalConfig, locale: string): Promise<i18n> {
  const instance = i18next.createInstance();
  await instance.init({
    lng: locale,
    fallbackLng: FALLBACK_LOCALE,
    supportedLngs: false,
    resources: {
      'de-DE': { translation: config.texts['de-DE'] ?? {} },
      'en-GB': { translation: config.texts['en-GB'] ?? {} },
    },
    // Text keys are flat and contain dots ("orders.heading").
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}
