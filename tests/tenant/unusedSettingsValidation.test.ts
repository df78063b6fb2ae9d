/**
 * Settings that validate and show nothing (tenant/unusedSettingsWarnings.ts): warned about, never
 * refused, at the setting the author wrote.
 */
import { describe, expect, it } from 'vitest';
import { validateTenantSource, type ValidationContext } from '../../tenant';
import { makeTenant, makeThemePreset } from '../support/builders';

const ctx: ValidationContext = { knownTextKeys: new Set(), themePresets: { classic: makeThemePreset() } };
const validate = (tenant: object) =>
  validateTenantSource('tenants/acme.json', JSON.stringify(tenant, null, 2), ctx);
const announcement = { html: { 'de-DE': '<p>Streik</p>', 'en-GB': '<p>Strike</p>' } };
const faqEntry = {
  id: 'how',
  title: { 'de-DE': 'Wie?', 'en-GB': 'How?' },
  content: { 'de-DE': '<p>So.</p>', 'en-GB': '<p>Like this.</p>' },
};

describe('settings that show nothing', () => {
  it('warns about an announcement whose feature is off, and not once it is on', () => {
    const off = validate(makeTenant({ features: [], announcement }));
    expect(off.issues).toEqual([]);
    expect(off.warnings.map((w) => `${w.pointer} ${w.message}`)).toEqual([
      '/announcement an announcement, but the "announcement" feature is off: no banner is shown',
    ]);
    expect(validate(makeTenant({ features: ['announcement'], announcement })).warnings).toEqual([]);
  });

  it('warns at the "faq" feature when the FAQ has no entries, and not with one', () => {
    const empty = validate(makeTenant({ features: ['opt-ins', 'faq'], faq: {} }));
    expect(empty.issues).toEqual([]);
    expect(empty.warnings.map((w) => `${w.pointer} ${w.message}`)).toEqual([
      '/features/1 the FAQ is on without entries: its menu item and footer link lead to a page with no questions',
    ]);
    const answered = validate(makeTenant({ features: ['faq'], faq: { entries: [faqEntry] } }));
    expect(answered.issues).toEqual([]);
    expect(answered.warnings).toEqual([]);
  });
});
