/**
 * Tenant texts given per locale ({"de-DE": …, "en-GB": …}, schemas/tenant.schema.json
 * "localizedText"/"localizedHtml"): the current locale, else the other one (a missing locale falls
 * back to the other one).
 */
export function localized(value: { 'de-DE'?: string; 'en-GB'?: string } | undefined, language: string): string {
  if (!value) return '';
  const primary = language.startsWith('de') ? value['de-DE'] : value['en-GB'];
  return primary ?? value['en-GB'] ?? value['de-DE'] ?? '';
}
