/**
 * The PDFs rendered with pdfkit and read back with pdf.js: what the invoice
 * must say (seller with address and VAT id, billed party, service period, net / VAT / gross with
 * currency), the language, page numbers on a long invoice, names outside Latin-1, and the other
 * documents keeping their content.
 */
import { describe, expect, it } from 'vitest';
import {
  billedParty,
  giftCertificatePdf,
  invoicePdf,
  issuePdf,
  pendingOrderPdf,
  purchaseOrderPdf,
} from '../../../server/documents/documents';
import type { DocumentTenant } from '../../../server/documents/documentTenant';
import type { InvoiceInput, InvoiceLine } from '../../../server/documents/invoicePdf';
import type { Subscription } from '../../../schemas/generated/subscription';
import { pdfText } from './pdfText';

const SVG_LOGO =
  "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20width='190'%20height='40'%3E%3Ctext%20x='0'%20y='30'%20font-family='Georgia,serif'%20font-size='28'%20fill='%231b3a6b'%3ELogotext%3C/text%3E%3C/svg%3E";

function makeTenant(overrides: Partial<DocumentTenant> = {}): DocumentTenant {
  return {
    name: 'Stadtkurier',
    defaultLocale: 'de-DE',
    logoUrl: SVG_LOGO,
    themeTokens: { colors: { primary: '#1b3a6b' } },
    contact: {
      email: 'leserservice@stadtkurier.example',
      fallbackEmail: 'leserservice@stadtkurier.example',
      fallbackPhone: '+49 821 4567 100',
    },
    invoice: {
      publisher: {
        name: 'Stadtkurier Verlag GmbH',
        addressLines: ['Maximilianstraße 12', '86150 Augsburg'],
        vatId: 'DE811234567',
      },
      vatRatePercent: 7,
    },
    ...overrides,
  };
}

const subscription = {
  displayName: 'Stadtkurier Print Vollabo',
  publication: 'SKA',
  publicationName: 'Stadtkurier',
  orderNumber: '1234567890',
  billingFrequency: '03',
  validToOnSaleDate: null,
};

const payment = {
  id: 'P-1',
  date: '2026-01-01',
  amount: 107,
  currency: 'EUR',
  invoiceStatusCode: 'A' as const,
  invoiceNumber: '9000001234',
  externalDocumentNumber: 'RE2026-001234',
  documentId: 'DOC-9000001234',
};

const UNICODE_NAME = { first: 'Zoë', last: 'Ødegård-Łukasiewicz 李' };
const billedTo = {
  bpNumber: '1000000042',
  firstName: UNICODE_NAME.first,
  lastName1: UNICODE_NAME.last,
  company1: null,
  street: 'Hauptstraße',
  streetNumber: '5',
  zipcode: '86150',
  city: 'Augsburg',
  countryCode: 'DE',
};

function render(overrides: Partial<InvoiceInput> = {}) {
  return invoicePdf({ tenant: makeTenant(), locale: 'de-DE', subscription, payment, billedTo, ...overrides });
}

