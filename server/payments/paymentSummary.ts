/**
 * What a payment pays for, in one language: the page names the
 * subscription, order number and amount of the payment it was opened for, in the language of the
 * page that opened it.
 *
 * Derived from what the payment really pays for — its accepted offers with their subscriptions, or
 * for a payment-method change the subscription in its details — and never from the `description`
 * stored at its creation: that text is frozen in the language of the request that created it, and
 * the page used to print it. A subscriber renewing one subscription saw another's order there, in
 * German on an English screen: the renewal repeated an accept whose offer still waited for an older
 * payment, that payment was reopened, and its stored text (the seeded demo payment's named the
 * wrong order, server/seed/entities/offers.ts) and stored locale were shown as they were.
 */
import type { Queryable } from '../db/database';
import type { Locale } from '../../engine/domain/locales';
import { offerTexts } from '../offers/recommendations';
import { paysOnline } from '../../engine/domain/offers';
import type { PaymentRow } from '../store/paymentStore';
import { offersPaidBy, orderNumberOf } from '../store/paymentStore';
import { getSubscriptionForUser } from '../store/subscriptionStore';

export type NewPaymentMethod = 'credit_card' | 'paypal';

export interface PaymentLine {
  orderNumber: string;
  /** The subscription's name in the page's language; null when the payer no longer sees it. */
  subscription: string | null;
  /** The accepted offer's title in the page's language; null for a payment-method change. */
  offer: string | null;
}

export interface PaymentSummary {
  lines: PaymentLine[];
  /** A payment-method change: the method being registered (nothing is bought). */
  newMethod: NewPaymentMethod | null;
  amount: number;
  currency: string;
}

export async function summarizePayment(
  db: Queryable,
  tenantId: string,
  payment: PaymentRow,
  locale: Locale,
): Promise<PaymentSummary> {
  const base = { amount: payment.amount, currency: payment.currency };
  // The payer's own view of the subscription gives its name in `locale` (server/store/localizedDetails.ts).
  const nameOf = async (subscriptionId: string) =>
    (await getSubscriptionForUser(db, tenantId, payment.userId, subscriptionId, { locale }))?.displayName ??
    null;

  if (payment.purpose === 'payment-method') {
    const subscriptionId = String(payment.details.subscriptionId ?? '');
    const orderNumber = subscriptionId ? await orderNumberOf(db, tenantId, subscriptionId) : null;
    const newMethod: NewPaymentMethod = payment.details.method === 'paypal' ? 'paypal' : 'credit_card';
    const lines = orderNumber
      ? [{ orderNumber, subscription: await nameOf(subscriptionId), offer: null }]
      : [];
    return { ...base, lines, newMethod };
  }

  const lines: PaymentLine[] = [];
  // The offers this payment pays: a bulk renewal's invoice item waits for it but is invoiced.
  const paidOnline = (await offersPaidBy(db, tenantId, payment.id)).filter((paid) =>
    paysOnline(paid.offer.paymentProvider),
  );
  for (const paid of paidOnline) {
    lines.push({
      orderNumber: paid.orderNumber,
      subscription: await nameOf(paid.subscriptionId),
      offer: offerTexts(paid.offer, locale).title,
    });
  }
  return { ...base, lines, newMethod: null };
}
