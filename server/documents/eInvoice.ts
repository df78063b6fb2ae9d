/**
 * E-invoices (docs/invoices.md): every invoice PDF becomes a hybrid ZUGFeRD / Factur-X invoice, profile
 * EN 16931 ("COMFORT"), and a business customer can download an XRechnung (CII syntax) beside it.
 *
 * Made with @e-invoice-eu/core, a maintained library made for exactly this, rather than by hand:
 * it takes the invoice as UBL-shaped JSON ("internal format"), checks it against its schema, writes
 * the UN/CEFACT CII XML, and turns an existing PDF into PDF/A-3 with the XML attached as
 * `factur-x.xml` (AFRelationship Alternative, the XMP metadata with the Factur-X extension schema,
 * an sRGB output intent). Our pdfkit invoice is that existing PDF; the figures come from the same
 * model (invoiceModel.ts), so what the page shows and what the XML says cannot differ.
 *
 * The library is loaded with the first invoice, not with the server (like pdfkit, pdfWriter.ts):
 * it brings a spreadsheet reader along that most requests never need.
 */
import type { Invoice, InvoiceService as InvoiceServiceType, Logger } from '@e-invoice-eu/core';
import type { InvoiceConfig, Locale } from '../../schemas/generated/tenant';
import { facturXGaps, xRechnungGaps } from '../../tenant/eInvoiceRules';
import { registrationIn, type DocumentTenant } from './documentTenant';
import { streetLine } from '../../engine/domain/addressFormat';
import type { BilledParty, InvoiceInput, InvoiceModel } from './invoiceModel';
import type { VatSplit } from './invoiceFigures';
import { timeDocument } from '../metrics/registry';
import { completeCii, type CiiAdditions } from './ciiCompletion';
import { withXmlText } from './xmlText';
import { finishFacturX } from './facturXPdf';
import { documentWords } from './documentTexts';
import { formatDate } from '../../engine/domain/dates';
import { stderrLog } from '../http/requestLog';

/** The library's names of the two formats (its FormatFactoryService lists them). */
export const FACTUR_X_FORMAT = 'Factur-X-EN16931';
export const XRECHNUNG_FORMAT = 'XRechnung-CII';

/** The parts of the library's invoice type, whose code lists (currency, country, …) are unions. */
type UblInvoice = Invoice['ubl:Invoice'];
type Currency = UblInvoice['cbc:DocumentCurrencyCode'];
type Supplier = UblInvoice['cac:AccountingSupplierParty'];
type Customer = UblInvoice['cac:AccountingCustomerParty'];
type SellerCountry = Supplier['cac:Party']['cac:PostalAddress']['cac:Country']['cbc:IdentificationCode'];
type BuyerCountry = Customer['cac:Party']['cac:PostalAddress']['cac:Country']['cbc:IdentificationCode'];
type Line = UblInvoice['cac:InvoiceLine'][number];
type LineCategory = Line['cac:Item']['cac:ClassifiedTaxCategory'];
type TaxSubtotal = NonNullable<UblInvoice['cac:TaxTotal'][number]['cac:TaxSubtotal']>[number];
type VatCategory = TaxSubtotal['cac:TaxCategory'];

let service: InvoiceServiceType | undefined;

/**
 * An error of the e-invoice step through the server's JSON logger (server/http/requestLog.ts: time
 * and trace id included), on stderr: the documents have no logger handed to them.
 */
function logError(msg: string, fields: Record<string, unknown>): void {
  stderrLog({ level: 'error', msg, ...fields });
}

/** The library logs its progress and its warnings (about code lists, say): only errors are kept. */
const quietLogger: Logger = {
  log: () => undefined,
  warn: () => undefined,
  error: (message) => logError('e-invoice library error', { error: message }),
};

async function invoiceService(): Promise<InvoiceServiceType> {
  if (!service) {
    const { InvoiceService } = await import('@e-invoice-eu/core');
    service = new InvoiceService(quietLogger);
  }
  return service;
}

/** The tenant's settings are complete for an EN 16931 invoice (tenant/eInvoiceRules.ts). */
export function canMakeFacturX(tenant: DocumentTenant): boolean {
  return facturXGaps(tenant.invoice).length === 0;
}

/** The tenant offers the XRechnung and has what it needs. */
export function canMakeXRechnung(tenant: DocumentTenant): boolean {
  return tenant.invoice?.xRechnung === true && xRechnungGaps(tenant.invoice).length === 0;
}

/** A business customer: XRechnung is for invoices to companies (B2B), not to private persons. */
export function isBusiness(party: BilledParty | undefined): boolean {
  return Boolean(party?.company1?.trim());
}

const amount = (value: number) => value.toFixed(2);

