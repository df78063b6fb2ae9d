/**
 * SQL of the cancellation and offer flows (migration 008): cancellation reasons, offers, accepted
 * offers, payments, voucher codes and cancellations, and the subscription changes they make.
 */
import type { Queryable } from '../db/database';
import type { Locale } from '../../engine/core/portalConfig';
import type { PaymentProvider, UpgradeTime } from '../../engine/domain/offers';
import type { SubscriptionDetails } from './rows';
import type { OrderStatus } from '../../engine/domain/orderStatus';

export interface CancellationReasonRow {
  code: string;
  descriptions: Partial<Record<Locale, string>>;
}

export async function listCancellationReasons(db: Queryable, tenantId: string, publication: string): Promise<CancellationReasonRow[]> {
  return db.query<CancellationReasonRow>(
    `select code, descriptions from cancellation_reasons where tenant_id = $1 and publication = $2 order by position, code`,
    [tenantId, publication],
  );
}

/** The texts of an offer in one language. */
export interface OfferTexts {
  description: string;
  /** articleText, product title or upgrade text. */
  title: string;
  /** The product's short description. */
  detail?: string;
}

/** What the offers table's `offer` column holds (account-flows.md §3 Recommendation). */
export interface OfferDefinition {
  kind: 'article' | 'product' | 'upgradeOption';
  texts: Partial<Record<Locale, OfferTexts>>;
  pictureUrl: string | null;
  openInNewTab: boolean;
  /** article: §9 offer type (BD, BU bundles; DD, RN). */
  offerType?: string;
  /** upgradeOption: when the upgrade takes effect, and what is paid next time. */
  upgradeTime?: UpgradeTime;
  nextPaymentAmount?: number;
  /** Shown after a successful payment (§3 pending payment crossSellingOffer). */
  crossSelling?: { titles: Partial<Record<Locale, string>>; imageUrl: string; url: string };
}

/** What accepting an offer does to the subscription (server/offers/applyOffer.ts). */
export type OfferEffect =
  | { kind: 'extend'; months: number }
  | { kind: 'upgrade'; mixType: 'PR' | 'DE' | 'ON' | 'KO'; typeKey: string }
  | { kind: 'retain'; months: number; discountPercent: number };

export interface OfferRow {
  id: string;
  publication: string;
  category: string;
  reasons: string[] | null;
  price: number;
  currency: string;
  paymentProvider: PaymentProvider;
  offer: OfferDefinition;
  effect: OfferEffect;
  voucherPool: string | null;
}

const OFFER_COLUMNS = `id, publication, category, reasons, price::float8 as price, currency, payment_provider as "paymentProvider", offer, effect, voucher_pool as "voucherPool"`;

export async function listOffers(db: Queryable, tenantId: string, publication: string, category: string): Promise<OfferRow[]> {
  return db.query<OfferRow>(
    `select ${OFFER_COLUMNS} from offers where tenant_id = $1 and publication = $2 and category = $3 order by position, id`,
    [tenantId, publication, category],
  );
}

export async function findOffer(db: Queryable, tenantId: string, id: string): Promise<OfferRow | null> {
  const rows = await db.query<OfferRow>(`select ${OFFER_COLUMNS} from offers where tenant_id = $1 and id = $2`, [tenantId, id]);
  return rows[0] ?? null;
}

export type AcceptanceSource = 'cancellation' | 'renewal' | 'upgrade' | 'bulk-renewal';

export interface AcceptanceRow {
  id: string;
  subscriptionId: string;
  offerId: string;
  userId: string;
  source: AcceptanceSource;
  upgradeTime: UpgradeTime | null;
  cancelReason: string | null;
  status: 'pending' | 'applied' | 'failed';
  paymentId: string | null;
}

const ACCEPTANCE_COLUMNS = `id, subscription_id as "subscriptionId", offer_id as "offerId", user_id as "userId", source,
  upgrade_time as "upgradeTime", cancel_reason as "cancelReason", status, payment_id as "paymentId"`;

/** How long an applied acceptance makes a second accept of the same offer a repeat (a double submit, a reload). */
export const REPEAT_ACCEPT_MINUTES = 10;

/**
 * The acceptance a new accept of this offer for this subscription repeats: the one waiting for its
 * payment, or one applied in the last REPEAT_ACCEPT_MINUTES. Read under the subscription's row lock.
 */
export async function findLiveAcceptance(db: Queryable, tenantId: string, subscriptionId: string, offerId: string): Promise<AcceptanceRow | null> {
  const rows = await db.query<AcceptanceRow>(
    `select ${ACCEPTANCE_COLUMNS} from offer_acceptances
      where tenant_id = $1 and subscription_id = $2 and offer_id = $3
        and (status = 'pending' or (status = 'applied' and applied_at > now() - make_interval(mins => $4)))
      order by created_at desc limit 1`,
    [tenantId, subscriptionId, offerId, REPEAT_ACCEPT_MINUTES],
  );
  return rows[0] ?? null;
}

