/**
 * The refund job (docs/architecture.md "Payments": "Refunds"): money a subscriber paid online for
 * something the portal could not give goes back through the payment's own provider. A refund is
 * made due where that is decided (server/store/paymentRefundStore.ts scheduleRefund: the order
 * system rejected a paid offer, or a paid payment's offers could no longer apply); each round of
 * this job takes the due ones, one transaction each under the refund's row lock, asks the provider
 * with the refund's id as the idempotency key, and records the answer with its account event
 * (`payment.refunded`) and, once issued, the subscriber's e-mail. A provider out of reach is asked
 * again later (REFUND_RETRY_MINUTES); one that refuses, or the last attempt, leaves the refund
 * failed: the event says so, the log and `portal_payment_refunds_total` tell the operator.
 */
import { formatMoney } from '../../engine/domain/money';
import { formatDate, utcDay } from '../../engine/domain/dates';
import type { Locale } from '../../engine/domain/locales';
import type { Database, Queryable } from '../db/database';
import { recordEvent } from '../events/recordEvent';
import type { Logger } from '../http/requestLog';
import { paymentRefunds as refundsCounter, tenantLabel } from '../metrics/registry';
import { offerTexts } from '../offers/recommendations';
import { enqueueMail } from '../store/mailQueueStore';
import {
  claimDueRefunds,
  markRefundAttemptFailed,
  markRefundIssued,
  type RefundRow,
} from '../store/paymentRefundStore';
import { findPaymentRecord, offersPaidBy, type PaymentRow } from '../store/paymentStore';
import type { OfferRow } from '../store/offerStore';
import { getSubscriptionForUser } from '../store/subscriptionStore';
import { getUserById } from '../store/userStore';
import type { ServerTenant } from '../tenancy/tenantContext';
import { textsIn } from '../texts/serverTexts';
import { RefundRefused, type PaymentProvider } from './paymentProvider';

/** Minutes to the next attempt after each failed one; after the last, the refund has failed. */
export const REFUND_RETRY_MINUTES = [1, 5, 30, 120, 720, 1440] as const;
/** How often the job looks for due refunds (server/main.ts). */
export const REFUND_ROUND_MS = 60_000;
/** Refunds asked per round. */
const REFUND_BATCH = 50;

export interface RefundJobDeps {
  db: Database;
  now: () => Date;
  log: Logger;
  mailFrom: string;
  tenants: (id: string) => ServerTenant | undefined;
  providers: ReadonlyMap<string, PaymentProvider>;
}

/** What a refund gave back, named for its event and its mail. */
interface RefundSubject {
  subscriptionId: string | null;
  offerId: string | null;
  orderNumber: string | null;
  offer: OfferRow | null;
}

/** One round: every refund due now, each in its own transaction. */
export function paymentRefundRound(
  deps: RefundJobDeps,
): () => Promise<{ issued: number; failed: number; retried: number }> {
  return async () => {
    const counts = { issued: 0, failed: 0, retried: 0 };
    for (let handled = 0; handled < REFUND_BATCH; handled++) {
      const outcome = await deps.db.transaction(async (tx) => {
        const [refund] = await claimDueRefunds(tx, deps.now(), 1);
        return refund ? refundOne(tx, deps, refund) : null;
      });
      if (outcome === null) break;
      counts[outcome] += 1;
    }
    return counts;
  };
}