describe('invoice PDF', () => {
  it('is a PDF whose text names the publisher with postal address and VAT id, and the billed party', async () => {
    const pdf = await render();
    expect(pdf.subarray(0, 8).toString('latin1')).toBe('%PDF-1.7');
    const { text, pages } = await pdfText(pdf);
    expect(pages).toHaveLength(1);
    expect(text).toContain('Stadtkurier Verlag GmbH');
    expect(text).toContain('Maximilianstraße 12');
    expect(text).toContain('86150 Augsburg');
    expect(text).toContain('USt-IdNr. DE811234567');
    expect(text).toContain('Rechnungsempfänger');
    expect(text).toContain('Hauptstraße 5');
    expect(text).toContain('Kundennummer 1000000042');
  });

  it('keeps a name outside Latin-1 intact for search and copy, Chinese included', async () => {
    const { text } = await pdfText(await render());
    // pdf.js may put a space between the runs of the two fonts; the characters themselves must all survive.
    expect(text.replace(/\s+/g, '')).toContain('ZoëØdegård-Łukasiewicz李');
    expect(text).not.toContain('?');
  });

  it('prints the service period of the billing cycle, and net, VAT rate and amount and gross with currency', async () => {
    const { text } = await pdfText(await render());
    expect(text).toContain('Leistungszeitraum 01.01.2026 – 31.03.2026');
    expect(text).toContain('Nettobetrag 100,00 €');
    expect(text).toContain('Umsatzsteuer 7 % 7,00 €');
    expect(text).toContain('Gesamtbetrag (brutto) EUR 107,00 €');
    expect(text).toContain('Rechnungsnummer 9000001234');
    expect(text).toContain('Auftragsnummer 1234567890');
  });

  /** A UK publisher with zero-rated VAT, its invoice section extended by `publisher`. */
  const ukTenant = (
    publisher: Partial<NonNullable<NonNullable<DocumentTenant['invoice']>['publisher']>> = {},
  ) =>
    makeTenant({
      name: 'The Northern Review',
      defaultLocale: 'en-GB',
      invoice: {
        publisher: {
          name: 'Northern Review Publishing Ltd',
          addressLines: ['14 Deansgate', 'Manchester', 'M3 2BQ'],
          vatId: 'GB123456789',
          ...publisher,
        },
        vatRatePercent: 0,
      },
    });

  it('speaks English when asked, with a zero-rated VAT line for a UK publisher', async () => {
    const tenant = ukTenant();
    const pdf = await invoicePdf({
      tenant,
      locale: 'en-GB',
      subscription: { ...subscription, billingFrequency: '12' },
      payment: { ...payment, currency: 'GBP', amount: 59.5 },
      billedTo: {
        ...billedTo,
        street: 'Deansgate',
        streetNumber: '1',
        city: 'Manchester',
        zipcode: 'M3 2BQ',
        countryCode: 'GB',
      },
    });
    const { text, title } = await pdfText(pdf);
    expect(title).toBe('Invoice 9000001234');
    expect(text).toContain('Billed to');
    expect(text).toContain('VAT no. GB123456789');
    expect(text).toContain('Service period 1 Jan 2026 – 31 Dec 2026');
    expect(text).toContain('Net amount £59.50');
    expect(text).toContain('VAT 0% (zero-rated) £0.00');
    expect(text).toContain('Total (gross) GBP £59.50');
    expect(text).toContain('Page 1 of 1');
    // A UK address: town, then postcode (no country line for a domestic address).
    expect(text).toContain('Manchester M3 2BQ');
    expect(text).not.toContain('Rechnung');
  });

  it("names the seller's country in the document's language, from the address parts the e-invoice states", async () => {
    const tenant = makeTenant({
      invoice: {
        publisher: {
          name: 'Stadtkurier Verlag GmbH',
          addressLines: ['Maximilianstraße 12', '86150 Augsburg', 'Deutschland'],
          street: 'Maximilianstraße 12',
          postalCode: '86150',
          city: 'Augsburg',
          countryCode: 'DE',
          vatId: 'DE811234567',
        },
        vatRatePercent: 7,
      },
    });
    const english = (await pdfText(await render({ tenant, locale: 'en-GB' }))).text;
    // The header and the footer's seller line.
    expect(english.match(/Maximilianstraße 12/g)).toHaveLength(2);
    expect(english.match(/Germany/g)?.length).toBeGreaterThanOrEqual(2);
    expect(english).not.toContain('Deutschland');
    const german = (await pdfText(await render({ tenant }))).text;
    expect(german).toContain('86150 Augsburg, Deutschland');
    expect(german).not.toContain('Germany');
    // A line the parts do not say stays, before them.
    const withCareOf = makeTenant({
      invoice: {
        ...tenant.invoice,
        publisher: {
          ...tenant.invoice!.publisher!,
          addressLines: ['c/o Druckhaus Schwaben', ...tenant.invoice!.publisher!.addressLines],
        },
      },
    });
    expect((await pdfText(await render({ tenant: withCareOf }))).text).toContain(
      'c/o Druckhaus Schwaben, Maximilianstraße 12, 86150 Augsburg, Deutschland',
    );
    // Three invoices made and read: more than the default five seconds on a busy machine.
  }, 30_000);

  it("prints the register entry in the document's language where the tenant gives it per locale", async () => {
    const tenant = ukTenant({
      registration: {
        'en-GB': 'Registered in England and Wales, company no. 01234567',
        'de-DE': 'Eingetragen in England und Wales, Gesellschaftsnummer 01234567',
      },
    });
    const input = { tenant, subscription, payment: { ...payment, currency: 'GBP' }, billedTo };
    const german = (await pdfText(await invoicePdf({ ...input, locale: 'de-DE' }))).text;
    expect(german).toContain('Eingetragen in England und Wales, Gesellschaftsnummer 01234567');
    expect(german).not.toContain('Registered');
    const english = (await pdfText(await invoicePdf({ ...input, locale: 'en-GB' }))).text;
    expect(english).toContain('Registered in England and Wales, company no. 01234567');
  });

  it('uses German labels for a German subscriber of the same tenant', async () => {
    const { text, title } = await pdfText(await render());
    expect(title).toBe('Rechnung 9000001234');
    expect(text).toContain('Seite 1 von 1');
    expect(text).not.toContain('Invoice');
  });

  it('numbers the pages of a long invoice and repeats the table head', async () => {
    const lines: InvoiceLine[] = Array.from({ length: 60 }, (_, i) => ({
      description: `Ausgabe ${i + 1} Sonderheft`,
      period: { from: '2026-01-01', to: '2026-01-31' },
      amount: 1.07,
    }));
    const { pages, text } = await pdfText(await render({ lines }));
    expect(pages.length).toBeGreaterThanOrEqual(2);
    pages.forEach((page, i) => expect(page).toContain(`Seite ${i + 1} von ${pages.length}`));
    expect(pages[1]).toContain('Leistung Leistungszeitraum Betrag');
    expect(pages[1]).toContain('(Fortsetzung)');
    expect(text).toContain('Ausgabe 60 Sonderheft');
    // 60 × 1.07 = 64.20 gross; net 60.00, VAT 4.20.
    expect(text).toContain('Nettobetrag 60,00 €');
    expect(text).toContain('Gesamtbetrag (brutto) EUR 64,20 €');
  });

  it('draws the SVG logo as text of an embedded font, and the tenant name when there is no drawable logo', async () => {
    expect((await pdfText(await render())).text).toContain('Logotext');
    const remote = await invoicePdf({
      tenant: makeTenant({ logoUrl: 'https://cdn.example/logo.png' }),
      locale: 'de-DE',
      subscription,
      payment,
      billedTo,
    });
    expect((await pdfText(remote)).text.startsWith('Stadtkurier')).toBe(true);
  });

  it("draws the brand rule and, without a logo, the tenant's name in the tenant's primary colour", async () => {
    const tenant = makeTenant({ logoUrl: undefined, themeTokens: { colors: { primary: '#7a1f2b' } } });
    const raw = (
      await invoicePdf({ tenant, locale: 'de-DE', subscription, payment, billedTo, compress: false })
    ).toString('latin1');
    // #7a1f2b as pdfkit writes a fill colour: 0x7a/255, 0x1f/255, 0x2b/255.
    expect(raw).toMatch(/0\.4784\d* 0\.1215\d* 0\.1686\d* scn/);
  });

  it('renders without an invoice section in the tenant file: 7 % by default, the tenant name as seller', async () => {
    const { text } = await pdfText(
      await invoicePdf({
        tenant: makeTenant({ invoice: undefined }),
        locale: 'de-DE',
        subscription,
        payment,
        billedTo: undefined,
      }),
    );
    expect(text).toContain('Umsatzsteuer 7 % 7,00 €');
    expect(text).not.toContain('USt-IdNr.');
  });
});