/** The VAT category of a line or a breakdown entry (invoiceFigures.ts VatCategory, UNTDID 5305). */
function taxCategory(split: VatSplit): VatCategory & LineCategory {
  return {
    'cbc:ID': split.category,
    'cbc:Percent': String(split.ratePercent),
    'cac:TaxScheme': { 'cbc:ID': 'VAT' },
  };
}

function period(from: string, to: string | null) {
  return to ? { 'cbc:StartDate': from, 'cbc:EndDate': to } : { 'cbc:StartDate': from };
}

function partyName(party: BilledParty | undefined): string {
  const name = party?.company1?.trim() || [party?.firstName, party?.lastName1].filter(Boolean).join(' ');
  // EN 16931 requires the buyer's name (BT-44); an invoice without a billed party is addressed
  // to the order, which the order number identifies.
  return name || '-';
}

function seller(config: InvoiceConfig, locale: Locale): Supplier {
  const publisher = config.publisher!;
  const registration = registrationIn(config, locale);
  const taxSchemes: Supplier['cac:Party']['cac:PartyTaxScheme'] = publisher.vatId
    ? [{ 'cbc:CompanyID': publisher.vatId, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } }]
    : // BT-32, the tax number: a tax scheme other than VAT, which the library writes as schemeID FC.
      [{ 'cbc:CompanyID': publisher.taxNumber!, 'cac:TaxScheme': { 'cbc:ID': 'FC' } }];
  return {
    'cac:Party': {
      ...(publisher.electronicAddress
        ? { 'cbc:EndpointID': publisher.electronicAddress, 'cbc:EndpointID@schemeID': 'EM' as const }
        : {}),
      'cac:PostalAddress': {
        'cbc:StreetName': publisher.street!,
        'cbc:CityName': publisher.city!,
        'cbc:PostalZone': publisher.postalCode!,
        'cac:Country': { 'cbc:IdentificationCode': publisher.countryCode as SellerCountry },
      },
      'cac:PartyTaxScheme': taxSchemes,
      'cac:PartyLegalEntity': {
        'cbc:RegistrationName': publisher.name,
        // The register entry: without a VAT id it is also what identifies the seller (BT-30,
        // BR-CO-26). As additional legal information (BT-33) it is stated whenever the tenant gives
        // it, by completeCii: the library drops CompanyLegalForm (ciiCompletion.ts).
        ...(registration && !publisher.vatId ? { 'cbc:CompanyID': registration } : {}),
      },
      ...(publisher.contact
        ? {
            'cac:Contact': {
              'cbc:Name': publisher.contact.name,
              'cbc:Telephone': publisher.contact.phone,
              'cbc:ElectronicMail': publisher.contact.email,
            },
          }
        : {}),
    },
  };
}

/**
 * The buyer's street as the portal shows the address (engine/domain/addressFormat.ts): the free
 * address lines of an `address-lines` tenant, else street and house number in the country's order.
 * EN 16931 has three lines: BT-50, BT-51 and BT-163 (which takes whatever is left).
 */
function buyerStreet(party: BilledParty | undefined) {
  if (!party) return {};
  const lines = [party.addressLine1, party.addressLine2, party.addressLine3, streetLine(party)]
    .map((line) => line?.trim() ?? '')
    .filter((line) => line !== '');
  const [first, second, ...rest] = lines;
  return {
    ...(first ? { 'cbc:StreetName': first } : {}),
    ...(second ? { 'cbc:AdditionalStreetName': second } : {}),
    ...(rest.length > 0 ? { 'cac:AddressLine': { 'cbc:Line': rest.join(', ') } } : {}),
  };
}

function buyer(party: BilledParty | undefined, fallbackCountry: string): Customer {
  return {
    'cac:Party': {
      ...(party?.emailAddress
        ? { 'cbc:EndpointID': party.emailAddress, 'cbc:EndpointID@schemeID': 'EM' as const }
        : {}),
      ...(party?.bpNumber ? { 'cac:PartyIdentification': { 'cbc:ID': party.bpNumber } } : {}),
      'cac:PostalAddress': {
        ...buyerStreet(party),
        ...(party?.city ? { 'cbc:CityName': party.city } : {}),
        ...(party?.zipcode ? { 'cbc:PostalZone': party.zipcode } : {}),
        // BR-11: the buyer's country is required; a partner without one lives where the publisher does.
        'cac:Country': { 'cbc:IdentificationCode': (party?.countryCode ?? fallbackCountry) as BuyerCountry },
      },
      'cac:PartyLegalEntity': { 'cbc:RegistrationName': partyName(party) },
    },
  };
}

/**
 * The invoice in the library's internal format (UBL element names as JSON keys). The tenant's
 * settings must be complete (canMakeFacturX).
 */