/** Inserts an acceptance; null when one is pending already (a double submit lost the race). */
export async function insertAcceptance(
  db: Queryable,
  tenantId: string,
  row: Omit<AcceptanceRow, 'id'>,
): Promise<string | null> {
  const rows = await db.query<{ id: string }>(
    `insert into offer_acceptances (tenant_id, subscription_id, offer_id, user_id, source, upgrade_time, cancel_reason, status, payment_id, applied_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, case when $8 = 'applied' then now() end)
     on conflict (tenant_id, subscription_id, offer_id) where status = 'pending' do nothing
     returning id`,
    [tenantId, row.subscriptionId, row.offerId, row.userId, row.source, row.upgradeTime, row.cancelReason, row.status, row.paymentId],
  );
  return rows[0]?.id ?? null;
}

export async function acceptancesOfPayment(db: Queryable, tenantId: string, paymentId: string): Promise<AcceptanceRow[]> {
  return db.query<AcceptanceRow>(`select ${ACCEPTANCE_COLUMNS} from offer_acceptances where tenant_id = $1 and payment_id = $2 order by created_at, id`, [
    tenantId,
    paymentId,
  ]);
}

export async function setAcceptancesOfPayment(db: Queryable, tenantId: string, paymentId: string, status: 'applied' | 'failed'): Promise<void> {
  await db.query(
    `update offer_acceptances set status = $3, applied_at = case when $3 = 'applied' then now() end
      where tenant_id = $1 and payment_id = $2 and status = 'pending'`,
    [tenantId, paymentId, status],
  );
}

export type PaymentStatus = 'pending' | 'success' | 'error' | 'canceled';

export interface PaymentRow {
  id: string;
  userId: string;
  provider: string;
  method: 'CREDIT_CARD' | 'PAYPAL';
  amount: number;
  currency: string;
  status: PaymentStatus;
  secretHash: string;
  locale: Locale;
  description: string;
  crossSelling: { titles: Partial<Record<Locale, string>>; imageUrl: string; url: string; voucherCode: string | null } | null;
  /** What it pays for (migration 009): accepted offers, or a payment method change. */
  purpose: 'offers' | 'payment-method';
  /** payment-method: { subscriptionId, method }. */
  details: Record<string, unknown>;
  createdAt: Date;
}

const PAYMENT_COLUMNS = `id, user_id as "userId", provider, method, amount::float8 as amount, currency, status, secret_hash as "secretHash",
  locale, description, cross_selling as "crossSelling", purpose, details, created_at as "createdAt"`;

export async function insertPayment(db: Queryable, tenantId: string, row: Omit<PaymentRow, 'id' | 'status' | 'crossSelling' | 'createdAt'>): Promise<string> {
  const rows = await db.query<{ id: string }>(
    `insert into payments (tenant_id, user_id, provider, method, amount, currency, secret_hash, locale, description, purpose, details)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning id`,
    [tenantId, row.userId, row.provider, row.method, row.amount, row.currency, row.secretHash, row.locale, row.description, row.purpose, JSON.stringify(row.details)],
  );
  return rows[0].id;
}

/** The payment, locked for the settling transaction when `forUpdate`. */
export async function findPaymentRecord(db: Queryable, tenantId: string, id: string, forUpdate = false): Promise<PaymentRow | null> {
  const rows = await db.query<PaymentRow>(
    `select ${PAYMENT_COLUMNS} from payments where tenant_id = $1 and id = $2 ${forUpdate ? 'for update' : ''}`,
    [tenantId, id],
  );
  return rows[0] ?? null;
}

export async function settlePaymentRecord(db: Queryable, tenantId: string, id: string, status: Exclude<PaymentStatus, 'pending'>, crossSelling: PaymentRow['crossSelling']): Promise<void> {
  await db.query(`update payments set status = $3, cross_selling = $4, settled_at = now() where tenant_id = $1 and id = $2 and status = 'pending'`, [
    tenantId,
    id,
    status,
    crossSelling === null ? null : JSON.stringify(crossSelling),
  ]);
}

/** Hands out one free voucher code of the pool, once: concurrent payments skip each other's locked rows. */
export async function claimVoucherCode(db: Queryable, tenantId: string, pool: string, paymentId: string): Promise<string | null> {
  const rows = await db.query<{ code: string }>(
    `update voucher_codes set payment_id = $3, assigned_at = now()
      where (tenant_id, pool, code) = (
        select tenant_id, pool, code from voucher_codes
         where tenant_id = $1 and pool = $2 and payment_id is null
         order by code limit 1 for update skip locked)
      returning code`,
    [tenantId, pool, paymentId],
  );
  return rows[0]?.code ?? null;
}

