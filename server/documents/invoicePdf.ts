/**
 * The invoice PDF of one payment-history entry (portal-core.md §2 "Invoice download", §3 "Payment
 * history item"): the publisher as seller with postal address and VAT id, the
 * billed party (the invoice recipient, else the ordering party), invoice and order numbers, the
 * service period, the lines, net, VAT rate and amount, gross with currency, and "Page n of m" when
 * the lines run over a page. Text is real, embedded Unicode text, so it can be searched and copied.
 * Tagged (pdfWriter.ts): the invoice's title is the heading, the facts, the lines and the totals
 * are tables, so a screen reader reads "Gross EUR: 107,00 €" as a row of a table, not loose words.
 */
import {
  documentWords,
  formatMoney,
  formatPercent,
  type DocumentLocale,
  type DocumentWords,
} from './documentTexts';
import { formatDate } from '../../engine/domain/dates';
import type { ServicePeriod } from './invoiceFigures';
import { invoiceModel, type BilledParty, type InvoiceInput } from './invoiceModel';
import { withFacturX } from './eInvoice';
import {
  CONTENT_WIDTH,
  MARGIN,
  MUTED_COLOR,
  drawHeader,
  facts,
  nextPage,
  rule,
  startPdf,
  within,
  write,
  type PdfPage,
  type TextTag,
} from './pdfWriter';
import { homeRegion } from '../../engine/domain/language';
import { countryName } from '../../engine/domain/countryNames';
import { addressLines as formatAddress } from '../../engine/domain/addressFormat';
import { timeDocument } from '../metrics/registry';

export type { BilledParty, InvoiceInput, InvoiceLine, InvoiceSubscription } from './invoiceModel';

/** A business partner as the store reads it: address lines and house-number suffix sit in `details`. */
type PartnerOnRecord = BilledParty & {
  roles?: readonly string[];
  role?: string;
  details?: Record<string, unknown> | null;
};

/** The address fields a partner keeps in `details` rather than in columns (server/address-change). */
const DETAIL_ADDRESS_FIELDS = ['addressLine1', 'addressLine2', 'addressLine3', 'streetNumberSuffix'] as const;

function withDetails(party: PartnerOnRecord): BilledParty {
  const { roles: _roles, role: _role, details, ...rest } = party;
  const fromDetails: Partial<BilledParty> = {};
  for (const field of DETAIL_ADDRESS_FIELDS) {
    const value = details?.[field];
    if (typeof value === 'string' && rest[field] == null) fromDetails[field] = value;
  }
  return { ...rest, ...fromDetails };
}

/**
 * The invoice recipient (role RE) of the subscription when it has one, else the ordering party,
 * with the whole address the portal shows: after a change on an `address-lines` tenant the street
 * is in the address lines (account-flows.md §5), which the invoice must not drop.
 */
export function billedParty(
  parties: ReadonlyArray<PartnerOnRecord>,
  fallback?: BilledParty,
): BilledParty | undefined {
  const has = (party: { roles?: readonly string[]; role?: string }, role: string) =>
    party.role === role || (party.roles ?? []).includes(role);
  const party = parties.find((p) => has(p, 'RE')) ?? parties.find((p) => has(p, 'AG')) ?? fallback;
  return party ? withDetails(party) : undefined;
}

/**
 * The postal address lines as the portal shows the address (engine/domain/addressFormat.ts): the
 * name, then the free address lines of an `address-lines` tenant or street and house number, then
 * the town in the order of the recipient's country (a UK town comes before its postcode), and the
 * country where it is not the document's.
 */
export function addressLines(party: BilledParty | undefined, locale: DocumentLocale): string[] {
  if (!party) return [];
  const name = party.company1 ?? [party.firstName, party.lastName1].filter(Boolean).join(' ');
  const country =
    party.countryCode && party.countryCode !== homeRegion(locale)
      ? countryName(party.countryCode, locale)
      : '';
  const postal = formatAddress({ ...party, firstName: null, lastName1: null, company1: null });
  return [name, ...postal, country].filter((line) => line.trim() !== '');
}

