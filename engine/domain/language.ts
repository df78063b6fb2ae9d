/**
 * One language per screen (issue 22): which language a screen shows, which language the server
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
import { FALLBACK_LOCALE, type Locale } from './locales';

/** The languages of a tenant: the ones it offers and the one it starts in. */
export interface TenantLanguages {
  locales: readonly string[];
  defaultLocale: string;
}

/**
 * The `lang` query parameter of portal-core.md §1: "de" gives German, "en" British English, any
 * other value is used as given (and then matched against the tenant's locales, see offeredLocale).
 */
export function localeFromLangParam(lang: string | null | undefined): string | undefined {
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
 * The tenant's locale that a wish names, by its language ("en-US" → "en-GB"; the portal's locales
 * differ in language, so that is also the exact match); a language the tenant does not offer gives
 * undefined.
 */
export function offeredLocale(
  offered: readonly string[],
  wish: string | null | undefined,
): Locale | undefined {
  const language = wish?.trim().slice(0, 2).toLowerCase();
  if (!language) return undefined;
  return offered.find((locale) => locale.slice(0, 2).toLowerCase() === language) as Locale | undefined;
}

/** The first wish the tenant offers, else the tenant's default locale. */
export function chooseLocale(tenant: TenantLanguages, wishes: Iterable<string | null | undefined>): Locale {
  for (const wish of wishes) {
    const locale = offeredLocale(tenant.locales, localeFromLangParam(wish));
    if (locale) return locale;
  }
  return tenant.defaultLocale as Locale;
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
 * Words given per locale (`{"de-DE": "Angebote per Post", "en-GB": "Offers by post"}`) in
 * `locale`: its own, else those of the same language, else the fallback locale's (British English),
 * else any. Undefined when there are none.
 */
export function wordsIn<T>(
  words: Readonly<Partial<Record<Locale, T>>> | Readonly<Partial<Record<string, T>>> | null | undefined,
  locale: string,
): T | undefined {
  if (!words) return undefined;
  const byLocale = words as Readonly<Partial<Record<string, T>>>;
  const present = (key: string | undefined) =>
    key !== undefined && byLocale[key] != null && byLocale[key] !== '' ? byLocale[key] : undefined;
  const sameLanguage = Object.keys(byLocale).find(
    (key) => key.slice(0, 2).toLowerCase() === locale.slice(0, 2).toLowerCase(),
  );
  return (
    present(locale) ??
    present(sameLanguage) ??
    present(FALLBACK_LOCALE) ??
    Object.keys(byLocale)
      .map(present)
      .find((words) => words !== undefined)
  );
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
