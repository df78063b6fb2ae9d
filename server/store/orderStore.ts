/**
 * SQL of the orders page and the subscription page beyond the subscription itself (portal-core.md
 * §3, §7): payment history and delivered issues (paged), purchase orders, pending orders,
 * publications. Every query is scoped by the tenant and reaches rows only through the user's
 * business partners (user_business_partners), never by a value the client chose alone.
 */
import type { Queryable } from '../db/database';
import type { PurchaseOrder } from '../../schemas/generated/purchase-order';
import type { PendingOrder } from '../../schemas/generated/pending-order';
import type {
  PaymentHistoryItem,
  DeliveredIssue,
  Publication,
} from '../../schemas/generated/subscription-page';
import type { OrderSystemPayment } from '../../schemas/generated/order-system-payment';
import { PAGE_SIZE, totalPages, type Page } from '../../engine/domain/paging';
import { invoiceStatusOf } from '../../engine/domain/paymentHistory';
import { localizedDetails, type Translations } from './localizedDetails';
import {
  DELIVERED_DATE_OF_FIRST_SALE,
  DELIVERED_DESCRIPTION,
  DELIVERED_ISSUE_NUMBER,
  DELIVERED_ISSUES_FROM,
  DELIVERED_TRANSLATIONS,
} from './deliveredIssues';

export interface PagedQuery {
  page: number;
  pageSize?: number;
}

function paged<T>(items: T[], total: number, query: PagedQuery): Page<T> {
  const pageSize = query.pageSize ?? PAGE_SIZE;
  return { items, page: query.page, pageSize, totalItems: total, totalPages: totalPages(total, pageSize) };
}

interface PaymentRow {
  id: string;
  date: string;
  amount: string;
  currency: string;
  invoice_status_code: PaymentHistoryItem['invoiceStatusCode'];
  paid_amount: string | null;
  invoice_number: string | null;
  external_document_number: string | null;
  document_id: string | null;
  total: string;
}

function toPayment(row: PaymentRow): PaymentHistoryItem {
  return {
    id: row.id,
    date: row.date,
    amount: Number(row.amount),
    currency: row.currency,
    invoiceStatusCode: invoiceStatusOf(
      row.invoice_status_code,
      Number(row.amount),
      row.paid_amount == null ? null : Number(row.paid_amount),
    ),
    invoiceNumber: row.invoice_number,
    externalDocumentNumber: row.external_document_number,
    documentId: row.document_id,
  };
}

const PAYMENT_COLUMNS = `id, to_char(date, 'YYYY-MM-DD') as date, amount::text as amount, currency, invoice_status_code,
  paid_amount::text as paid_amount, invoice_number, external_document_number, document_id`;

/** Newest first; entries with a hidden status code (tenant paymentHistory.hiddenStatusCodes) are left out. */
export async function paymentHistoryPage(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
  query: PagedQuery & { hiddenCodes?: readonly string[] },
): Promise<Page<PaymentHistoryItem>> {
  const size = query.pageSize ?? PAGE_SIZE;
  const rows = await db.query<PaymentRow>(
    `select ${PAYMENT_COLUMNS}, count(*) over () as total
       from payment_history
      where tenant_id = $1 and subscription_id = $2 and not (invoice_status_code = any($3::text[]))
      order by date desc, id desc
      limit $4 offset $5`,
    [tenantId, subscriptionId, query.hiddenCodes ?? [], size, query.page * size],
  );
  const total = rows[0]
    ? Number(rows[0].total)
    : await countPayments(db, tenantId, subscriptionId, query.hiddenCodes ?? []);
  return paged(rows.map(toPayment), total, query);
}

async function countPayments(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
  hidden: readonly string[],
): Promise<number> {
  const [row] = await db.query<{ n: string }>(
    `select count(*) as n from payment_history
      where tenant_id = $1 and subscription_id = $2 and not (invoice_status_code = any($3::text[]))`,
    [tenantId, subscriptionId, hidden],
  );
  return Number(row.n);
}

/** A payment-history entry with what only its invoice needs: its lines and what was paid of it. */
export type InvoicePaymentRecord = PaymentHistoryItem & {
  paidAmount: number | null;
  lines: NonNullable<OrderSystemPayment['lines']> | null;
};

