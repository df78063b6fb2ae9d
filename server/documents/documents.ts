/**
 * The PDF documents the server renders (portal-core.md §2 "Invoice download", "Delivered-issue
 * download", purchase-order download, gift certificate, pending-order file), all on pdfkit
 * (pdfWriter.ts): the tenant's logo and brand colour, the publisher's details and page numbers in
 * the footer, embedded Unicode fonts, and the subscriber's language (the caller passes the locale
 * of the request, server/tenancy/requestLocale.ts). Each returns a promise of the whole file, a
 * tagged PDF (pdfWriter.ts): a heading, paragraphs, and the facts as a table of rows.
 */
import type { Subscription } from '../../schemas/generated/subscription';
import type { DeliveredIssue } from '../../schemas/generated/subscription-page';
import type { PurchaseOrder } from '../../schemas/generated/purchase-order';
import type { PendingOrder } from '../../schemas/generated/pending-order';
import { documentWords, type DocumentLocale } from './documentTexts';
import { formatDate } from '../../engine/domain/dates';
import type { DocumentTenant } from './documentTenant';
import { MARGIN, drawHeader, facts, startPdf, write } from './pdfWriter';
import { addressLines } from './invoicePdf';
import { timeDocument } from '../metrics/registry';

export type { DocumentTenant } from './documentTenant';
export type { DocumentLocale } from './documentTexts';
export { invoicePdf, billedParty } from './invoicePdf';

interface FactSheet {
  title: string;
  subtitle?: string;
  rows: Array<[string, string]>;
  footer: string;
  compress?: boolean;
}

/** A document of a title and label/value facts, the shape the non-invoice documents share; timed. */
function factSheet(tenant: DocumentTenant, locale: DocumentLocale, opts: FactSheet): Promise<Buffer> {
  return timeDocument('pdf', () => makeFactSheet(tenant, locale, opts));
}

async function makeFactSheet(
  tenant: DocumentTenant,
  locale: DocumentLocale,
  opts: FactSheet,
): Promise<Buffer> {
  const words = documentWords(locale);
  const { page, finish } = startPdf({ tenant, locale, words, title: opts.title, compress: opts.compress });
  page.footerNote = opts.footer;
  let y = drawHeader(page) + 10;
  y += write(page, opts.title, MARGIN, y, { size: 20, font: 'bold', width: 495, tag: 'H1' }) + 10;
  if (opts.subtitle) y += write(page, opts.subtitle, MARGIN, y, { size: 14, width: 495 }) + 10;
  facts(page, opts.rows, MARGIN, y + 10, 150, 340);
  return finish();
}

/** The e-paper of a delivered issue. */
export function issuePdf(
  tenant: DocumentTenant,
  locale: DocumentLocale,
  subscription: Subscription,
  issue: DeliveredIssue,
): Promise<Buffer> {
  const w = documentWords(locale);
  return factSheet(tenant, locale, {
    title: `${subscription.publicationName} – ${w.issue} ${issue.issueNumber ?? issue.issue}`,
    rows: [
      [w.issue, issue.description ?? issue.issueNumber ?? issue.issue],
      [w.onSale, formatDate(issue.dateOfFirstSale, locale)],
      [w.orderNumber, subscription.orderNumber],
    ],
    footer: w.issueFooter,
  });
}

/** The download of a purchase order (single purchase). */
export function purchaseOrderPdf(
  tenant: DocumentTenant,
  locale: DocumentLocale,
  order: PurchaseOrder,
): Promise<Buffer> {
  const w = documentWords(locale);
  return factSheet(tenant, locale, {
    title: order.distributionArticleDescription,
    rows: [
      [w.article, order.distributionArticleDescription],
      [w.articleNumber, order.distributionArticleNumber],
      [w.orderNumber, order.purchaseOrderNumber],
      [w.purchaseDate, formatDate(order.dateOfPurchaseOrderClient, locale)],
      [w.quantity, String(order.quantity)],
    ],
    footer: w.articleFooter,
  });
}

/** The gift certificate of a gift subscription (§2 "gift-certificate modal"), naming the recipient. */
export function giftCertificatePdf(
  tenant: DocumentTenant,
  locale: DocumentLocale,
  subscription: Subscription,
): Promise<Buffer> {
  const w = documentWords(locale);
  const recipient = addressLines(subscription.goodsRecipient, locale)[0];
  return factSheet(tenant, locale, {
    title: w.giftCertificate,
    subtitle: [subscription.displayName, recipient ? `${w.giftFor} ${recipient}` : '']
      .filter(Boolean)
      .join('\n'),
    rows: [
      [w.orderNumber, subscription.orderNumber],
      [w.validFrom, formatDate(subscription.validFromOnSaleDate, locale)],
    ],
    footer: tenant.name,
  });
}

/** The file of a pending order (§3 "Pending order": download with isFile), e.g. an e-book bought in the shop. */
export function pendingOrderPdf(
  tenant: DocumentTenant,
  locale: DocumentLocale,
  order: PendingOrder,
): Promise<Buffer> {
  const w = documentWords(locale);
  return factSheet(tenant, locale, {
    title: order.title,
    rows: [
      [w.article, order.title],
      [w.articleNumber, order.articleNumber ?? ''],
      [w.orderNumber, order.orderNumber ?? ''],
      [w.purchaseDate, formatDate(order.orderDate, locale)],
    ],
    footer: w.articleFooter,
  });
}
