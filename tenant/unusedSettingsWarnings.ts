/**
 * Settings that validate and yet do nothing a subscriber sees: an announcement whose feature is off
 * (no banner is shown), and the FAQ switched on with no entries (a menu item and a footer link to a
 * page that says there are no questions yet). Warnings, not errors: the portal works as written, it
 * is just not what the file's author meant (portal-core.md §1 "announcement", §2 "FAQ").
 */
import type { Problem } from './schemaErrors';

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

export function unusedSettingsWarnings(tenant: Record<string, unknown>): Problem[] {
  const features = Array.isArray(tenant.features) ? tenant.features : [];
  const warnings: Problem[] = [];
  if (tenant.announcement !== undefined && !features.includes('announcement'))
    warnings.push({
      pointer: '/announcement',
      at: 'key',
      message: 'an announcement, but the "announcement" feature is off: no banner is shown',
      hint: 'add "announcement" to features, or remove the announcement',
    });
  const faqAt = features.indexOf('faq');
  const entries = record(tenant.faq).entries;
  if (faqAt >= 0 && (!Array.isArray(entries) || entries.length === 0))
    warnings.push({
      pointer: `/features/${faqAt}`,
      at: 'value',
      message:
        'the FAQ is on without entries: its menu item and footer link lead to a page with no questions',
      hint: 'add questions under faq.entries, or remove "faq" from features',
    });
  return warnings;
}