export function eInvoiceData(input: InvoiceInput, model: InvoiceModel): Invoice {
  const config = input.tenant.invoice!;
  const publisher = config.publisher!;
  const currency = model.currency as Currency;
  // The seller's account as before for every invoice, paid or not: XRechnung wants payment
  // instructions in each (BR-DE-1). A credit note pays the buyer, not into the seller's account:
  // its instructions name no account (UNTDID 4461 code 1, "instrument not defined"); the terms
  // say that the amount is refunded.
  const bank = model.creditNote ? undefined : config.bankAccount;
  const { totals, stated } = model;
  // A credit note (type code 381) states its amounts positive: the order system books it negative.
  const sign = model.creditNote ? -1 : 1;
  const signed = (value: number) => amount(sign * value);
  const data: Invoice = {
    'ubl:Invoice': {
      'cbc:ID': model.number,
      'cbc:IssueDate': model.date,
      ...(model.dueDate ? { 'cbc:DueDate': model.dueDate } : {}),
      'cbc:InvoiceTypeCode': model.creditNote ? '381' : '380',
      'cbc:DocumentCurrencyCode': currency,
      // BT-10: XRechnung requires a buyer reference; for a private customer's publisher it is the
      // customer number the invoice prints (else the order number).
      'cbc:BuyerReference': input.billedTo?.bpNumber ?? input.subscription.orderNumber,
      'cac:InvoicePeriod': period(model.period.from, model.period.to),
      'cac:OrderReference': { 'cbc:ID': input.subscription.orderNumber },
      'cac:AccountingSupplierParty': seller(config, input.locale),
      'cac:AccountingCustomerParty': buyer(input.billedTo, publisher.countryCode!),
      // The CII schema requires ram:ApplicableHeaderTradeDelivery (xmllint found it missing), and
      // for this profile the library writes it only from delivery data, never empty. BT-72, the
      // day the supply began, is the service period's first day (BG-14 says the whole period).
      'cac:Delivery': { 'cbc:ActualDeliveryDate': model.period.from },
      ...(bank
        ? {
            'cac:PaymentMeans': [
              {
                // 58: SEPA credit transfer (UNTDID 4461); the remittance information is the invoice number.
                'cbc:PaymentMeansCode': '58',
                'cbc:PaymentID': model.number,
                'cac:PayeeFinancialAccount': {
                  'cbc:ID': bank.iban,
                  'cbc:Name': bank.holder ?? publisher.name,
                  ...(bank.bic ? { 'cac:FinancialInstitutionBranch': { 'cbc:ID': bank.bic } } : {}),
                },
              },
            ],
          }
        : model.creditNote
          ? { 'cac:PaymentMeans': [{ 'cbc:PaymentMeansCode': '1' as const }] }
          : {}),
      'cac:PaymentTerms': { 'cbc:Note': model.paymentTerms.join(' ') },
      'cac:TaxTotal': [
        {
          'cbc:TaxAmount': signed(totals.vat),
          'cbc:TaxAmount@currencyID': currency,
          'cac:TaxSubtotal': totals.breakdown.map((entry) => ({
            'cbc:TaxableAmount': signed(entry.net),
            'cbc:TaxableAmount@currencyID': currency,
            'cbc:TaxAmount': signed(entry.vat),
            'cbc:TaxAmount@currencyID': currency,
            'cac:TaxCategory': {
              ...taxCategory(entry),
              // BR-E-10: an exempt amount says why.
              ...(entry.category === 'E' && entry.exemptionReason
                ? { 'cbc:TaxExemptionReason': entry.exemptionReason }
                : {}),
            },
          })),
        },
      ],
      'cac:LegalMonetaryTotal': {
        'cbc:LineExtensionAmount': signed(totals.net),
        'cbc:LineExtensionAmount@currencyID': currency,
        'cbc:TaxExclusiveAmount': signed(totals.net),
        'cbc:TaxExclusiveAmount@currencyID': currency,
        'cbc:TaxInclusiveAmount': signed(totals.gross),
        'cbc:TaxInclusiveAmount@currencyID': currency,
        // What was paid (BT-113) and what is left (BT-115, BR-CO-16): a paid invoice states the
        // payment as prepaid and nothing due, a partly paid one the part paid and the rest, an
        // overpaid one a negative amount due.
        ...(stated.prepaid !== 0
          ? { 'cbc:PrepaidAmount': amount(stated.prepaid), 'cbc:PrepaidAmount@currencyID': currency }
          : {}),
        'cbc:PayableAmount': amount(stated.due),
        'cbc:PayableAmount@currencyID': currency,
      },
      'cac:InvoiceLine': model.lines.map((line, index): Line => {
        const figures = totals.lines[index];
        const net = sign * figures.net;
        // BR-27: the item's net price is never negative; a line that takes off (a discount in an
        // invoice, a charge in a credit note) has a negative quantity instead.
        const quantity = (line.quantity ?? 1) * (net < 0 ? -1 : 1);
        // BT-146 in whole cents (the library takes two decimals): the net price of one unit where
        // it is one, else of the line's units as the base quantity (BT-149), so that quantity ×
        // price ÷ base quantity is the line's net exactly (BT-131).
        const units = Math.abs(quantity);
        const perUnit = Math.round((Math.abs(net) * 100) / units);
        const exact = perUnit * units === Math.round(Math.abs(net) * 100);
        return {
          'cbc:ID': String(index + 1),
          // Unit "one" (UN/ECE Rec. 20 C62): a subscription period, a copy, a licence.
          'cbc:InvoicedQuantity': String(quantity),
          'cbc:InvoicedQuantity@unitCode': 'C62',
          'cbc:LineExtensionAmount': amount(net),
          'cbc:LineExtensionAmount@currencyID': currency,
          'cac:InvoicePeriod': period(line.period.from, line.period.to),
          'cac:Item': {
            'cbc:Name': line.description,
            'cac:ClassifiedTaxCategory': taxCategory(figures),
          },
          'cac:Price': {
            'cbc:PriceAmount': exact ? amount(perUnit / 100) : amount(Math.abs(net)),
            'cbc:PriceAmount@currencyID': currency,
            ...(exact
              ? {}
              : { 'cbc:BaseQuantity': String(units), 'cbc:BaseQuantity@unitCode': 'C62' as const }),
          },
        };
      }) as [Line, ...Line[]],
    },
  };
  // The order system's words (a line's text, a name, an address) as XML can carry them (xmlText.ts).
  return withXmlText(data);
}