/** Locks the subscription row for the change about to be made (one change at a time per subscription). */
export async function lockSubscription(db: Queryable, tenantId: string, id: string): Promise<void> {
  await db.query(`select 1 from subscriptions where tenant_id = $1 and id = $2 for update`, [tenantId, id]);
}

/**
 * Changes columns and merges `details` keys of a subscription. A key it writes loses its stored
 * translations (server/store/localizedDetails.ts): the new words are the truth in every language
 * until the order system translates them again (issue 14, finding 4).
 */
export async function updateSubscription(
  db: Queryable,
  tenantId: string,
  id: string,
  change: { orderStatus?: string; validTo?: string | null; mixType?: string; details?: Partial<SubscriptionDetails> & Record<string, unknown> },
): Promise<void> {
  await db.query(
    `update subscriptions
        set order_status = coalesce($3, order_status),
            valid_to = case when $4::boolean then $5::date else valid_to end,
            mix_type = coalesce($6, mix_type),
            details = case
              when details ? 'translations' then
                (details || $7::jsonb) || jsonb_build_object('translations', (
                  select coalesce(jsonb_object_agg(t.key, t.value - array(select jsonb_object_keys($7::jsonb))), '{}'::jsonb)
                    from jsonb_each(details->'translations') t))
              else details || $7::jsonb
            end
      where tenant_id = $1 and id = $2`,
    [tenantId, id, change.orderStatus ?? null, change.validTo !== undefined, change.validTo ?? null, change.mixType ?? null, JSON.stringify(change.details ?? {})],
  );
}

export interface CancellationRow {
  subscriptionId: string;
  userId: string;
  reason: string;
  reasonText: string | null;
  feedback: string | null;
  type: 'regular' | 'exceptional';
  issueNumber: string | null;
  effectiveDate: string;
}

/** Records the cancellation; false when the subscription has one already (a double submit). */
export async function insertCancellation(db: Queryable, tenantId: string, row: CancellationRow): Promise<boolean> {
  const rows = await db.query(
    `insert into cancellations (tenant_id, subscription_id, user_id, reason, reason_text, feedback, type, issue_number, effective_date)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict do nothing returning 1`,
    [tenantId, row.subscriptionId, row.userId, row.reason, row.reasonText, row.feedback, row.type, row.issueNumber, row.effectiveDate],
  );
  return rows.length > 0;
}

/** The facts the anonymous cancellation check needs before any session exists. */
export async function subscriptionFacts(
  db: Queryable,
  tenantId: string,
  id: string,
): Promise<{ orderNumber: string; publication: string; orderStatus: OrderStatus; salesDocumentType: string | null; isCancelable: boolean } | null> {
  const rows = await db.query<{ orderNumber: string; publication: string; orderStatus: OrderStatus; salesDocumentType: string | null; isCancelable: boolean | null }>(
    `select order_number as "orderNumber", publication, order_status as "orderStatus", details->>'salesDocumentType' as "salesDocumentType",
            (details->>'isCancelable')::boolean as "isCancelable"
       from subscriptions where tenant_id = $1 and id = $2`,
    [tenantId, id],
  );
  return rows[0] ? { ...rows[0], isCancelable: rows[0].isCancelable ?? false } : null;
}

/** Retention offers (source cancellation) taken for a subscription since a moment, pending or applied. */
export async function retentionOffersTaken(db: Queryable, tenantId: string, subscriptionId: string, since: Date): Promise<number> {
  const rows = await db.query<{ count: string }>(
    `select count(*)::text as count from offer_acceptances
      where tenant_id = $1 and subscription_id = $2 and source = 'cancellation' and status in ('pending', 'applied') and created_at >= $3`,
    [tenantId, subscriptionId, since],
  );
  return Number(rows[0]?.count ?? 0);
}

/** Fails the offers waiting for a payment on this subscription and cancels their payments (a cancellation came first). */
export async function failPendingAcceptances(db: Queryable, tenantId: string, subscriptionId: string): Promise<string[]> {
  const rows = await db.query<{ paymentId: string }>(
    `update offer_acceptances set status = 'failed' where tenant_id = $1 and subscription_id = $2 and status = 'pending' returning payment_id as "paymentId"`,
    [tenantId, subscriptionId],
  );
  const ids = [...new Set(rows.map((r) => r.paymentId).filter(Boolean))];
  if (ids.length > 0) {
    await db.query(`update payments set status = 'canceled', settled_at = now() where tenant_id = $1 and id = any($2::text[]) and status = 'pending'`, [tenantId, ids]);
  }
  return ids;
}
