import { type PortalConfig } from '../domain/portalConfig';
import { fallbackLocaleOf, type Locale } from '../domain/locales';
import { createTranslator, type Translator } from './translation';
import { chooseLocale, LOCALE_COOKIE } from '../domain/language';

/** The query parameter that names a language (portal-core.md §1). */
export const LANG_PARAM = 'lang';

/**
 * Where the visitor's choice of language is kept: local storage, per tenant, so it survives
 * sign-in in every form — a magic link opened in a new tab, the OAuth round trip, a kicker-cookie
 * sign-in in another tab, a reload. Per tenant because every tenant under
 * /t/<id>/ shares one origin and may offer other languages.
 */
export function localeStorageKey(tenantId: string): string {
  return `portal.locale.${tenantId}`;
}

export { langParam, localeFromLangParam, offeredLocale } from '../domain/language';

/**
 * Query parameter first (a sign-in link carries the language the visitor used, see
 * server/auth/signInMailJobs.ts), then the visitor's earlier choice, then the tenant default —
 * each only when the tenant offers it (engine/domain/language.ts, the server's rule too).
 */
export function initialLocale(
  config: PortalConfig,
  search: string,
  storage: Pick<Storage, 'getItem'> | undefined = safeLocalStorage(),
): Locale {
  let stored: string | null = null;
  try {
    stored = storage?.getItem(localeStorageKey(config.tenant.id)) ?? null;
  } catch {
    // Storage can be blocked inside third-party frames; the tenant default is fine then.
  }
  return chooseLocale(config.tenant, [new URLSearchParams(search).get(LANG_PARAM), stored]);
}

/**
 * The address without its `lang` (undefined when it has none). The portal applies a `?lang` once,
 * at start, remembers it as the visitor's choice and takes it out of the address bar: a `lang`
 * left there would bring its language back on the next reload after the visitor chose the other
 * one with the flag button (the chosen language wins over a `lang` left in the URL).
 */
export function addressWithoutLang(
  location: Pick<Location, 'pathname' | 'search' | 'hash'>,
): string | undefined {
  const query = new URLSearchParams(location.search);
  if (!query.has(LANG_PARAM)) return undefined;
  query.delete(LANG_PARAM);
  const rest = query.toString();
  return `${location.pathname}${rest ? `?${rest}` : ''}${location.hash}`;
}

export function rememberLocale(
  tenantId: string,
  locale: string,
  storage: Pick<Storage, 'setItem'> | undefined = safeLocalStorage(),
): void {
  try {
    storage?.setItem(localeStorageKey(tenantId), locale);
  } catch {
    // see initialLocale
  }
}

/**
 * The language a page shows, in LOCALE_COOKIE for its base path: the server preloads that
 * language's texts with the next page (server/spa/textPreload.ts). Refused inside a third-party
 * frame that may not set cookies; the page then preloads the default's, as before.
 */
export function keepLocaleCookie(
  basePath: string,
  locale: string,
  page: Pick<Document, 'cookie'> = document,
): void {
  try {
    page.cookie = `${LOCALE_COOKIE}=${locale}; path=${basePath}; max-age=31536000; samesite=lax`;
  } catch {
    // see above
  }
}

function safeLocalStorage(): Storage | undefined {
  try {
    // Outside a browser (unit tests) `window` is not defined: that throws, and the answer is the same.
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * A built page carries only the tenant's own texts per locale and, in `textFiles`, the
 * hashed file of each offered locale's complete base texts, shared by every tenant with the same
 * features and cached across deploys: the locale shown is fetched before the first render (its
 * preload link starts that before this script runs), another one before switching to it.
 * Without `textFiles` (`portal dev`, the studio's preview) the inline texts are the full tables.
 */
export async function createI18n(config: PortalConfig, locale: string): Promise<Translator> {
  const { texts, textFiles = {} } = config;
  const load = async (shown: string) => {
    const file = textFiles[shown as Locale];
    if (!file) return undefined;
    const response = await fetch(file);
    // The failed answer itself is thrown: engine/app/main.tsx shows its two-language notice.
    if (!response.ok) throw response;
    delete textFiles[shown as Locale];
    return { ...(await response.json()), ...texts[shown as Locale] };
  };
  const shownTable = await load(locale);
  return createTranslator({
    locale,
    // A built page's text file is already filled from the fallback locale (tenant/page/tenantTexts.ts).
    fallbackLocale: fallbackLocaleOf(config.tenant),
    texts: shownTable ? { ...texts, [locale]: shownTable } : texts,
    load,
  });
}
