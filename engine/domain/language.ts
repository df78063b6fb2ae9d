/**
 * One language per screen: which language a screen shows, which language the server
 * answers in, and which words of the order system's prose (product, edition, article, offer and
 * reason names) stand in that language. One rule for both sides:
 *
 * - the portal starts in the first of its wishes the tenant offers — a `?lang` of the address,
 *   then the visitor's earlier choice — else the tenant's default (engine/core/i18n.ts), and sends
 *   the language it shows with every call as Accept-Language (engine/core/apiClient.ts);
 * - the server answers in the first of its wishes the tenant offers — a language the call names
 *   itself (a mail's or a file's `lang`), then Accept-Language — else the tenant's default
 *   (server/tenancy/requestLocale.ts);
 * - words stored per locale (`{"de-DE": …, "en-GB": …}`) or as `translations` of a stored value
 *   are given in that language, else in the fallback language (`wordsIn`, `localizedDetails`).
 *
 * A tenant that offers one language stays in it whatever is asked for (portal-core.md §1 "The
 * tenant has a default locale").
 */
import { FALLBACK_LOCALE, LOCALES, localeData, type Locale } from './locales';

/**
 * The cookie a page keeps its language in, beside local storage (engine/core/i18n.ts), so the
 * server can preload that language's texts with the page (server/spa/textPreload.ts).
 */
export const LOCALE_COOKIE = 'portal_lang';

/** The languages of a tenant: the ones it offers and the one it starts in. */
export interface TenantLanguages {
  locales: readonly string[];
  defaultLocale: string;
}

/**
 * The `lang` query parameter of portal-core.md §1: a bare language ("de", "en") gives the portal's
 * locale of that language, any other value is used as given (and then matched against the tenant's
 * locales, see offeredLocale).
 */
export function localeFromLangParam(lang: string | null | undefined): string | undefined {
  if (!lang) return undefined;
  return LOCALES.find((locale) => langParam(locale) === lang) ?? lang;
}

/**
 * The short form a link carries (`?lang=de`), the inverse of localeFromLangParam; the whole locale
 * when the portal speaks another locale of the same language (a pseudo-locale beside en-GB).
 */
export function langParam(locale: string): string {
  const language = languageOf(locale);
  return LOCALES.filter((other) => languageOf(other) === language).length > 1 ? locale : language;
}

function languageOf(locale: string): string {
  return locale.split('-')[0].toLowerCase();
}

/**
 * The portal's locale for a language the screen or a caller names (i18next's language, a request's
 * locale): by its language, else the fallback locale. What a request body's `locale` is made of.
 */
export function portalLocale(language: string | null | undefined): Locale {
  return offeredLocale(LOCALES, language) ?? FALLBACK_LOCALE;
}

/** The locale after `current` in the tenant's list, round to the first: the flag button's next language. */
export function nextLocale(offered: readonly string[], current: string): Locale {
  const index = offered.indexOf(offeredLocale(offered, current) ?? current);
  return offered[(index + 1) % offered.length] as Locale;
}

/**
 * A locale's language named in itself ("Deutsch", "English"), as the flag button shows it: its
 * data's name (LOCALE_TABLE), else the locale's code.
 */
export function languageName(locale: string): string {
  return localeData(locale)?.name ?? locale;
}

/**
 * The region a locale writes addresses from ("DE" for de-DE): an address in it needs no country line.
 */
export function homeRegion(locale: string): string | undefined {
  return new Intl.Locale(locale).maximize().region;
}

/**
 * The tenant's locale that a wish names: that locale itself, else one of its language ("en-US" →
 * "en-GB"); a language the tenant does not offer gives undefined.
 */
export function offeredLocale(
  offered: readonly string[],
  wish: string | null | undefined,
): Locale | undefined {
  const wanted = wish?.trim().toLowerCase();
  if (!wanted) return undefined;
  const exact = offered.find((locale) => locale.toLowerCase() === wanted);
  const language = wanted.slice(0, 2);
  return (exact ?? offered.find((locale) => locale.slice(0, 2).toLowerCase() === language)) as
    Locale | undefined;
}

/** The first wish the tenant offers; undefined when it offers none of them. */
export function firstOfferedLocale(
  offered: readonly string[],
  wishes: Iterable<string | null | undefined>,
): Locale | undefined {
  for (const wish of wishes) {
    const locale = offeredLocale(offered, localeFromLangParam(wish));
    if (locale) return locale;
  }
  return undefined;
}

