/**
 * SQL of payments (migrations 008 and 009): what the payment page charges for accepted offers or a
 * payment method change, what it really pays for (docs/architecture.md "Payments": the offers
 * accepted with it and their subscriptions; the page names these, never the free text stored at its
 * creation, which can name another subscription in another language, see
 * server/payments/paymentSummary.ts), and its settling. What the subscription becomes is
 * subscriptionStore's saveLifecycle.
 */
import type { Queryable } from '../db/database';
import type { Locale } from '../../engine/domain/locales';
import type { OfferRow } from './offerStore';

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
  crossSelling: {
    titles: Partial<Record<Locale, string>>;
    imageUrl: string;
    url: string;
    voucherCode: string | null;
  } | null;
  /** What it pays for (migration 009): accepted offers, or a payment method change. */
  purpose: 'offers' | 'payment-method';
  /** payment-method: { subscriptionId, method }. */
  details: Record<string, unknown>;
  /** A hosted provider's id of the page paid on (migration 026): a Checkout Session, a Mollie payment. */
  providerReference: string | null;
  /** What the hosted provider answered that the portal needs again (server/payments/hostedCheckout.ts). */
  providerDetails: Record<string, unknown>;
  createdAt: Date;
}

const PAYMENT_COLUMNS = `id, user_id as "userId", provider, method, amount::float8 as amount, currency, status, secret_hash as "secretHash",
  locale, description, cross_selling as "crossSelling", purpose, details, provider_reference as "providerReference",
  provider_details as "providerDetails", created_at as "createdAt"`;

export async function insertPayment(
  db: Queryable,
  tenantId: string,
  row: Omit<
    PaymentRow,
    'id' | 'status' | 'crossSelling' | 'createdAt' | 'providerReference' | 'providerDetails'
  >,
): Promise<string> {
  const rows = await db.query<{ id: string }>(
    `insert into payments (tenant_id, user_id, provider, method, amount, currency, secret_hash, locale, description, purpose, details)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning id`,
    [
      tenantId,
      row.userId,
      row.provider,
      row.method,
      row.amount,
      row.currency,
      row.secretHash,
      row.locale,
      row.description,
      row.purpose,
      JSON.stringify(row.details),
    ],
  );
  return rows[0].id;
}

/** A new secret for the payment page: the link of the previous page stops working. */
export async function setPaymentSecret(
  db: Queryable,
  tenantId: string,
  id: string,
  secretHash: string,
): Promise<void> {
  await db.query(`update payments set secret_hash = $3 where tenant_id = $1 and id = $2`, [
    tenantId,
    id,
    secretHash,
  ]);
}

/** The payment, locked for the settling transaction when `forUpdate`. */
/** The user's offer payments for the subscription that still wait for their page, oldest first. */
export async function pendingOfferPaymentsOf(
  db: Queryable,
  tenantId: string,
  userId: string,
  subscriptionId: string,
): Promise<PaymentRow[]> {
  return db.query<PaymentRow>(
    `select ${PAYMENT_COLUMNS} from payments p
      where p.tenant_id = $1 and p.user_id = $2 and p.status = 'pending' and p.purpose = 'offers'
        and exists (select 1 from offer_acceptances a
                     where a.tenant_id = p.tenant_id and a.payment_id = p.id and a.subscription_id = $3)
      order by p.created_at, p.id`,
    [tenantId, userId, subscriptionId],
  );
}

/** The order numbers of the subscriptions whose chosen offers wait for a payment, in order. */
export async function orderNumbersWaitingFor(
  db: Queryable,
  tenantId: string,
  paymentId: string,
): Promise<string[]> {
  const rows = await db.query<{ order_number: string }>(
    `select distinct s.order_number from offer_acceptances a
       join subscriptions s on s.tenant_id = a.tenant_id and s.id = a.subscription_id
      where a.tenant_id = $1 and a.payment_id = $2
      order by s.order_number`,
    [tenantId, paymentId],
  );
  return rows.map((row) => row.order_number);
}

export async function findPaymentRecord(
  db: Queryable,
  tenantId: string,
  id: string,
  forUpdate = false,
): Promise<PaymentRow | null> {
  const rows = await db.query<PaymentRow>(
    `select ${PAYMENT_COLUMNS} from payments where tenant_id = $1 and id = $2 ${forUpdate ? 'for update' : ''}`,
    [tenantId, id],
  );
  return rows[0] ?? null;
}

export async function settlePaymentRecord(
  db: Queryable,
  tenantId: string,
  id: string,
  status: Exclude<PaymentStatus, 'pending'>,
  crossSelling: PaymentRow['crossSelling'],
): Promise<void> {
  await db.query(
    `update payments set status = $3, cross_selling = $4, settled_at = now() where tenant_id = $1 and id = $2 and status = 'pending'`,
    [tenantId, id, status, crossSelling === null ? null : JSON.stringify(crossSelling)],
  );
}

/**
 * A payment the portal cancelled (a cancellation voided it) that its provider then reports paid:
 * its page was still open there. It becomes an error, paid for nothing, so the refund job can give
 * the money back (scheduleRefund's `not_applied`). True when it was such a payment.
 */
export async function paidAfterCancel(db: Queryable, tenantId: string, id: string): Promise<boolean> {
  const rows = await db.query(
    `update payments set status = 'error', settled_at = now()
      where tenant_id = $1 and id = $2 and status = 'canceled' and purpose = 'offers' returning id`,
    [tenantId, id],
  );
  return rows.length > 0;
}

/**
 * Why the portal, not the payer, cancelled a payment (its `details.canceledBecause`): its page,
 * still open, and the opener's dialog then say so instead of a plain "cancelled".
 */
export type PaymentCancelCause = 'subscription_cancelled';

