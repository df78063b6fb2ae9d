/**
 * `portal validate` on the invoice section: a tenant whose settings cannot make a valid
 * e-invoice is told what is missing — a warning while its invoices can stay plain PDFs, an error
 * once it offers the XRechnung download — naming the setting and an example.
 */
import { describe, expect, it } from 'vitest';
import { formatIssueWithHint, validateTenantSource, type ValidationContext } from '../../tenant';
import type { InvoiceConfig } from '../../schemas/generated/tenant';
import { makeTenant, makeThemePreset } from '../support/builders';

const FILE = 'tenants/acme.json';
const ctx: ValidationContext = { themePresets: { classic: makeThemePreset() }, env: {} };

const complete: InvoiceConfig = {
  publisher: {
    name: 'Acme Verlag GmbH',
    addressLines: ['Marktplatz 1', '04109 Leipzig'],
    vatId: 'DE123456789',
    street: 'Marktplatz 1',
    postalCode: '04109',
    city: 'Leipzig',
    countryCode: 'DE',
    electronicAddress: 'rechnungen@acme.example',
    contact: { name: 'Leserservice', phone: '+49 341 1234 0', email: 'leserservice@acme.example' },
  },
  bankAccount: { iban: 'DE89370400440532013000' },
  xRechnung: true,
};

function validate(invoice: InvoiceConfig | undefined) {
  return validateTenantSource(FILE, JSON.stringify(makeTenant({ invoice }), null, 2), ctx);
}

describe('tenant invoice section for e-invoices', () => {
  it('accepts a complete section with the XRechnung on, without warnings', () => {
    const { issues, warnings, tenant } = validate(complete);
    expect(issues).toEqual([]);
    expect(warnings.filter((w) => w.pointer.startsWith('/invoice'))).toEqual([]);
    expect(tenant?.invoice?.paymentTermsDays).toBe(14);
  });

  it('warns, naming each missing seller field, when the invoices would be plain PDFs', () => {
    const { issues, warnings } = validate({
      publisher: { name: 'Acme Verlag GmbH', addressLines: ['Marktplatz 1', '04109 Leipzig'] },
    });
    expect(issues).toEqual([]);
    const lines = warnings.map(formatIssueWithHint);
    expect(warnings.map((w) => w.pointer)).toEqual(
      expect.arrayContaining([
        '/invoice/publisher/street',
        '/invoice/publisher/postalCode',
        '/invoice/publisher/city',
        '/invoice/publisher/countryCode',
        '/invoice/publisher/vatId',
      ]),
    );
    expect(lines.join('\n')).toContain('warning: the invoices are plain PDFs without an e-invoice');
    expect(lines.join('\n')).toContain('seller country (BT-40, BR-9)');
    expect(lines.join('\n')).toContain('add "countryCode": "DE"');
  });

  it('refuses the XRechnung download without what it needs (contact, electronic address, IBAN)', () => {
    const { publisher } = complete;
    const { issues, tenant } = validate({
      publisher: { ...publisher!, contact: undefined, electronicAddress: undefined },
      xRechnung: true,
    });
    expect(tenant).toBeUndefined();
    expect(issues.map((i) => `${i.pointer} ${i.message}`)).toEqual(
      expect.arrayContaining([
        '/invoice/publisher/electronicAddress "xRechnung" is on, but the XRechnung needs the seller electronic address (BT-34)',
        '/invoice/publisher/contact "xRechnung" is on, but the XRechnung needs the seller contact with name, phone and e-mail (BG-6, BR-DE-2)',
        '/invoice/bankAccount "xRechnung" is on, but the XRechnung needs the payment instructions with the IBAN (BG-16, BR-DE-1, BR-DE-23)',
      ]),
    );
    expect(issues.every((i) => i.hint?.includes('or set "xRechnung": false'))).toBe(true);
  });

  it('says nothing of e-invoices for a tenant without a publisher section', () => {
    expect(validate(undefined).warnings.filter((w) => w.pointer.startsWith('/invoice'))).toEqual([]);
  });

  it('accepts a tax number with the register entry instead of a VAT id, and checks the IBAN form', () => {
    const { vatId: _vatId, ...publisher } = complete.publisher!;
    // A tax number alone does not identify the seller (BR-CO-26): the register entry must come along.
    const taxNumberOnly = validate({ ...complete, publisher: { ...publisher, taxNumber: '201/113/40209' } });
    expect(taxNumberOnly.issues.map((i) => i.pointer)).toEqual(['/invoice/publisher/registration']);
    expect(
      validate({
        ...complete,
        publisher: { ...publisher, taxNumber: '201/113/40209', registration: 'Amtsgericht Leipzig HRB 1' },
      }).issues,
    ).toEqual([]);
    const wrong = validate({ ...complete, bankAccount: { iban: 'de89 3704 0044' } });
    expect(wrong.issues.map((i) => i.pointer)).toContain('/invoice/bankAccount/iban');
  });
});