/** The first wish the tenant offers, else the tenant's default locale. */
export function chooseLocale(tenant: TenantLanguages, wishes: Iterable<string | null | undefined>): Locale {
  return firstOfferedLocale(tenant.locales, wishes) ?? (tenant.defaultLocale as Locale);
}

/** The languages of an Accept-Language header, the most wanted first (`q=0` means "not this one"). */
export function acceptedLanguages(header: string | null | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.split(';').map((piece) => piece.trim());
      const q = params.map((param) => /^q=([\d.]+)$/i.exec(param)?.[1]).find(Boolean);
      return { tag, q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}

/**
 * Which locale's words `wordsIn` gives for `locale`: its own, else those of the same language, else
 * the fallback locale's (British English), else any. Undefined when there are none.
 */
export function localeOfWords(
  given:
    | Readonly<Partial<Record<Locale, unknown>>>
    | Readonly<Partial<Record<string, unknown>>>
    | null
    | undefined,
  locale: string,
): string | undefined {
  if (!given) return undefined;
  const words = given as Readonly<Partial<Record<string, unknown>>>;
  const present = (key: string | undefined) =>
    key !== undefined && words[key] != null && words[key] !== '' ? key : undefined;
  const sameLanguage = Object.keys(words).find(
    (key) => key.slice(0, 2).toLowerCase() === locale.slice(0, 2).toLowerCase(),
  );
  return (
    present(locale) ??
    present(sameLanguage) ??
    present(FALLBACK_LOCALE) ??
    Object.keys(words)
      .map(present)
      .find((key) => key !== undefined)
  );
}

/**
 * Words given per locale (`{"de-DE": "Angebote per Post", "en-GB": "Offers by post"}`) in
 * `locale`, by the rule of localeOfWords. Undefined when there are none.
 */
export function wordsIn<T>(
  words: Readonly<Partial<Record<Locale, T>>> | Readonly<Partial<Record<string, T>>> | null | undefined,
  locale: string,
): T | undefined {
  const byLocale = words as Readonly<Partial<Record<string, T>>> | null | undefined;
  const key = localeOfWords(byLocale, locale);
  return key === undefined ? undefined : byLocale![key];
}

export type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends object | null | undefined ? DeepPartial<NonNullable<T[K]>> | T[K] : T[K];
};
/** Per locale, the same fields of a stored value in that language. */
export type Translations<T> = Partial<Record<string, DeepPartial<T>>>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `base` with `overlay` laid over it, objects merged key by key (arrays and values replaced). */
function overlaid(base: unknown, overlay: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(overlay)) return overlay === undefined ? base : overlay;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overlay)) out[key] = overlaid(base[key], value);
  return out;
}

/**
 * A stored value of the order system in `locale`: its `translations` for that language laid over
 * the stored words (a field without a translation keeps the stored words), without the
 * `translations` themselves. Unchanged when there is no locale or no translation.
 */
export function localizedDetails<T extends object>(
  details: T & { translations?: Translations<T> | null },
  locale: string | undefined,
): T {
  const { translations, ...rest } = details;
  if (!locale || !translations) return rest as T;
  const key = translations[locale]
    ? locale
    : Object.keys(translations).find(
        (candidate) => candidate.slice(0, 2).toLowerCase() === locale.slice(0, 2).toLowerCase(),
      );
  const translation = key ? translations[key] : undefined;
  return (translation ? overlaid(rest, translation) : rest) as T;
}

/** A stored row with a `translations` column, in `locale`: localizedDetails of its other columns. */
export function localizedRow<R extends { translations?: unknown }>(
  row: R,
  locale: string | undefined,
): Omit<R, 'translations'> {
  type Rest = Omit<R, 'translations'>;
  return localizedDetails<Rest>(
    row as unknown as Rest & { translations?: Translations<Rest> | null },
    locale,
  );
}

/**
 * A tenant setting given once for every language or per locale (an image with words: `"…"` or
 * `{"de-DE": "…", "en-GB": "…"}`), in `locale` by the rule of wordsIn.
 */
export function settingIn<T>(
  value: T | Readonly<Partial<Record<Locale, T>>> | null | undefined,
  locale: string,
): T | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'object') return value as T;
  return wordsIn(value as Readonly<Partial<Record<Locale, T>>>, locale);
}
