/**
 * SQL of the kept invoice documents (migration 031; docs/invoices.md "Issued documents, made once"),
 * and nothing else. Every query is scoped by tenant. Which document a request gets, and when one
 * is made, is server/documents/issuedInvoices.ts's decision.
 */
import type { Queryable } from '../db/database';

export type IssuedFormat = 'pdf' | 'xrechnung';

/** What names one kept document: the invoice, its form and language, and the fingerprint of its inputs. */
export interface IssuedDocumentKey {
  tenantId: string;
  subscriptionId: string;
  paymentId: string;
  format: IssuedFormat;
  locale: string;
  fingerprint: string;
}

const KEY = `tenant_id = $1 and subscription_id = $2 and payment_id = $3 and format = $4 and locale = $5 and fingerprint = $6`;
const keyArgs = (key: IssuedDocumentKey) => [
  key.tenantId,
  key.subscriptionId,
  key.paymentId,
  key.format,
  key.locale,
  key.fingerprint,
];

/** The kept bytes of the document, and when they were last served; undefined when none is kept. */
export async function findIssuedDocument(
  db: Queryable,
  key: IssuedDocumentKey,
): Promise<{ document: Buffer; servedAt: Date } | undefined> {
  const [row] = await db.query<{ document: Buffer; servedAt: Date }>(
    `select document, served_at as "servedAt" from issued_invoice_documents where ${KEY}`,
    keyArgs(key),
  );
  return row;
}

/** Keeps a document just made, with the billed party it names; a document kept meanwhile under the same key stays as it is. */
export async function keepIssuedDocument(
  db: Queryable,
  key: IssuedDocumentKey,
  document: Buffer,
  billedTo: unknown,
  now: Date,
): Promise<void> {
  await db.query(
    `insert into issued_invoice_documents
       (tenant_id, subscription_id, payment_id, format, locale, fingerprint, document, billed_to, made_at, served_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
     on conflict do nothing`,
    [...keyArgs(key), document, billedTo === undefined ? null : JSON.stringify(billedTo), now.toISOString()],
  );
}

/**
 * The billed party the invoice's first kept document named (migration 050), whatever its form or
 * language; undefined when no document of it keeps one.
 */
export async function issuedBilledParty(
  db: Queryable,
  invoice: { tenantId: string; subscriptionId: string; paymentId: string },
): Promise<unknown> {
  const [row] = await db.query<{ billedTo: unknown }>(
    `select billed_to as "billedTo" from issued_invoice_documents
      where tenant_id = $1 and subscription_id = $2 and payment_id = $3 and billed_to is not null
      order by made_at, fingerprint limit 1`,
    [invoice.tenantId, invoice.subscriptionId, invoice.paymentId],
  );
  return row?.billedTo;
}

/**
 * issuedBilledParty for several invoices of one subscription at once (a page of its payment
 * history): by payment id, only the invoices a kept document names a party of.
 */
export async function issuedBilledParties(
  db: Queryable,
  subscription: { tenantId: string; subscriptionId: string },
  paymentIds: readonly string[],
): Promise<Map<string, unknown>> {
  if (paymentIds.length === 0) return new Map();
  const rows = await db.query<{ paymentId: string; billedTo: unknown }>(
    `select distinct on (payment_id) payment_id as "paymentId", billed_to as "billedTo"
       from issued_invoice_documents
      where tenant_id = $1 and subscription_id = $2 and payment_id = any($3::text[]) and billed_to is not null
      order by payment_id, made_at, fingerprint`,
    [subscription.tenantId, subscription.subscriptionId, paymentIds],
  );
  return new Map(rows.map((row) => [row.paymentId, row.billedTo]));
}

/** Records that the document was served (the housekeeping's superseded rule reads it). */
export async function touchIssuedDocument(db: Queryable, key: IssuedDocumentKey, now: Date): Promise<void> {
  await db.query(`update issued_invoice_documents set served_at = $7 where ${KEY}`, [
    ...keyArgs(key),
    now.toISOString(),
  ]);
}

/**
 * Invoices of a tenant whose PDF in `locale` is not kept in any version yet, newest first, each
 * with an account that holds the paying role (AG, else RE) on the subscription: the background job
 * makes their documents as that account's download would (server/jobs/invoiceDocuments.ts).
 */
export async function invoicesWithoutDocuments(
  db: Queryable,
  tenantId: string,
  locale: string,
  limit: number,
): Promise<Array<{ subscriptionId: string; paymentId: string; userId: string }>> {
  return db.query(
    `select ph.subscription_id as "subscriptionId", ph.id as "paymentId", payer.user_id as "userId"
       from payment_history ph
       cross join lateral (
         select ubp.user_id from subscription_roles r
           join user_business_partners ubp on ubp.tenant_id = r.tenant_id and ubp.bp_number = r.bp_number
           join users u on u.tenant_id = ubp.tenant_id and u.id = ubp.user_id and u.deleted_at is null
          where r.tenant_id = ph.tenant_id and r.subscription_id = ph.subscription_id and r.role in ('AG', 'RE')
          order by r.role, ubp.user_id
          limit 1) payer
      where ph.tenant_id = $1 and ph.document_id is not null
        and not exists (select 1 from issued_invoice_documents d
                         where d.tenant_id = ph.tenant_id and d.subscription_id = ph.subscription_id
                           and d.payment_id = ph.id and d.format = 'pdf' and d.locale = $2)
      order by ph.date desc, ph.subscription_id, ph.id
      limit $3`,
    [tenantId, locale, limit],
  );
}
