/**
 * The words printed on the PDFs, in the two languages of the portal (DESIGN.md: de-DE and en-GB).
 * The PDFs are made on the server, outside the screens' i18n, so their words live here with the
 * renderer. The language is the subscriber's: the Accept-Language the screens send or `?lang=`
 * (server/tenancy/requestLocale.ts), else the tenant's default.
 */
export type DocumentLocale = 'de-DE' | 'en-GB';

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
}

export const DOCUMENT_WORDS: Record<DocumentLocale, DocumentWords> = {
  'de-DE': {
    invoice: 'Rechnung',
    invoiceNumber: 'Rechnungsnummer',
    documentNumber: 'Belegnummer',
    invoiceDate: 'Rechnungsdatum',
    orderNumber: 'Auftragsnummer',
    customerNumber: 'Kundennummer',
    billedTo: 'Rechnungsempfänger',
    seller: 'Rechnungssteller',
    vatId: 'USt-IdNr.',
    item: 'Leistung',
    servicePeriod: 'Leistungszeitraum',
    servicePeriodFrom: (from) => `ab ${from}`,
    amount: 'Betrag',
    net: 'Nettobetrag',
    vat: (rate) => `Umsatzsteuer ${rate}`,
    gross: 'Gesamtbetrag (brutto)',
    zeroRated: 'Nullsatz',
    status: 'Status',
    statuses: { A: 'bezahlt', T: 'teilweise bezahlt', O: 'offen', U: 'unbekannt' },
    footer: 'Diese Rechnung wurde im Kundenportal erstellt.',
    page: (page, pages) => `Seite ${page} von ${pages}`,
    issue: 'Ausgabe',
    onSale: 'Erscheinungstag',
    issueFooter: 'E-Paper zum persönlichen Gebrauch.',
    article: 'Artikel',
    articleNumber: 'Artikelnummer',
    purchaseDate: 'Kaufdatum',
    quantity: 'Menge',
    articleFooter: 'Download zu Ihrer Bestellung.',
    giftCertificate: 'Geschenkgutschein',
    giftFor: 'Für',
    validFrom: 'Gültig ab',
    continued: 'Fortsetzung',
  },
  'en-GB': {
    invoice: 'Invoice',
    invoiceNumber: 'Invoice number',
    documentNumber: 'Document number',
    invoiceDate: 'Invoice date',
    orderNumber: 'Order number',
    customerNumber: 'Customer number',
    billedTo: 'Billed to',
    seller: 'Seller',
    vatId: 'VAT no.',
    item: 'Item',
    servicePeriod: 'Service period',
    servicePeriodFrom: (from) => `from ${from}`,
    amount: 'Amount',
    net: 'Net amount',
    vat: (rate) => `VAT ${rate}`,
    gross: 'Total (gross)',
    zeroRated: 'zero-rated',
    status: 'Status',
    statuses: { A: 'paid', T: 'partially paid', O: 'unpaid', U: 'unknown' },
    footer: 'This invoice was created in the customer portal.',
    page: (page, pages) => `Page ${page} of ${pages}`,
    issue: 'Issue',
    onSale: 'On sale',
    issueFooter: 'E-paper for personal use.',
    article: 'Article',
    articleNumber: 'Article number',
    purchaseDate: 'Purchase date',
    quantity: 'Quantity',
    articleFooter: 'Download for your order.',
    giftCertificate: 'Gift certificate',
    giftFor: 'For',
    validFrom: 'Valid from',
    continued: 'continued',
  },
};

export function formatMoney(amount: number, currency: string, locale: DocumentLocale): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
}

export function formatPercent(percent: number, locale: DocumentLocale): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(percent / 100);
}