function periodText(period: ServicePeriod, words: DocumentWords, locale: DocumentLocale): string {
  return period.to
    ? `${formatDate(period.from, locale)} – ${formatDate(period.to, locale)}`
    : words.servicePeriodFrom(formatDate(period.from, locale));
}

const COLUMNS = {
  item: MARGIN,
  period: MARGIN + 235,
  amount: MARGIN + CONTENT_WIDTH - 110,
  amountWidth: 110,
  itemWidth: 225,
  periodWidth: 150,
};

/**
 * The head row of the lines' table; where it is repeated on a following page it is an artifact
 * (the table's structure has its head once).
 */
function tableHead(page: PdfPage, y: number, repeated = false): number {
  const { words } = page;
  const tag: TextTag = repeated ? 'Artifact' : 'TH';
  const head = { size: 10, font: 'bold' as const, tag, scope: 'Column' as const };
  const cells = () => {
    write(page, words.item, COLUMNS.item, y, { ...head, width: COLUMNS.itemWidth });
    write(page, words.servicePeriod, COLUMNS.period, y, { ...head, width: COLUMNS.periodWidth });
    write(page, words.amount, COLUMNS.amount, y, { ...head, width: COLUMNS.amountWidth, align: 'right' });
  };
  if (repeated) cells();
  else within(page, 'TR', cells);
  rule(page, y + 16);
  return y + 24;
}

/**
 * An invoice's PDF, with its Factur-X where the tenant makes one; timed (docs/going-live.md "Operations").
 */
export function invoicePdf(input: InvoiceInput): Promise<Buffer> {
  return timeDocument('invoice_pdf', () => makeInvoicePdf(input));
}