/** The cause the portal recorded when it cancelled the payment, if it did. */
export function cancelCauseOf(
  payment: Pick<PaymentRow, 'status' | 'details'>,
): PaymentCancelCause | undefined {
  return payment.status === 'canceled' && payment.details.canceledBecause === 'subscription_cancelled'
    ? 'subscription_cancelled'
    : undefined;
}

/**
 * Cancels these payments while still pending (the offers they paid for are void, `because` the
 * subscription was cancelled); answers the ones cancelled.
 */
export async function cancelPendingPayments(
  db: Queryable,
  tenantId: string,
  ids: readonly string[],
  because: PaymentCancelCause,
): Promise<PaymentRow[]> {
  if (ids.length === 0) return [];
  return db.query<PaymentRow>(
    `update payments set status = 'canceled', settled_at = now(), details = details || jsonb_build_object('canceledBecause', $3::text)
      where tenant_id = $1 and id = any($2::text[]) and status = 'pending' returning ${PAYMENT_COLUMNS}`,
    [tenantId, [...ids], because],
  );
}

/**
 * Cancels the registrations of a payment method (purpose `payment-method`) the user still has open
 * for a subscription: a new one replaces them, so one page at most can record a change, and asking
 * again and again opens no pile of pages at the provider's. Answers the ones cancelled.
 */
export async function cancelPendingRegistrations(
  db: Queryable,
  tenantId: string,
  userId: string,
  subscriptionId: string,
): Promise<PaymentRow[]> {
  return db.query<PaymentRow>(
    `update payments set status = 'canceled', settled_at = now()
      where tenant_id = $1 and user_id = $2 and purpose = 'payment-method' and status = 'pending'
        and details->>'subscriptionId' = $3
      returning ${PAYMENT_COLUMNS}`,
    [tenantId, userId, subscriptionId],
  );
}

/** Payments still pending, created before `before`, that offers of these subscriptions wait for (their page has expired). */
export async function stalePendingPayments(
  db: Queryable,
  tenantId: string,
  subscriptionIds: readonly string[],
  before: Date,
): Promise<string[]> {
  if (subscriptionIds.length === 0) return [];
  const rows = await db.query<{ id: string }>(
    `select distinct p.id from offer_acceptances a join payments p on p.tenant_id = a.tenant_id and p.id = a.payment_id
      where a.tenant_id = $1 and a.subscription_id = any($2::text[]) and a.status = 'pending' and p.status = 'pending' and p.created_at < $3`,
    [tenantId, [...subscriptionIds], before],
  );
  return rows.map((row) => row.id);
}

export interface PaidOffer {
  /** The acceptance it was paid for (a rejected one's refund names it, migration 042). */
  acceptanceId: string;
  subscriptionId: string;
  orderNumber: string;
  offer: OfferRow;
}

/** The offers a payment pays for, one per accepted offer (a bulk renewal has several), in the order they were accepted. */
export async function offersPaidBy(db: Queryable, tenantId: string, paymentId: string): Promise<PaidOffer[]> {
  const rows = await db.query<PaidOffer>(
    `select a.id as "acceptanceId", a.subscription_id as "subscriptionId", s.order_number::text as "orderNumber",
            jsonb_build_object('id', o.id, 'publication', o.publication, 'category', o.category, 'reasons', o.reasons,
                               'price', o.price::float8, 'currency', o.currency, 'paymentProvider', o.payment_provider,
                               'offer', o.offer, 'effect', o.effect, 'voucherPool', o.voucher_pool) as offer
       from offer_acceptances a
       join subscriptions s on s.tenant_id = a.tenant_id and s.id = a.subscription_id
       join offers o on o.tenant_id = a.tenant_id and o.id = a.offer_id
      where a.tenant_id = $1 and a.payment_id = $2
      order by a.created_at, a.id`,
    [tenantId, paymentId],
  );
  return rows;
}

/** The order number of a subscription of the tenant (a payment-method change names it), or null. */
export async function orderNumberOf(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
): Promise<string | null> {
  const rows = await db.query<{ orderNumber: string }>(
    `select order_number::text as "orderNumber" from subscriptions where tenant_id = $1 and id = $2`,
    [tenantId, subscriptionId],
  );
  return rows[0]?.orderNumber ?? null;
}

/** The hosted provider's page of a payment (migration 026): its reference and what to keep of its answer. */
export async function setProviderPage(
  db: Queryable,
  tenantId: string,
  id: string,
  reference: string,
  details: Record<string, unknown>,
): Promise<void> {
  await db.query(
    `update payments set provider_reference = $3, provider_details = provider_details || $4::jsonb where tenant_id = $1 and id = $2`,
    [tenantId, id, reference, JSON.stringify(details)],
  );
}

/** Hosted-provider payments still pending that were started before `before`, oldest first (the reconciliation job). */
export async function pendingHostedPayments(
  db: Queryable,
  before: Date,
  limit: number,
): Promise<Array<{ tenantId: string; id: string }>> {
  return db.query<{ tenantId: string; id: string }>(
    `select tenant_id as "tenantId", id from payments
      where status = 'pending' and provider <> 'sandbox' and created_at < $1
        -- a payment the provider still calls open after three days is the provider's to end
        and created_at > $1 - interval '3 days'
      order by created_at limit $2`,
    [before, limit],
  );
}

/** The payment whose hosted page a provider's reference names (migration 026), or null. */
export async function findPaymentByReference(
  db: Queryable,
  tenantId: string,
  provider: string,
  reference: string,
): Promise<PaymentRow | null> {
  const rows = await db.query<PaymentRow>(
    `select ${PAYMENT_COLUMNS} from payments where tenant_id = $1 and provider = $2 and provider_reference = $3`,
    [tenantId, provider, reference],
  );
  return rows[0] ?? null;
}
