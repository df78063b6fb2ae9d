/**
 * The tenant file's invoice section (tenant.schema.json "invoice"): what `portal validate` says
 * about a wrong VAT id, rate or logo, in the words of the other settings' messages.
 */
import { describe, expect, it } from 'vitest';
import { formatIssueWithHint, validateTenantSource, type ValidationContext } from '../../../tenant';
import { makeTenant, makeThemePreset } from '../../support/builders';

const FILE = 'tenants/acme.json';
const ctx: ValidationContext = { knownTextKeys: new Set(), themePresets: { classic: makeThemePreset() } };

function problems(invoice: unknown): string[] {
  const tenant = { ...makeTenant(), invoice };
  return validateTenantSource(FILE, JSON.stringify(tenant, null, 2), ctx).issues.map(
    (issue) => `${issue.pointer} ${issue.message}`,
  );
}

describe('tenant file: invoice', () => {
  it('accepts a publisher with address and VAT id and applies the default rate of 7 %', () => {
    const tenant = {
      ...makeTenant(),
      invoice: {
        publisher: {
          name: 'Acme Verlag GmbH',
          addressLines: ['Marktplatz 1', '04109 Leipzig'],
          vatId: 'DE123456789',
        },
      },
    };
    const result = validateTenantSource(FILE, JSON.stringify(tenant), ctx);
    expect(result.issues).toEqual([]);
    expect(result.tenant?.invoice.vatRatePercent).toBe(7);
  });

  it('says how to write a VAT id', () => {
    const tenant = {
      ...makeTenant(),
      invoice: { publisher: { name: 'Acme', addressLines: ['x'], vatId: 'DE 123 456 789' } },
    };
    const [issue] = validateTenantSource(FILE, JSON.stringify(tenant, null, 2), ctx).issues;
    expect(formatIssueWithHint(issue)).toMatch(
      /\/invoice\/publisher\/vatId "DE 123 456 789" is not in the expected format\n\s+VAT identification number: the two-letter country prefix and the number in capitals without spaces; for example DE123456789/,
    );
  });

  it('refuses a rate above 30 %, a publisher without address, an unknown key and a logo that is not a PNG, JPEG or SVG data URI', () => {
    expect(problems({ vatRatePercent: 70 })).toEqual([
      '/invoice/vatRatePercent 70 is too large; the maximum is 30',
    ]);
    expect(problems({ publisher: { name: 'Acme', addressLines: [] } })).toEqual([
      '/invoice/publisher/addressLines needs at least 1 entry',
    ]);
    expect(problems({ vatRate: 7 })[0]).toContain('/invoice');
    expect(problems({ logoUrl: 'https://cdn.example/logo.png' })).toEqual([
      '/invoice/logoUrl "https://cdn.example/logo.png" is not in the expected format',
    ]);
  });
});