/** What the library leaves out of the XML (ciiCompletion.ts): the order number, the register entry. */
function ciiAdditions(input: InvoiceInput): CiiAdditions {
  return withXmlText({
    orderReference: input.subscription.orderNumber,
    sellerLegalInformation: registrationIn(input.tenant.invoice, input.locale),
  });
}

/** The library's language for the XMP metadata's canned texts ("de-de", "en-gb"). */
const libraryLang = (locale: string) => locale.toLowerCase();

/**
 * The PDF as PDF/A-3 with the EN 16931 CII XML embedded as factur-x.xml; the PDF unchanged where
 * the tenant's settings cannot make a valid e-invoice (portal validate warns about those).
 */
export async function withFacturX(
  pdf: Buffer,
  input: InvoiceInput,
  model: InvoiceModel,
  title: string,
): Promise<Buffer> {
  if (!canMakeFacturX(input.tenant)) return pdf;
  return timeDocument('facturx', () => makeFacturX(pdf, input, model, title));
}

async function makeFacturX(
  pdf: Buffer,
  input: InvoiceInput,
  model: InvoiceModel,
  title: string,
): Promise<Buffer> {
  try {
    const result = await (
      await invoiceService()
    ).generate(eInvoiceData(input, model), {
      format: FACTUR_X_FORMAT,
      lang: libraryLang(input.locale),
      pdf: { buffer: pdf, filename: `${model.number}.pdf`, mimetype: 'application/pdf' },
    });
    const words = documentWords(input.locale);
    return await finishFacturX(result as Uint8Array, {
      title,
      subject: words.pdfSubject(
        title,
        formatDate(model.date, input.locale),
        input.tenant.invoice!.publisher!.name,
      ),
      keyword: model.creditNote ? words.creditNote : words.invoice,
      locale: input.locale,
      completeXml: (xml) => completeCii(xml, ciiAdditions(input)),
    });
  } catch (error) {
    // The subscriber still gets the invoice they asked for: a data edge the library refuses (its
    // schema's code lists, say) costs the embedded e-invoice, not the download. Logged so the
    // operator sees it; the tests assert the attachment, so it cannot go missing unnoticed there.
    logError('invoice served without factur-x.xml', { invoice: model.number, error: String(error) });
    return pdf;
  }
}

/** The XRechnung (CII syntax) of an invoice; the caller checks canMakeXRechnung and isBusiness. */
export function xRechnungXml(input: InvoiceInput, model: InvoiceModel): Promise<string> {
  return timeDocument('xrechnung', () => makeXRechnungXml(input, model));
}

/** The XRechnung itself, untimed: the document worker runs this (documentWorker.ts times it). */
export async function makeXRechnungXml(input: InvoiceInput, model: InvoiceModel): Promise<string> {
  const result = await (
    await invoiceService()
  ).generate(eInvoiceData(input, model), { format: XRECHNUNG_FORMAT, lang: libraryLang(input.locale) });
  return completeCii(result as string, ciiAdditions(input));
}