/** The PDF itself, untimed: the document worker runs this (documentWorker.ts times it). */
export async function makeInvoicePdf(input: InvoiceInput): Promise<Buffer> {
  const { tenant, locale, subscription, payment } = input;
  const words = documentWords(locale);
  const model = invoiceModel(input);
  const { number, period, lines } = model;
  // A credit note (the order system's negative invoice) says so and states its amounts positive,
  // as its XML does (eInvoice.ts, type code 381).
  const title = `${model.creditNote ? words.creditNote : words.invoice} ${number}`;
  const sign = model.creditNote ? -1 : 1;
  const { page, finish } = startPdf({ tenant, locale, words, title, compress: input.compress });
  page.footerNote = words.footer;
  const money = (amount: number) => formatMoney(amount, payment.currency, locale);

  let y = drawHeader(page);
  // The billed party on the left (where a window envelope shows it), the invoice's facts on the right.
  const addressTop = y;
  write(page, words.billedTo, MARGIN, y, { size: 8, color: MUTED_COLOR });
  y += 14;
  for (const line of addressLines(input.billedTo, locale))
    y += write(page, line, MARGIN, y, { size: 11, width: 225 });
  const factsEnd = facts(
    page,
    [
      [words.invoiceNumber, number],
      [words.documentNumber, payment.externalDocumentNumber ?? payment.documentId ?? ''],
      [words.invoiceDate, formatDate(payment.date, locale)],
      [words.orderNumber, subscription.orderNumber],
      [words.customerNumber, input.billedTo?.bpNumber ?? ''],
      [words.servicePeriod, periodText(period, words, locale)],
      [words.status, words.statuses[payment.invoiceStatusCode]],
    ],
    MARGIN + 240,
    addressTop,
    115,
    CONTENT_WIDTH - 355,
  );
  y = Math.max(y, factsEnd) + 24;

  y += write(page, title, MARGIN, y, { size: 18, font: 'bold', tag: 'H1' }) + 12;
  within(page, 'Table', () => {
    y = tableHead(page, y);
    const severalRates = model.totals.breakdown.length > 1;
    for (const [index, line] of lines.entries()) {
      // Quantity and unit price where a line has more than one unit; its VAT rate where the
      // invoice has several (the breakdown below names the rates).
      const quantity = line.quantity ?? 1;
      const details = [
        quantity !== 1
          ? words.quantityTimes(
              new Intl.NumberFormat(locale).format(quantity),
              money((sign * line.amount) / quantity),
            )
          : '',
        severalRates ? words.vat(formatPercent(model.totals.lines[index].ratePercent, locale)) : '',
      ].filter(Boolean);
      const description =
        details.length > 0 ? `${line.description}\n${details.join(', ')}` : line.description;
      const needed =
        Math.max(page.doc.fontSize(10).heightOfString(description, { width: COLUMNS.itemWidth }), 14) + 8;
      if (y + needed > page.bottom) {
        // The table goes on over the next page with its head repeated (a long invoice stays readable).
        y = nextPage(page);
        y +=
          write(page, `${title} (${words.continued})`, MARGIN, y, {
            size: 10,
            color: MUTED_COLOR,
            tag: 'Artifact',
          }) + 8;
        y = tableHead(page, y, true);
      }
      const cell = { size: 10, tag: 'TD' as const };
      const h = within(page, 'TR', () =>
        Math.max(
          write(page, description, COLUMNS.item, y, { ...cell, width: COLUMNS.itemWidth }),
          write(page, periodText(line.period, words, locale), COLUMNS.period, y, {
            ...cell,
            width: COLUMNS.periodWidth,
          }),
          write(page, money(sign * line.amount), COLUMNS.amount, y, {
            ...cell,
            width: COLUMNS.amountWidth,
            align: 'right',
          }),
        ),
      );
      y += h + 8;
    }
  });

  // The totals: net + VAT = gross, per VAT rate where the lines have several (invoiceFigures.ts).
  const { totals } = model;
  const vatRows: Array<[string, string, boolean]> = totals.breakdown.map((entry) => {
    const rate = formatPercent(entry.ratePercent, locale);
    const label =
      totals.breakdown.length > 1 ? words.vatBreakdown(rate, money(sign * entry.net)) : words.vat(rate);
    const note =
      entry.category === 'Z'
        ? ` (${words.zeroRated})`
        : entry.category === 'E' && entry.exemptionReason
          ? ` (${entry.exemptionReason})`
          : '';
    return [`${label}${note}`, money(sign * entry.vat), false];
  });
  // What was paid and what is left (BT-113, BT-115), where something was paid that is not all of it.
  const { stated } = model;
  const paymentRows: Array<[string, string, boolean]> =
    stated.prepaid !== 0 && stated.due !== 0
      ? [
          [words.paidAlready, money(stated.prepaid), false],
          stated.due > 0
            ? [words.amountDue, money(stated.due), true]
            : [words.overpaid, money(-stated.due), true],
        ]
      : [];
  const rows: Array<[string, string, boolean]> = [
    [words.net, money(sign * totals.net), false],
    ...vatRows,
    [`${words.gross} ${payment.currency}`, money(stated.gross), true],
    ...paymentRows,
  ];
  if (y + 70 + 16 * rows.length > page.bottom) y = nextPage(page);
  rule(page, y);
  y += 8;
  const labelX = MARGIN + CONTENT_WIDTH - 330;
  within(page, 'Table', () => {
    for (const [label, value, strong] of rows) {
      const style = { size: strong ? 12 : 10, font: strong ? ('bold' as const) : ('regular' as const) };
      within(page, 'TR', () => {
        write(page, label, labelX, y, { ...style, width: 210, tag: 'TH', scope: 'Row' });
        write(page, value, COLUMNS.amount, y, {
          ...style,
          width: COLUMNS.amountWidth,
          align: 'right',
          tag: 'TD',
        });
      });
      y += strong ? 20 : 16;
    }
  });
  // The payment terms (the e-invoice states the same sentences as BT-20).
  y += 12;
  for (const terms of model.paymentTerms) {
    if (y + 30 > page.bottom) y = nextPage(page);
    y += write(page, terms, MARGIN, y, { size: 10, width: CONTENT_WIDTH }) + 4;
  }
  const pdf = await finish();
  // Every invoice is a hybrid ZUGFeRD / Factur-X invoice where the tenant's invoice
  // settings make a valid one (eInvoice.ts); otherwise the plain PDF, and `portal validate` warns.
  return withFacturX(pdf, input, model, title);
}
