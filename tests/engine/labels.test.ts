import { describe, expect, it } from 'vitest';
import accountTexts from '../../engine/account/texts.json';
import { createTranslator } from '../../engine/core/translation';
import {
  billingFrequencyLabel,
  BILLING_FREQUENCIES,
  expiryLabel,
  issueLabel,
  MIX_TYPES,
  mixTypeLabel,
} from '../../engine/account/labels';

/** The account kit's texts in one language, as the portal loads them (flat keys with dots). */
async function translator(locale: 'de-DE' | 'en-GB') {
  return createTranslator({ locale, fallbackLocale: locale, texts: { [locale]: accountTexts[locale] } }).t;
}

describe('labels the screens build from codes, in the screen language', () => {
  it('names billing frequencies in the screen language, not in the words the server sent', async () => {
    const en = await translator('en-GB');
    const de = await translator('de-DE');
    expect(billingFrequencyLabel(en, '01', 'monatlich')).toBe('monthly');
    expect(billingFrequencyLabel(en, '03', 'vierteljährlich')).toBe('quarterly');
    expect(billingFrequencyLabel(en, '12', 'jährlich')).toBe('yearly');
    expect(billingFrequencyLabel(de, '01', 'monthly')).toBe('monatlich');
    expect(billingFrequencyLabel(de, '06', null)).toBe('halbjährlich');
  });

  it("keeps the server's words for a code the portal does not know, and shows nothing without either", async () => {
    const en = await translator('en-GB');
    expect(billingFrequencyLabel(en, '24', 'every two years')).toBe('every two years');
    expect(billingFrequencyLabel(en, null, null)).toBe('');
    expect(mixTypeLabel(en, 'ZZ', 'Sonderform')).toBe('Sonderform');
  });

  it('names every mix type and billing frequency in both languages', async () => {
    for (const locale of ['de-DE', 'en-GB'] as const) {
      const t = await translator(locale);
      for (const code of MIX_TYPES)
        expect(mixTypeLabel(t, code, undefined), `${locale} ${code}`).not.toBe('');
      for (const code of BILLING_FREQUENCIES)
        expect(billingFrequencyLabel(t, code, undefined), `${locale} ${code}`).not.toBe('');
    }
    expect(mixTypeLabel(await translator('en-GB'), 'ON', 'Digital-Zugang')).toBe('Online access');
    expect(mixTypeLabel(await translator('de-DE'), 'DE', 'Digital edition')).toBe('E-Paper');
  });

  it('labels an issue by its number ("Ausgabe 12/2026" / "Issue 12/2026"), else by its title', async () => {
    expect(
      issueLabel(await translator('en-GB'), {
        issueNumber: '12/2026',
        description: 'Technikwelt Magazin, Ausgabe 12/2026',
      }),
    ).toBe('Issue 12/2026');
    expect(
      issueLabel(await translator('de-DE'), {
        issueNumber: '12/2026',
        description: 'Technikwelt Magazin, issue 12/2026',
      }),
    ).toBe('Ausgabe 12/2026');
    expect(
      issueLabel(await translator('en-GB'), {
        issueNumber: null,
        description: 'Christmas special',
        issue: 'I-9',
      }),
    ).toBe('Christmas special');
    // A replacement after a complaint (id C-<issue>) says so, in the screen language.
    expect(
      issueLabel(await translator('en-GB'), {
        issue: 'C-I-9',
        issueNumber: '12/2026',
        description: 'Ersatz für Technikwelt Magazin, Ausgabe 12/2026',
      }),
    ).toBe('Replacement for issue 12/2026');
    expect(
      issueLabel(await translator('de-DE'), { issue: 'C-I-9', issueNumber: '12/2026', description: null }),
    ).toBe('Ersatz für Ausgabe 12/2026');
    expect(issueLabel(await translator('en-GB'), { issue: 'I-9' })).toBe('I-9');
  });

  it('names the issue a subscription ends with from its number, else in the words of the server', async () => {
    expect(
      expiryLabel(await translator('en-GB'), {
        expiryIssueNr: '12/2026',
        expiryDesc: 'endet mit Ausgabe 12/2026',
      }),
    ).toBe('Issue 12/2026');
    expect(expiryLabel(await translator('de-DE'), { expiryIssueNr: '12/2026', expiryDesc: null })).toBe(
      'Ausgabe 12/2026',
    );
    expect(
      expiryLabel(await translator('de-DE'), { expiryIssueNr: null, expiryDesc: 'zum Jahresende' }),
    ).toBe('zum Jahresende');
    expect(expiryLabel(await translator('de-DE'), null)).toBe('');
  });
});
