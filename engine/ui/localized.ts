import { wordsIn } from '../domain/language';
import type { Locale } from '../domain/locales';

/**
 * Tenant texts given per locale ({"de-DE": …, "en-GB": …}, schemas/tenant.schema.json
 * "localizedText"/"localizedHtml"): the current locale, else the other one (a missing locale falls
 * back to the other one) — the rule the server words per-locale texts by (engine/domain/language.ts).
 */
export function localized(
  value: Readonly<Partial<Record<Locale, string>>> | undefined,
  language: string,
): string {
  return wordsIn(value, language) ?? '';
}
