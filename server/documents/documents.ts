/**
 * The PDF documents the server renders (portal-core.md §2 "Invoice download", "Delivered-issue
 * download", purchase-order download): each carries the tenant's brand (name and primary colour)
 * and the data of the invoice, issue or article. Language: the tenant's default locale.
 */
import type { Subscription, BusinessPartnerSummary } from '../../schemas/generated/subscription';
import type { PaymentHistoryItem, DeliveredIssue } from '../../schemas/generated/subscription-page';
import type { PurchaseOrder } from '../../schemas/generated/purchase-order';
import type { PendingOrder } from '../../schemas/generated/pending-order';
import { A4, renderPdf, textWidth, type PdfOp } from './pdfDocument';

export interface DocumentTenant {
  name: string;
  defaultLocale: 'de-DE' | 'en-GB';
  themeTokens?: { colors?: { primary?: string; onPrimary?: string } };
  contact?: { email?: string; phone?: string; fallbackEmail?: string; fallbackPhone?: string };
}

const WORDS = {
  'de-DE': {
    invoice: 'Rechnung',
    invoiceNumber: 'Rechnungsnummer',
    documentNumber: 'Belegnummer',
    date: 'Datum',
    orderNumber: 'Auftragsnummer',
    customer: 'Rechnungsempfänger',
    item: 'Leistung',
    amount: 'Betrag',
    total: 'Gesamtbetrag',
    status: 'Status',
    statuses: { A: 'bezahlt', T: 'teilweise bezahlt', O: 'offen', U: 'unbekannt' },
    period: 'Bezugszeitraum bis',
    footer: 'Diese Rechnung wurde im Kundenportal erstellt.',
    issue: 'Ausgabe',
    onSale: 'Erscheinungstag',
    issueFooter: 'E-Paper zum persönlichen Gebrauch.',
    article: 'Artikel',
    articleNumber: 'Artikelnummer',
    purchaseDate: 'Kaufdatum',
    quantity: 'Menge',
    articleFooter: 'Download zu Ihrer Bestellung.',
  },
  'en-GB': {
    invoice: 'Invoice',
    invoiceNumber: 'Invoice number',
    documentNumber: 'Document number',
    date: 'Date',
    orderNumber: 'Order number',
    customer: 'Billed to',
    item: 'Item',
    amount: 'Amount',
    total: 'Total',
    status: 'Status',
    statuses: { A: 'paid', T: 'partially paid', O: 'unpaid', U: 'unknown' },
    period: 'Service period until',
    footer: 'This invoice was created in the customer portal.',
    issue: 'Issue',
    onSale: 'On sale',
    issueFooter: 'E-paper for personal use.',
    article: 'Article',
    articleNumber: 'Article number',
    purchaseDate: 'Purchase date',
    quantity: 'Quantity',
    articleFooter: 'Download for your order.',
  },
} as const;

