/**
 * The words printed on the PDFs, in the subscriber's language: the Accept-Language the screens send
 * or `?lang=` (server/tenancy/requestLocale.ts), else the tenant's default. The words are
 * server/texts/<locale>/documents.json, read through the server's i18next (server/texts/serverTexts.ts).
 */
import { formatMoney as formatAmount } from '../../engine/domain/money';
import type { Locale } from '../../engine/domain/locales';
import { textsIn } from '../texts/serverTexts';

export type DocumentLocale = Locale;

export interface DocumentWords {
  invoice: string;
  invoiceNumber: string;
  documentNumber: string;
  invoiceDate: string;
  orderNumber: string;
  customerNumber: string;
  billedTo: string;
  seller: string;
  vatId: string;
  item: string;
  servicePeriod: string;
  servicePeriodFrom: (from: string) => string;
  amount: string;
  net: string;
  vat: (rate: string) => string;
  gross: string;
  zeroRated: string;
  status: string;
  statuses: Record<'A' | 'T' | 'O' | 'U', string>;
  footer: string;
  page: (page: number, pages: number) => string;
  issue: string;
  onSale: string;
  issueFooter: string;
  article: string;
  articleNumber: string;
  purchaseDate: string;
  quantity: string;
  articleFooter: string;
  giftCertificate: string;
  giftFor: string;
  validFrom: string;
  continued: string;
  /** Payment terms (the same sentence is the e-invoice's BT-20). */
  paidOn: (date: string) => string;
  payableBy: (date: string) => string;
  payableTo: (iban: string) => string;
  /** A VAT row of an invoice with several rates: "VAT 19 % on 10,00 €". */
  vatBreakdown: (rate: string, net: string) => string;
  /** A negative invoice of the order system (EN 16931 type code 381). */
  creditNote: string;
  /** The totals of a part payment or an overpayment (BT-113, BT-115). */
  paidAlready: string;
  amountDue: string;
  overpaid: string;
  partlyPaid: (paid: string, due: string, date: string) => string;
  overpaidTerms: (amount: string) => string;
  partPaymentsCredited: string;
  refund: (amount: string) => string;
  refundedOn: (date: string) => string;
  /** A line of more than one unit: "3 × 12,00 €". */
  quantityTimes: (quantity: string, price: string) => string;
  /** A PDF's subject in its document information and XMP: "Rechnung 9000001234 vom 14.11.2026, ausgestellt von …". */
  pdfSubject: (title: string, date: string, seller: string) => string;
}

const WORD_KEYS = [
  'invoice',
  'invoiceNumber',
  'documentNumber',
  'invoiceDate',
  'orderNumber',
  'customerNumber',
  'billedTo',
  'seller',
  'vatId',
  'item',
  'servicePeriod',
  'amount',
  'net',
  'gross',
  'zeroRated',
  'status',
  'footer',
  'issue',
  'onSale',
  'issueFooter',
  'article',
  'articleNumber',
  'purchaseDate',
  'quantity',
  'articleFooter',
  'giftCertificate',
  'giftFor',
  'validFrom',
  'continued',
  'creditNote',
  'paidAlready',
  'amountDue',
  'overpaid',
  'partPaymentsCredited',
] as const;

/** The words of the PDFs in `locale`, in the shape the renderers use. */
export function documentWords(locale: DocumentLocale): DocumentWords {
  const t = textsIn(locale, 'documents');
  const words = Object.fromEntries(WORD_KEYS.map((key) => [key, t(key)])) as Record<
    (typeof WORD_KEYS)[number],
    string
  >;
  return {
    ...words,
    servicePeriodFrom: (from) => t('servicePeriodFrom', { from }),
    vat: (rate) => t('vat', { rate }),
    page: (page, pages) => t('page', { page, pages }),
    paidOn: (date) => t('paidOn', { date }),
    payableBy: (date) => t('payableBy', { date }),
    payableTo: (iban) => t('payableTo', { iban }),
    vatBreakdown: (rate, net) => t('vatBreakdown', { rate, net }),
    partlyPaid: (paid, due, date) => t('partlyPaid', { paid, due, date }),
    overpaidTerms: (amount) => t('overpaidTerms', { amount }),
    refund: (amount) => t('refund', { amount }),
    refundedOn: (date) => t('refundedOn', { date }),
    quantityTimes: (quantity, price) => t('quantityTimes', { quantity, price }),
    pdfSubject: (title, date, seller) => t('pdfSubject', { title, date, seller }),
    statuses: { A: t('status.A'), T: t('status.T'), O: t('status.O'), U: t('status.U') },
  };
}

export function formatMoney(amount: number, currency: string, locale: DocumentLocale): string {
  return formatAmount(amount, currency, locale);
}

export function formatPercent(percent: number, locale: DocumentLocale): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(percent / 100);
}