describe('billed party', () => {
  const party = (bpNumber: string, roles: string[]) => ({ ...billedTo, bpNumber, roles });
  it('is the invoice recipient when the subscription has one, else the ordering party', () => {
    expect(billedParty([party('1', ['AG', 'WE']), party('2', ['RE'])])?.bpNumber).toBe('2');
    expect(billedParty([party('1', ['WE']), party('3', ['AG'])])?.bpNumber).toBe('3');
    expect(billedParty([], party('9', ['AG']))?.bpNumber).toBe('9');
  });
});

describe('the other documents', () => {
  const sub = {
    ...subscription,
    validFromOnSaleDate: '2026-02-01',
    goodsRecipient: { ...billedTo, role: 'WE', salutationCode: null },
  } as unknown as Subscription;

  it('keeps the content of the issue PDF, in the language asked for', async () => {
    const issue = {
      issue: 'I-1',
      issueNumber: '2026-05',
      description: 'Ausgabe 5/2026',
      dateOfFirstSale: '2026-03-01',
      downloadStatus: 'found' as const,
    };
    const de = await pdfText(await issuePdf(makeTenant(), 'de-DE', sub, issue));
    expect(de.text).toContain('Stadtkurier – Ausgabe 2026-05');
    expect(de.text).toContain('Erscheinungstag 01.03.2026');
    expect(de.text).toContain('Seite 1 von 1');
    const en = await pdfText(await issuePdf(makeTenant(), 'en-GB', sub, issue));
    expect(en.text).toContain('On sale 1 Mar 2026');
    expect(en.text).toContain('E-paper for personal use.');
  });

  it('keeps the content of the purchase order and the pending order', async () => {
    const order = {
      distributionArticleDescription: 'Kochbuch „Großstadtküche“',
      distributionArticleNumber: 'ART-77',
      purchaseOrderNumber: 'PO-123',
      dateOfPurchaseOrderClient: '2026-02-14',
      quantity: 2,
    } as unknown as Parameters<typeof purchaseOrderPdf>[2];
    const po = await pdfText(await purchaseOrderPdf(makeTenant(), 'de-DE', order));
    expect(po.text).toContain('Artikelnummer ART-77');
    expect(po.text).toContain('Kochbuch „Großstadtküche“');
    expect(po.text).toContain('Menge 2');
    const pending = {
      title: 'E-Book Łódź',
      articleNumber: 'EB-1',
      orderNumber: '55',
      orderDate: '2026-02-15',
    } as unknown as Parameters<typeof pendingOrderPdf>[2];
    const file = await pdfText(await pendingOrderPdf(makeTenant(), 'en-GB', pending));
    expect(file.text).toContain('Article number EB-1');
    expect(file.text).toContain('E-Book Łódź');
    expect(file.text).toContain('Purchase date 15 Feb 2026');
  });

  it('names the recipient on the gift certificate', async () => {
    const { text } = await pdfText(await giftCertificatePdf(makeTenant(), 'de-DE', sub));
    expect(text).toContain('Geschenkgutschein');
    expect(text.replace(/\s+/g, '')).toContain('FürZoëØdegård-Łukasiewicz李');
    expect(text).toContain('Gültig ab 01.02.2026');
  });
});