function formatDate(value: string | null, locale: string): string {
  if (!value) return '';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${value}T00:00:00Z`));
}

function formatMoney(amount: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
}

function partyLines(party: BusinessPartnerSummary | undefined): string[] {
  if (!party) return [];
  const name = party.company1 ?? [party.firstName, party.lastName1].filter(Boolean).join(' ');
  return [name, [party.street, party.streetNumber].filter(Boolean).join(' '), [party.zipcode, party.city].filter(Boolean).join(' ')].filter(
    (line) => line.trim() !== '',
  );
}

/** The brand band and the tenant name at the top of every document. */
function header(tenant: DocumentTenant, title: string): PdfOp[] {
  const primary = tenant.themeTokens?.colors?.primary ?? '#1b3a6b';
  const onPrimary = tenant.themeTokens?.colors?.onPrimary ?? '#ffffff';
  return [
    { kind: 'rect', x: 0, y: A4.height - 90, width: A4.width, height: 90, color: primary },
    { kind: 'text', x: 50, y: A4.height - 55, size: 22, text: tenant.name, font: 'bold', color: onPrimary },
    { kind: 'text', x: 50, y: A4.height - 140, size: 20, text: title, font: 'bold' },
  ];
}

function facts(rows: Array<[string, string]>, top: number): PdfOp[] {
  return rows.flatMap(([label, value], i) => [
    { kind: 'text' as const, x: 50, y: top - i * 18, size: 11, text: label, font: 'bold' as const },
    { kind: 'text' as const, x: 200, y: top - i * 18, size: 11, text: value },
  ]);
}

function footer(tenant: DocumentTenant, text: string): PdfOp[] {
  const contact = [tenant.contact?.email ?? tenant.contact?.fallbackEmail, tenant.contact?.phone ?? tenant.contact?.fallbackPhone]
    .filter(Boolean)
    .join(' · ');
  return [
    { kind: 'text', x: 50, y: 60, size: 9, text, color: '#595959' },
    { kind: 'text', x: 50, y: 46, size: 9, text: `${tenant.name}${contact ? ` · ${contact}` : ''}`, color: '#595959' },
  ];
}

/** The invoice of one payment-history entry (§3 "Payment history item"). */
export function invoicePdf(tenant: DocumentTenant, subscription: Subscription, payment: PaymentHistoryItem): Buffer {
  const locale = tenant.defaultLocale;
  const w = WORDS[locale];
  const number = payment.invoiceNumber ?? payment.id;
  const amount = formatMoney(payment.amount, payment.currency, locale);
  const billedTo = partyLines(subscription.orderingParty ?? subscription.currentRoleBusinessPartner);
  const ops: PdfOp[] = [
    ...header(tenant, `${w.invoice} ${number}`),
    ...facts(
      [
        [w.invoiceNumber, number],
        [w.documentNumber, payment.externalDocumentNumber ?? payment.documentId ?? ''],
        [w.date, formatDate(payment.date, locale)],
        [w.orderNumber, subscription.orderNumber],
        [w.status, w.statuses[payment.invoiceStatusCode]],
      ],
      A4.height - 180,
    ),
    { kind: 'text', x: 50, y: A4.height - 290, size: 11, text: w.customer, font: 'bold' },
    ...billedTo.map((line, i): PdfOp => ({ kind: 'text', x: 50, y: A4.height - 308 - i * 15, size: 11, text: line })),
    { kind: 'rect', x: 50, y: A4.height - 398, width: A4.width - 100, height: 1, color: '#999999' },
    { kind: 'text', x: 50, y: A4.height - 390, size: 11, text: w.item, font: 'bold' },
    { kind: 'text', x: A4.width - 50 - textWidth(w.amount, 11), y: A4.height - 390, size: 11, text: w.amount, font: 'bold' },
    { kind: 'text', x: 50, y: A4.height - 420, size: 11, text: subscription.displayName },
    { kind: 'text', x: A4.width - 50 - textWidth(amount, 11), y: A4.height - 420, size: 11, text: amount },
    { kind: 'rect', x: 50, y: A4.height - 440, width: A4.width - 100, height: 1, color: '#999999' },
    { kind: 'text', x: 50, y: A4.height - 460, size: 12, text: w.total, font: 'bold' },
    { kind: 'text', x: A4.width - 50 - textWidth(amount, 12), y: A4.height - 460, size: 12, text: amount, font: 'bold' },
    ...footer(tenant, w.footer),
  ];
  return renderPdf({ title: `${w.invoice} ${number}`, author: tenant.name, ops });
}

/** The e-paper of a delivered issue. */
export function issuePdf(tenant: DocumentTenant, subscription: Subscription, issue: DeliveredIssue): Buffer {
  const locale = tenant.defaultLocale;
  const w = WORDS[locale];
  const title = `${subscription.publicationName} – ${w.issue} ${issue.issueNumber ?? issue.issue}`;
  const ops: PdfOp[] = [
    ...header(tenant, title),
    ...facts(
      [
        [w.issue, issue.description ?? issue.issueNumber ?? issue.issue],
        [w.onSale, formatDate(issue.dateOfFirstSale, locale)],
        [w.orderNumber, subscription.orderNumber],
      ],
      A4.height - 180,
    ),
    ...footer(tenant, w.issueFooter),
  ];
  return renderPdf({ title, author: tenant.name, ops });
}

/** The download of a purchase order (single purchase). */
export function purchaseOrderPdf(tenant: DocumentTenant, order: PurchaseOrder): Buffer {
  const locale = tenant.defaultLocale;
  const w = WORDS[locale];
  const ops: PdfOp[] = [
    ...header(tenant, order.distributionArticleDescription),
    ...facts(
      [
        [w.article, order.distributionArticleDescription],
        [w.articleNumber, order.distributionArticleNumber],
        [w.orderNumber, order.purchaseOrderNumber],
        [w.purchaseDate, formatDate(order.dateOfPurchaseOrderClient, locale)],
        [w.quantity, String(order.quantity)],
      ],
      A4.height - 180,
    ),
    ...footer(tenant, w.articleFooter),
  ];
  return renderPdf({ title: order.distributionArticleDescription, author: tenant.name, ops });
}

/** The gift certificate of a gift subscription (§2 "gift-certificate modal"). */
export function giftCertificatePdf(tenant: DocumentTenant, subscription: Subscription): Buffer {
  const locale = tenant.defaultLocale;
  const title = locale === 'de-DE' ? 'Geschenkgutschein' : 'Gift certificate';
  const recipient = partyLines(subscription.goodsRecipient)[0] ?? '';
  const ops: PdfOp[] = [
    ...header(tenant, title),
    { kind: 'text', x: 50, y: A4.height - 190, size: 16, text: subscription.displayName, font: 'bold' },
    ...(recipient ? [{ kind: 'text' as const, x: 50, y: A4.height - 215, size: 13, text: recipient }] : []),
    ...facts(
      [
        [WORDS[locale].orderNumber, subscription.orderNumber],
        [locale === 'de-DE' ? 'Gültig ab' : 'Valid from', formatDate(subscription.validFromOnSaleDate, locale)],
      ],
      A4.height - 260,
    ),
    ...footer(tenant, tenant.name),
  ];
  return renderPdf({ title, author: tenant.name, ops });
}

/** The file of a pending order (§3 "Pending order": download with isFile), e.g. an e-book bought in the shop. */
export function pendingOrderPdf(tenant: DocumentTenant, order: PendingOrder): Buffer {
  const locale = tenant.defaultLocale;
  const w = WORDS[locale];
  const ops: PdfOp[] = [
    ...header(tenant, order.title),
    ...facts(
      [
        [w.article, order.title],
        [w.articleNumber, order.articleNumber ?? ''],
        [w.orderNumber, order.orderNumber ?? ''],
        [w.purchaseDate, formatDate(order.orderDate, locale)],
      ],
      A4.height - 180,
    ),
    ...footer(tenant, w.articleFooter),
  ];
  return renderPdf({ title: order.title, author: tenant.name, ops });
}
