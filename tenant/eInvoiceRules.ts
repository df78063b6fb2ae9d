/**
 * What a tenant's `invoice` section lacks for an e-invoice (docs/invoices.md "E-invoices"). The
 * invoice PDF embeds an EN 16931 (Factur-X / ZUGFeRD "EN 16931") invoice only when the seller's
 * data is complete, and the XRechnung download needs more (the German CIUS's BR-DE rules). The same
 * list serves `portal validate` (so an operator learns it before a customer receives a plain PDF)
 * and the server (which embeds nothing rather than an invoice the receiver's validator would
 * reject).
 */
import type { Problem } from './schemaErrors';

type Loose = Record<string, unknown>;

function record(value: unknown): Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Loose) : {};
}
function given(value: unknown): boolean {
  return typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null;
}

export interface EInvoiceGap {
  /** JSON pointer of the missing setting. */
  pointer: string;
  /** What the e-invoice needs it for (the EN 16931 business term or rule). */
  needs: string;
  example: string;
}

/** The seller data every EN 16931 invoice of the portal needs (BG-4, BG-5, BR-S-02 / BR-Z-02). */
export function facturXGaps(invoice: unknown): EInvoiceGap[] {
  const publisher = record(record(invoice).publisher);
  const at = (key: string) => `/invoice/publisher/${key}`;
  const gaps: EInvoiceGap[] = [];
  if (!given(publisher.name))
    gaps.push({
      pointer: at('name'),
      needs: 'seller name (BT-27)',
      example: '"name": "Stadtkurier Verlag GmbH"',
    });
  if (!given(publisher.street))
    gaps.push({
      pointer: at('street'),
      needs: 'seller street (BT-35)',
      example: '"street": "Maximilianstraße 12"',
    });
  if (!given(publisher.postalCode))
    gaps.push({
      pointer: at('postalCode'),
      needs: 'seller postal code (BT-38)',
      example: '"postalCode": "86150"',
    });
  if (!given(publisher.city))
    gaps.push({ pointer: at('city'), needs: 'seller city (BT-37)', example: '"city": "Augsburg"' });
  if (!given(publisher.countryCode))
    gaps.push({
      pointer: at('countryCode'),
      needs: 'seller country (BT-40, BR-9)',
      example: '"countryCode": "DE"',
    });
  if (!given(publisher.vatId) && !given(publisher.taxNumber))
    gaps.push({
      pointer: at('vatId'),
      needs: 'seller VAT id or tax number (BT-31 / BT-32, BR-S-02)',
      example: '"vatId": "DE811234567" or "taxNumber": "201/113/40209"',
    });
  // Without a VAT id the buyer's system identifies the seller by its register entry (BR-CO-26:
  // BT-29, BT-30 or BT-31); the EN 16931 schematron refused a tax number alone.
  else if (!given(publisher.vatId) && !given(publisher.registration))
    gaps.push({
      pointer: at('registration'),
      needs: 'seller register entry, which identifies a seller without a VAT id (BT-30, BR-CO-26)',
      example: '"registration": "Amtsgericht Augsburg HRB 12345"',
    });
  return gaps;
}

/** What an XRechnung needs beyond that (BR-DE-1, BR-DE-2, BR-DE-5 to 7, BR-DE-23, BT-34). */
export function xRechnungGaps(invoice: unknown): EInvoiceGap[] {
  const section = record(invoice);
  const publisher = record(section.publisher);
  const gaps = facturXGaps(invoice);
  if (!given(publisher.electronicAddress))
    gaps.push({
      pointer: '/invoice/publisher/electronicAddress',
      needs: 'seller electronic address (BT-34)',
      example: '"electronicAddress": "rechnungen@stadtkurier.example"',
    });
  if (!given(publisher.contact))
    gaps.push({
      pointer: '/invoice/publisher/contact',
      needs: 'seller contact with name, phone and e-mail (BG-6, BR-DE-2)',
      example:
        '"contact": { "name": "Leserservice", "phone": "+49 821 4567 100", "email": "leserservice@stadtkurier.example" }',
    });
  if (!given(section.bankAccount))
    gaps.push({
      pointer: '/invoice/bankAccount',
      needs: 'payment instructions with the IBAN (BG-16, BR-DE-1, BR-DE-23)',
      example: '"bankAccount": { "iban": "DE02120300000000202051" }',
    });
  return gaps;
}

/** Where a gap's value goes, as a hint names it: the invoice section or its publisher's. */
function sectionOf(pointer: string): string {
  return pointer.startsWith('/invoice/publisher/')
    ? "the invoice's publisher section"
    : 'the invoice section';
}

/**
 * The validator's view: with `xRechnung` on, every gap is an error (the tenant offers a download it
 * cannot make); otherwise, for a tenant that names its publisher, the gaps are warnings (the
 * invoices are still printed, as plain PDFs without the embedded e-invoice).
 */
export function eInvoiceProblems(tenant: unknown): { errors: Problem[]; warnings: Problem[] } {
  const invoice = record(tenant).invoice;
  const section = record(invoice);
  if (section.xRechnung === true) {
    return {
      errors: xRechnungGaps(invoice).map((gap) => ({
        pointer: gap.pointer,
        at: 'key',
        message: `"xRechnung" is on, but the XRechnung needs the ${gap.needs}`,
        hint: `add ${gap.example} to ${sectionOf(gap.pointer)}, or set "xRechnung": false`,
      })),
      warnings: [],
    };
  }
  if (!given(section.publisher)) {
    // An invoice the portal issues names its seller from this section (docs/invoices.md "Invoices
    // and documents"); without it, only by the tenant's name and contact.
    const features = record(tenant).features;
    const issuesInvoices = Array.isArray(features) && features.includes('invoice-download');
    return {
      errors: [],
      warnings: issuesInvoices
        ? [
            {
              pointer: '/features',
              at: 'value',
              message:
                '"invoice-download" is on, but there is no "invoice" section: the invoices name the seller by the tenant\'s name only, without its postal address and VAT id, which an invoice must carry, and with no e-invoice',
              hint: 'add "invoice": { "publisher": { "name": …, "addressLines": [the postal address, one line each], "street": …, "postalCode": …, "city": …, "countryCode": "DE", "vatId": … } } (docs/invoices.md "E-invoices (ZUGFeRD / Factur-X, XRechnung)")',
            },
          ]
        : [],
    };
  }
  return {
    errors: [],
    warnings: facturXGaps(invoice).map((gap) => ({
      pointer: gap.pointer,
      at: 'key',
      message: `the invoices are plain PDFs without an e-invoice (ZUGFeRD / Factur-X, EN 16931): the ${gap.needs} is missing`,
      hint: `add ${gap.example} to ${sectionOf(gap.pointer)}`,
    })),
  };
}
