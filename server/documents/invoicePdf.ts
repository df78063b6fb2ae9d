/**
 * The invoice PDF of one payment-history entry (portal-core.md §2 "Invoice download", §3 "Payment
 * history item"; issue 14, finding 7): the publisher as seller with postal address and VAT id, the
 * billed party (the invoice recipient, else the ordering party), invoice and order numbers, the
 * service period, the lines, net, VAT rate and amount, gross with currency, and "Page n of m" when
 * the lines run over a page. Text is real, embedded Unicode text, so it can be searched and copied.
 */
import type { BusinessPartnerSummary, Subscription } from '../../schemas/generated/subscription';
import type { PaymentHistoryItem } from '../../schemas/generated/subscription-page';
import {
  documentWords,
  formatMoney,
  formatPercent,
  type DocumentLocale,
  type DocumentWords,
} from './documentTexts';
import { formatDate } from '../../engine/domain/dates';
import type { DocumentTenant } from './documentTenant';
import { servicePeriod, splitGross, vatRateFor, type ServicePeriod } from './invoiceFigures';
import {
  CONTENT_WIDTH,
  MARGIN,
  MUTED_COLOR,
  drawHeader,
  facts,
  nextPage,
  rule,
  startPdf,
  write,
  type PdfPage,
} from './pdfWriter';
import { homeRegion } from '../../engine/domain/language';

/** The party an invoice is addressed to: name and postal address (BusinessPartnerSummary). */
export type BilledParty = Pick<
  BusinessPartnerSummary,
  | 'bpNumber'
  | 'firstName'
  | 'lastName1'
  | 'company1'
  | 'street'
  | 'streetNumber'
  | 'zipcode'
  | 'city'
  | 'countryCode'
>;

export interface InvoiceLine {
  description: string;
  period: ServicePeriod;
  /** Gross amount of the line. */
  amount: number;
}

export type InvoiceSubscription = Pick<
  Subscription,
  'displayName' | 'publication' | 'publicationName' | 'orderNumber' | 'billingFrequency' | 'validToOnSaleDate'
>;

export interface InvoiceInput {
  tenant: DocumentTenant;
  locale: DocumentLocale;
  subscription: InvoiceSubscription;
  payment: PaymentHistoryItem;
  billedTo: BilledParty | undefined;
  /** The lines; by default one line, the subscription over the payment's billing cycle. */
  lines?: InvoiceLine[];
  compress?: boolean;
}

/** The invoice recipient (role RE) of the subscription when it has one, else the ordering party. */
export function billedParty(
  parties: ReadonlyArray<BilledParty & { roles?: readonly string[]; role?: string }>,
  fallback?: BilledParty,
): BilledParty | undefined {
  const has = (party: { roles?: readonly string[]; role?: string }, role: string) =>
    party.role === role || (party.roles ?? []).includes(role);
  return parties.find((party) => has(party, 'RE')) ?? parties.find((party) => has(party, 'AG')) ?? fallback;
}

/** The postal address lines, in the order of the recipient's country (a UK town comes before its postcode). */
export function addressLines(party: BilledParty | undefined, locale: DocumentLocale): string[] {
  if (!party) return [];
  const name = party.company1 ?? [party.firstName, party.lastName1].filter(Boolean).join(' ');
  const street = [party.street, party.streetNumber].filter(Boolean).join(' ');
  const uk = party.countryCode === 'GB';
  const place = uk
    ? [party.city ?? '', party.zipcode ?? '']
    : [[party.zipcode, party.city].filter(Boolean).join(' ')];
  const country =
    party.countryCode && party.countryCode !== homeRegion(locale)
      ? (new Intl.DisplayNames([locale], { type: 'region' }).of(party.countryCode) ?? party.countryCode)
      : '';
  return [name, street, ...place, country].filter((line) => line.trim() !== '');
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

function tableHead(page: PdfPage, y: number): number {
  const { words } = page;
  write(page, words.item, COLUMNS.item, y, { size: 10, font: 'bold', width: COLUMNS.itemWidth });
  write(page, words.servicePeriod, COLUMNS.period, y, { size: 10, font: 'bold', width: COLUMNS.periodWidth });
  write(page, words.amount, COLUMNS.amount, y, {
    size: 10,
    font: 'bold',
    width: COLUMNS.amountWidth,
    align: 'right',
  });
  rule(page, y + 16);
  return y + 24;
}

export async function invoicePdf(input: InvoiceInput): Promise<Buffer> {
  const { tenant, locale, subscription, payment } = input;
  const words = documentWords(locale);
  const number = payment.invoiceNumber ?? payment.id;
  const title = `${words.invoice} ${number}`;
  const { page, finish } = startPdf({ tenant, locale, words, title, compress: input.compress });
  page.footerNote = words.footer;
  const money = (amount: number) => formatMoney(amount, payment.currency, locale);
  const period = servicePeriod(payment.date, subscription.billingFrequency, subscription.validToOnSaleDate);
  const lines = input.lines ?? [{ description: subscription.displayName, period, amount: payment.amount }];

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

  y += write(page, title, MARGIN, y, { size: 18, font: 'bold' }) + 12;
  y = tableHead(page, y);
  for (const line of lines) {
    const description = line.description;
    const needed =
      Math.max(page.doc.fontSize(10).heightOfString(description, { width: COLUMNS.itemWidth }), 14) + 8;
    if (y + needed > page.bottom) {
      // The table goes on over the next page with its head repeated (a long invoice stays readable).
      y = nextPage(page);
      y += write(page, `${title} (${words.continued})`, MARGIN, y, { size: 10, color: MUTED_COLOR }) + 8;
      y = tableHead(page, y);
    }
    const h = Math.max(
      write(page, description, COLUMNS.item, y, { size: 10, width: COLUMNS.itemWidth }),
      write(page, periodText(line.period, words, locale), COLUMNS.period, y, {
        size: 10,
        width: COLUMNS.periodWidth,
      }),
      write(page, money(line.amount), COLUMNS.amount, y, {
        size: 10,
        width: COLUMNS.amountWidth,
        align: 'right',
      }),
    );
    y += h + 8;
  }

  // The totals: net + VAT = gross, the split of invoiceFigures.ts.
  const gross = lines.reduce((sum, line) => sum + Math.round(line.amount * 100), 0) / 100;
  const split = splitGross(gross, vatRateFor(tenant.invoice, subscription.publication));
  const rate = formatPercent(split.ratePercent, locale);
  const totals: Array<[string, string, boolean]> = [
    [words.net, money(split.net), false],
    [
      split.ratePercent === 0 ? `${words.vat(rate)} (${words.zeroRated})` : words.vat(rate),
      money(split.vat),
      false,
    ],
    [`${words.gross} ${payment.currency}`, money(split.gross), true],
  ];
  if (y + 90 > page.bottom) y = nextPage(page);
  rule(page, y);
  y += 8;
  const labelX = MARGIN + CONTENT_WIDTH - 330;
  for (const [label, value, strong] of totals) {
    const style = { size: strong ? 12 : 10, font: strong ? ('bold' as const) : ('regular' as const) };
    write(page, label, labelX, y, { ...style, width: 210 });
    write(page, value, COLUMNS.amount, y, { ...style, width: COLUMNS.amountWidth, align: 'right' });
    y += strong ? 20 : 16;
  }
  return finish();
}