export async function findPayment(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
  paymentId: string,
): Promise<InvoicePaymentRecord | null> {
  const rows = await db.query<PaymentRow & { lines: InvoicePaymentRecord['lines'] }>(
    `select ${PAYMENT_COLUMNS}, lines, 1 as total
       from payment_history where tenant_id = $1 and subscription_id = $2 and id = $3`,
    [tenantId, subscriptionId, paymentId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    ...toPayment(row),
    paidAmount: row.paid_amount == null ? null : Number(row.paid_amount),
    lines: row.lines,
  };
}

export async function findPaymentByInvoice(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
  invoiceNumber: string,
  externalDocumentNumber?: string,
): Promise<PaymentHistoryItem | null> {
  const rows = await db.query<PaymentRow>(
    `select ${PAYMENT_COLUMNS}, 1 as total from payment_history
      where tenant_id = $1 and subscription_id = $2 and invoice_number = $3
        and ($4::text is null or external_document_number = $4)`,
    [tenantId, subscriptionId, invoiceNumber, externalDocumentNumber ?? null],
  );
  return rows[0] ? toPayment(rows[0]) : null;
}

interface IssueRow {
  issue: string;
  issue_number: string | null;
  description: string | null;
  date_of_first_sale: string | null;
  download_status: DeliveredIssue['downloadStatus'];
  translations: Translations<{ description: string | null }> | null;
  total: string;
}

/** A delivered issue, its description (the order system's name of the issue) in `locale` when given in it. */
function toIssue(row: IssueRow, locale: string | undefined): DeliveredIssue {
  return {
    issue: row.issue,
    issueNumber: row.issue_number,
    description: localizedDetails({ description: row.description, translations: row.translations }, locale)
      .description,
    dateOfFirstSale: row.date_of_first_sale,
    downloadStatus: row.download_status,
  };
}

export async function deliveredIssuesPage(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
  query: PagedQuery,
  opts: { locale?: string } = {},
): Promise<Page<DeliveredIssue>> {
  const size = query.pageSize ?? PAGE_SIZE;
  const rows = await db.query<IssueRow>(
    `select d.issue, ${DELIVERED_ISSUE_NUMBER} as issue_number, ${DELIVERED_DESCRIPTION} as description,
            to_char(${DELIVERED_DATE_OF_FIRST_SALE}, 'YYYY-MM-DD') as date_of_first_sale,
            d.download_status, ${DELIVERED_TRANSLATIONS} as translations, count(*) over () as total
       from ${DELIVERED_ISSUES_FROM}
      where d.tenant_id = $1 and d.subscription_id = $2
      order by ${DELIVERED_DATE_OF_FIRST_SALE} desc nulls last, d.issue desc
      limit $3 offset $4`,
    [tenantId, subscriptionId, size, query.page * size],
  );
  let total = rows[0] ? Number(rows[0].total) : 0;
  if (!rows[0] && query.page > 0) {
    const [row] = await db.query<{ n: string }>(
      'select count(*) as n from delivered_issues where tenant_id = $1 and subscription_id = $2',
      [tenantId, subscriptionId],
    );
    total = Number(row.n);
  }
  return paged(
    rows.map((row) => toIssue(row, opts.locale)),
    total,
    query,
  );
}

export async function findDeliveredIssue(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
  issue: string,
  opts: { locale?: string } = {},
): Promise<DeliveredIssue | null> {
  const rows = await db.query<IssueRow>(
    `select d.issue, ${DELIVERED_ISSUE_NUMBER} as issue_number, ${DELIVERED_DESCRIPTION} as description,
            to_char(${DELIVERED_DATE_OF_FIRST_SALE}, 'YYYY-MM-DD') as date_of_first_sale,
            d.download_status, ${DELIVERED_TRANSLATIONS} as translations, 1 as total
       from ${DELIVERED_ISSUES_FROM} where d.tenant_id = $1 and d.subscription_id = $2 and d.issue = $3`,
    [tenantId, subscriptionId, issue],
  );
  return rows[0] ? toIssue(rows[0], opts.locale) : null;
}

interface PurchaseOrderRow {
  id: string;
  purchase_order_number: string;
  distribution_article_number: string;
  distribution_article_description: string;
  cover_image_url: string | null;
  date_of_purchase_order_client: string;
  quantity: number;
  invoice_status: 1 | 2 | 3;
  invoice_number: string | null;
  download_status: PurchaseOrder['downloadStatus'];
  package_info: PurchaseOrder['packageInfo'];
  details: {
    purchaseOrderId?: string;
    reason?: string | null;
    translations?: Translations<PurchaseOrderProse>;
  } | null;
  role: PurchaseOrder['role'];
  partner: PurchaseOrder['businessPartner'];
}

/**
 * The user's purchase orders, newest purchase first (§2 "Sorting"). `role` is the user's strongest
 * role on it (AG, WE, RE, LV), so the card offers the invoice request only to the ordering party.
 */
export async function listPurchaseOrdersForUser(
  db: Queryable,
  tenantId: string,
  userId: string,
  purchaseOrderId?: string,
  opts: { locale?: string } = {},
): Promise<PurchaseOrder[]> {
  const rows = await db.query<PurchaseOrderRow>(
    `with mine as (
       select r.purchase_order_id, r.bp_number,  r.role,
              row_number() over (partition by r.purchase_order_id
                                 order by array_position(array['AG', 'WE', 'RE', 'LV'], r.role)) as rank
         from user_business_partners ubp
         join purchase_order_roles r on r.tenant_id = ubp.tenant_id and r.bp_number = ubp.bp_number
        where ubp.tenant_id = $1 and ubp.user_id = $2 and ($3::text is null or r.purchase_order_id = $3)
     )
     select po.id, po.purchase_order_number::text as purchase_order_number, po.distribution_article_number,
            po.distribution_article_description, po.cover_image_url,
            to_char(po.date_of_purchase_order_client, 'YYYY-MM-DD') as date_of_purchase_order_client,
            po.quantity, po.invoice_status, po.invoice_number, po.download_status, po.package_info, po.details,
            mine.role,
            jsonb_build_object('bpNumber', bp.bp_number::text, 'salutationCode', bp.salutation_code,
              'firstName', bp.first_name, 'lastName1', bp.last_name1, 'company1', bp.company1,
              'addressLine1', bp.details->>'addressLine1', 'addressLine2', bp.details->>'addressLine2',
              'addressLine3', bp.details->>'addressLine3', 'street', bp.street, 'streetNumber', bp.street_number,
              'streetNumberSuffix', bp.details->>'streetNumberSuffix', 'zipcode', bp.zipcode, 'city', bp.city,
              'countryCode', bp.country_code) as partner
       from mine
       join purchase_orders po on po.tenant_id = $1 and po.id = mine.purchase_order_id
       join business_partners bp on bp.tenant_id = $1 and bp.bp_number = mine.bp_number
      where mine.rank = 1
      order by po.date_of_purchase_order_client desc, po.id`,
    [tenantId, userId, purchaseOrderId ?? null],
  );
  return rows.map((row) => {
    // The article's words in the request's language when the order system gave them.
    const prose = localizedDetails<PurchaseOrderProse>(
      {
        distributionArticleDescription: row.distribution_article_description,
        reason: row.details?.reason ?? null,
        translations: row.details?.translations,
      },
      opts.locale,
    );
    return {
      id: row.id,
      purchaseOrderId: row.details?.purchaseOrderId ?? row.purchase_order_number,
      purchaseOrderNumber: row.purchase_order_number,
      distributionArticleNumber: row.distribution_article_number,
      distributionArticleDescription: prose.distributionArticleDescription,
      coverImageUrl: row.cover_image_url,
      dateOfPurchaseOrderClient: row.date_of_purchase_order_client,
      quantity: row.quantity,
      invoiceStatus: row.invoice_status,
      invoiceNumber: row.invoice_number,
      downloadStatus: row.download_status,
      reason: prose.reason,
      role: row.role,
      businessPartner: row.partner,
      packageInfo: row.package_info,
    };
  });
}

/** A purchase order's prose, which `details.translations` may give in other languages (server/store/localizedDetails.ts). */
export interface PurchaseOrderProse {
  distributionArticleDescription: string;
  reason: string | null;
}

/**
 * What the invoice request of a purchase order decides on (portal-core.md §4): the invoiced amount
 * (null when the order system sent none) and every role the user's business partners hold on it.
 */
export async function purchaseOrderInvoiceFacts(
  db: Queryable,
  tenantId: string,
  userId: string,
  purchaseOrderId: string,
): Promise<{ invoiceAmount: number | null; roles: Array<PurchaseOrder['role']> }> {
  const rows = await db.query<{ invoice_amount: string | null; role: PurchaseOrder['role'] }>(
    `select po.details->>'invoiceAmount' as invoice_amount, r.role
       from user_business_partners ubp
       join purchase_order_roles r on r.tenant_id = ubp.tenant_id and r.bp_number = ubp.bp_number
       join purchase_orders po on po.tenant_id = r.tenant_id and po.id = r.purchase_order_id
      where ubp.tenant_id = $1 and ubp.user_id = $2 and r.purchase_order_id = $3`,
    [tenantId, userId, purchaseOrderId],
  );
  const amount = rows[0]?.invoice_amount;
  return {
    invoiceAmount: amount == null ? null : Number(amount),
    roles: [...new Set(rows.map((row) => row.role))],
  };
}

interface PendingRow {
  id: string;
  source: string;
  title: string;
  order_number: string | null;
  article_number: string | null;
  order_date: string | null;
  cover_image_url: string | null;
  issue_number_from: string | null;
  download_url: string | null;
  download_is_file: boolean | null;
  translations: Translations<{ title: string }> | null;
}

/**
 * Pending orders of the user's business partners, newest first. §7: "entries duplicating known order
 * numbers are dropped" — an order the user already sees as a subscription is left out here. The
 * title (a product or article name of the order system) in `opts.locale` when it was given in it.
 */
export async function listPendingOrdersForUser(
  db: Queryable,
  tenantId: string,
  userId: string,
  pendingOrderId?: string,
  opts: { locale?: string } = {},
): Promise<PendingOrder[]> {
  const rows = await db.query<PendingRow>(
    `select po.id, po.source, po.title, po.order_number::text as order_number, po.article_number,
            to_char(po.order_date, 'YYYY-MM-DD') as order_date, po.cover_image_url, po.issue_number_from,
            po.download_url, po.download_is_file, po.translations
       from pending_orders po
       join user_business_partners ubp on ubp.tenant_id = po.tenant_id and ubp.bp_number = po.bp_number
      where po.tenant_id = $1 and ubp.user_id = $2 and ($3::text is null or po.id = $3)
        and (po.order_number is null or not exists (
              select 1 from subscriptions s
                join subscription_roles sr on sr.tenant_id = s.tenant_id and sr.subscription_id = s.id
                join user_business_partners u2 on u2.tenant_id = sr.tenant_id and u2.bp_number = sr.bp_number
               where s.tenant_id = $1 and u2.user_id = $2 and s.order_number = po.order_number))
      order by po.order_date desc nulls last, po.id`,
    [tenantId, userId, pendingOrderId ?? null],
  );
  return rows.map((row) => ({
    id: row.id,
    source: row.source,
    title: localizedDetails({ title: row.title, translations: row.translations }, opts.locale).title,
    orderNumber: row.order_number,
    articleNumber: row.article_number,
    orderDate: row.order_date,
    coverImageUrl: row.cover_image_url,
    issueNumberFrom: row.issue_number_from,
    download: row.download_url ? { url: row.download_url, isFile: row.download_is_file ?? false } : null,
  }));
}

/** §7 GET /publications: unique by publication, sorted by description. */
export async function listPublications(db: Queryable, tenantId: string): Promise<Publication[]> {
  return db.query<Publication>(
    `select publication, description, client_id as "clientId", cover_image_url as "coverImageUrl", current_issue as "currentIssue"
       from publications where tenant_id = $1 order by description, publication`,
    [tenantId],
  );
}
