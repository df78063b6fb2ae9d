/**
 * Prose the order system writes (product names, editions, offer and article descriptions, the
 * words of a premium) in more than one language (issue 14, finding 4). A `details` jsonb value may
 * carry `translations`: per locale, the same fields in that language, for example
 * `{ "displayName": "Technikwelt Digital – Digital-Zugang", "translations": { "en-GB":
 * { "displayName": "Technikwelt Digital – Online access" } } }`. The stores answer in the request's
 * locale (server/tenancy/requestLocale.ts); a field without a translation keeps the stored words.
 * Labels with a code (billing frequency, mix type, issue number) are formatted by the screens
 * instead (engine/account/labels.ts).
 */

export type Translations<T> = Partial<Record<string, DeepPartial<T>>>;
export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object | null | undefined ? DeepPartial<NonNullable<T[K]>> | T[K] : T[K] };

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

/** The details in `locale` (without their `translations`); unchanged when there is no locale or translation. */
export function localizedDetails<T extends object>(details: T & { translations?: Translations<T> }, locale: string | undefined): T {
  const { translations, ...rest } = details;
  const translation = locale ? translations?.[locale] : undefined;
  return (translation ? overlaid(rest, translation) : rest) as T;
}