async function refundOne(
  tx: Queryable,
  deps: RefundJobDeps,
  refund: RefundRow,
): Promise<'issued' | 'failed' | 'retried'> {
  const tenant = deps.tenants(refund.tenantId);
  const payment = await findPaymentRecord(tx, refund.tenantId, refund.paymentId);
  const provider = payment ? deps.providers.get(payment.provider) : undefined;
  const subject = payment ? await subjectOf(tx, refund, payment) : null;
  const label = { tenant: tenantLabel(refund.tenantId), provider: payment?.provider ?? 'unknown' };
  let reference: string;
  try {
    if (!tenant) throw new Error(`the tenant ${refund.tenantId} is not served by this instance`);
    if (!payment || !provider) throw new RefundRefused('the payment or its provider is unknown');
    reference = (await provider.refund(tenant, payment, refund)).reference;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const wait = REFUND_RETRY_MINUTES[refund.attempts];
    const last = error instanceof RefundRefused || wait === undefined;
    const retryAt = last ? null : new Date(deps.now().getTime() + wait * 60_000);
    await markRefundAttemptFailed(tx, refund, message, retryAt);
    deps.log({
      level: last ? 'error' : 'warn',
      msg: last ? 'refund failed: make it at the provider' : 'refund not issued yet; asked again later',
      tenant: refund.tenantId,
      payment: refund.paymentId,
      refund: refund.id,
      amount: `${refund.amount.toFixed(2)} ${refund.currency}`,
      error: message,
    });
    refundsCounter.inc({ ...label, outcome: last ? 'failed' : 'retry' });
    if (!last) return 'retried';
    if (payment) await recordRefundEvent(tx, refund, payment, subject, { status: 'failed', error: message });
    return 'failed';
  }
  await markRefundIssued(tx, refund, reference, deps.now());
  await recordRefundEvent(tx, refund, payment!, subject, { status: 'issued', reference });
  await mailRefund(tx, deps, tenant!, refund, payment!, subject);
  refundsCounter.inc({ ...label, outcome: 'issued' });
  return 'issued';
}

/** The subscription and offer a rejected acceptance's refund gives back; none for a whole payment. */
async function subjectOf(tx: Queryable, refund: RefundRow, payment: PaymentRow): Promise<RefundSubject> {
  const paid = refund.acceptanceId
    ? (await offersPaidBy(tx, refund.tenantId, payment.id)).find(
        (line) => line.acceptanceId === refund.acceptanceId,
      )
    : undefined;
  return {
    subscriptionId: paid?.subscriptionId ?? null,
    offerId: paid?.offer.id ?? null,
    orderNumber: paid?.orderNumber ?? null,
    offer: paid?.offer ?? null,
  };
}

function recordRefundEvent(
  tx: Queryable,
  refund: RefundRow,
  payment: PaymentRow,
  subject: RefundSubject | null,
  outcome: { status: 'issued'; reference: string } | { status: 'failed'; error: string },
) {
  return recordEvent(tx, refund.tenantId, 'payment.refunded', {
    userId: payment.userId,
    paymentId: payment.id,
    refundId: refund.id,
    status: outcome.status,
    reason: refund.reason,
    amount: refund.amount,
    currency: refund.currency,
    subscriptionId: subject?.subscriptionId ?? null,
    offerId: subject?.offerId ?? null,
    providerReference: outcome.status === 'issued' ? outcome.reference : null,
    error: outcome.status === 'failed' ? outcome.error.slice(0, 500) : null,
  });
}

/** The subscriber's e-mail, in the language the payment was made in; none for an account gone. */
async function mailRefund(
  tx: Queryable,
  deps: RefundJobDeps,
  tenant: ServerTenant,
  refund: RefundRow,
  payment: PaymentRow,
  subject: RefundSubject | null,
): Promise<void> {
  const user = await getUserById(tx, tenant.id, payment.userId);
  if (!user?.email) return;
  const locale: Locale = tenant.locales.includes(payment.locale) ? payment.locale : tenant.defaultLocale;
  const t = textsIn(locale, 'payments');
  const amount = formatMoney(refund.amount, refund.currency, locale);
  let why = t('refund.why.not_applied');
  if (refund.reason === 'change_rejected') {
    const s =
      subject?.subscriptionId && subject.offer
        ? await getSubscriptionForUser(tx, tenant.id, user.id, subject.subscriptionId, { locale })
        : null;
    why =
      s && subject?.offer
        ? t('refund.why.change_rejected', {
            offer: offerTexts(subject.offer, locale).title,
            subscription: s.displayName,
            orderNumber: subject.orderNumber ?? s.orderNumber,
          })
        : t('refund.why.change_rejectedUnnamed');
  }
  const values = {
    tenant: tenant.name,
    amount,
    to: t(`refund.to.${payment.method}`),
    date: formatDate(utcDay(new Date(payment.createdAt)), locale),
    why,
  };
  await enqueueMail(tx, {
    tenantId: tenant.id,
    to: user.email,
    from: deps.mailFrom,
    subject: t('refund.subject', values),
    text: t('refund.body', values),
  });
}
