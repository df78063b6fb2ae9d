/**
 * SQL of refunds (migration 042; docs/architecture.md "Payments": "Refunds"): a refund becomes due
 * in the transaction that decides it, and the refund job (server/payments/paymentRefunds.ts) claims
 * the due ones, asks the provider and records what it answered.
 */
import type { Queryable } from '../db/database';

export type RefundReason = 'change_rejected' | 'not_applied';

export interface RefundRow {
  tenantId: string;
  id: string;
  paymentId: string;
  acceptanceId: string | null;
  amount: number;
  currency: string;
  reason: RefundReason;
  status: 'due' | 'issued' | 'failed';
  attempts: number;
  providerReference: string | null;
}

const REFUND_COLUMNS = `tenant_id as "tenantId", id, payment_id as "paymentId", acceptance_id as "acceptanceId",
  amount::float8 as amount, currency, reason, status, attempts, provider_reference as "providerReference"`;

/**
 * Makes a refund due for money of a settled online payment that bought nothing: `acceptanceId`
 * names the rejected acceptance (refunding its share), null the whole payment (`not_applied`: the
 * provider took it, the portal settled it as an error). Nothing when the payment was not paid
 * (still pending, declined, a registration that charged nothing), when
 * the same refund is due already, or when what is left of the payment after earlier refunds is
 * nothing; never more than that. Answers the refund's id, or null.
 */
export async function scheduleRefund(
  tx: Queryable,
  input: {
    tenantId: string;
    paymentId: string;
    acceptanceId: string | null;
    amount: number;
    reason: RefundReason;
    /** The rejected change's event, where a rejection makes it due. */
    rejectedEventId?: string;
  },
): Promise<string | null> {
  const rows = await tx.query<{ id: string }>(
    `with payment as (
       select p.tenant_id, p.id, p.currency,
              p.amount - coalesce((select sum(r.amount) from payment_refunds r
                                    where r.tenant_id = p.tenant_id and r.payment_id = p.id), 0) as left_over
         from payments p
        where p.tenant_id = $1 and p.id = $2 and p.purpose = 'offers'
          -- Paid; or paid at the provider and settled as an error since nothing could apply.
          and (p.status = 'success' or (p.status = 'error' and $5 = 'not_applied'))
        for update)
     insert into payment_refunds (tenant_id, payment_id, acceptance_id, amount, currency, reason, rejected_event_id)
     select tenant_id, id, $3, least($4::numeric, left_over), currency, $5, $6::uuid from payment
      where least($4::numeric, left_over) > 0
     on conflict do nothing
     returning id`,
    [
      input.tenantId,
      input.paymentId,
      input.acceptanceId,
      input.amount,
      input.reason,
      input.rejectedEventId ?? null,
    ],
  );
  return rows[0]?.id ?? null;
}

/** What a rejected change's refund is: the subscriber is told in the rejection's e-mail and notice. */
export interface RejectionRefund {
  amount: number;
  currency: string;
  status: RefundRow['status'];
}

/** The refund the rejection of `eventId` made due, if any. */
export async function refundOfRejection(
  db: Queryable,
  tenantId: string,
  eventId: string,
): Promise<RejectionRefund | null> {
  const rows = await db.query<RejectionRefund>(
    `select amount::float8 as amount, currency, status from payment_refunds
      where tenant_id = $1 and rejected_event_id = $2::uuid
      order by created_at limit 1`,
    [tenantId, eventId],
  );
  return rows[0] ?? null;
}

/**
 * The refunds due by `now` (one never tried is due at once), oldest first, locked for the caller's
 * transaction; one another instance holds is skipped (every instance runs the job).
 */
export async function claimDueRefunds(tx: Queryable, now: Date, limit: number): Promise<RefundRow[]> {
  return tx.query<RefundRow>(
    `select ${REFUND_COLUMNS} from payment_refunds
      where status = 'due' and (attempts = 0 or next_attempt_at <= $1)
      order by next_attempt_at, id
      limit $2
      for update skip locked`,
    [now, limit],
  );
}

/** The provider took the refund: its id there. */
export async function markRefundIssued(
  tx: Queryable,
  refund: Pick<RefundRow, 'tenantId' | 'id'>,
  providerReference: string,
  now: Date,
): Promise<void> {
  await tx.query(
    `update payment_refunds set status = 'issued', provider_reference = $3, issued_at = $4,
            attempts = attempts + 1, last_error = null
      where tenant_id = $1 and id = $2`,
    [refund.tenantId, refund.id, providerReference, now],
  );
}

/** An attempt failed: tried again at `retryAt`, or failed for good when `retryAt` is null. */
export async function markRefundAttemptFailed(
  tx: Queryable,
  refund: Pick<RefundRow, 'tenantId' | 'id'>,
  error: string,
  retryAt: Date | null,
): Promise<void> {
  await tx.query(
    `update payment_refunds
        set attempts = attempts + 1, last_error = left($3, 500),
            status = case when $4::timestamptz is null then 'failed' else status end,
            next_attempt_at = coalesce($4::timestamptz, next_attempt_at)
      where tenant_id = $1 and id = $2`,
    [refund.tenantId, refund.id, error, retryAt],
  );
}

/** The refunds of a payment, oldest first (the operator's look, tests). */
export async function refundsOfPayment(
  db: Queryable,
  tenantId: string,
  paymentId: string,
): Promise<RefundRow[]> {
  return db.query<RefundRow>(
    `select ${REFUND_COLUMNS} from payment_refunds where tenant_id = $1 and payment_id = $2 order by created_at, id`,
    [tenantId, paymentId],
  );
}
