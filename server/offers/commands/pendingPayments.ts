/** A pending offer payment as its payer sees it (account-flows.md §3 Pending payment, §7 pending-payments). */
import type { Locale } from '../../../engine/domain/locales';
import type { OpenPayment, PendingPayment } from '../../../schemas/generated/offers';
import { wordsIn } from '../../../engine/domain/language';
import { notFound } from '../../http/errors';
import { getSubscriptionForUser } from '../../store/subscriptionStore';
import { acceptancesOfPayment } from '../../store/offerStore';
import {
  cancelCauseOf,
  findPaymentRecord,
  orderNumbersWaitingFor,
  pendingOfferPaymentsOf,
  type PaymentRow,
} from '../../store/paymentStore';
import { isExpired } from '../../payments/paymentPages';
import type { Caller, OfferKit } from '../offerKit';
import { settling } from './settlement';

/** GET /subscriptions/{id}/pending-payments/{pendingPaymentId} (§3 Pending payment), the caller's own only. */
export async function pendingPayment(
  kit: OfferKit,
  caller: Caller,
  subscriptionId: string,
  paymentId: string,
): Promise<PendingPayment> {
  const payment = await ownPayment(kit, caller, subscriptionId, paymentId);
  if (payment.status === 'pending' && isExpired(payment, kit.now())) {
    await settling(kit)(caller.tenant, paymentId, 'canceled');
    return pendingPaymentView((await findPaymentRecord(kit.db, caller.tenant.id, paymentId))!, caller.locale);
  }
  return pendingPaymentView(payment, caller.locale);
}

/**
 * GET /subscriptions/{id}/pending-payments: the caller's offer payments for the subscription that
 * still wait for their page (account-flows.md §4 "processing"), so that a page loaded again, after a
 * reload or in another tab, says why an offer is not offered and lets the payment be given up. A
 * page that has expired meanwhile is settled as cancelled on the way and left out.
 */
export async function openPayments(
  kit: OfferKit,
  caller: Caller,
  subscriptionId: string,
): Promise<OpenPayment[]> {
  if (!(await getSubscriptionForUser(kit.db, caller.tenant.id, caller.user.id, subscriptionId)))
    throw notFound('There is no such subscription on your account.');
  const open: OpenPayment[] = [];
  for (const payment of await pendingOfferPaymentsOf(
    kit.db,
    caller.tenant.id,
    caller.user.id,
    subscriptionId,
  )) {
    if (isExpired(payment, kit.now())) await settling(kit)(caller.tenant, payment.id, 'canceled');
    else
      open.push({
        id: payment.id,
        subscriptionId,
        amount: payment.amount,
        currency: payment.currency,
        method: payment.method,
        createdAt: payment.createdAt.toISOString(),
        orderNumbers: await orderNumbersWaitingFor(kit.db, caller.tenant.id, payment.id),
      });
  }
  return open;
}

/** The popup was closed without an outcome: a payment still pending is cancelled (its page stops working). */
export async function abandon(
  kit: OfferKit,
  caller: Caller,
  subscriptionId: string,
  paymentId: string,
): Promise<PendingPayment> {
  await ownPayment(kit, caller, subscriptionId, paymentId);
  await settling(kit)(caller.tenant, paymentId, 'canceled');
  return pendingPaymentView((await findPaymentRecord(kit.db, caller.tenant.id, paymentId))!, caller.locale);
}

export function pendingPaymentView(payment: PaymentRow, locale: Locale): PendingPayment {
  const view: PendingPayment = { status: payment.status };
  const because = cancelCauseOf(payment);
  if (because) view.canceledBecause = because;
  if (payment.status === 'success' && payment.crossSelling) {
    const c = payment.crossSelling;
    view.crossSellingOffer = {
      product: { title: wordsIn(c.titles, locale) ?? '', images: [{ url: c.imageUrl }], url: c.url },
      voucherCode: c.voucherCode,
    };
  }
  return view;
}

async function ownPayment(
  kit: OfferKit,
  caller: Caller,
  subscriptionId: string,
  paymentId: string,
): Promise<PaymentRow> {
  const { db } = kit;
  const payment = await findPaymentRecord(db, caller.tenant.id, paymentId);
  const acceptances = payment ? await acceptancesOfPayment(db, caller.tenant.id, paymentId) : [];
  const paysFor =
    acceptances.some((a) => a.subscriptionId === subscriptionId) ||
    payment?.details.subscriptionId === subscriptionId;
  if (!payment || payment.userId !== caller.user.id || !paysFor) {
    throw notFound('There is no such payment for this subscription.');
  }
  // A partial login may only look at its own subscription (the session scope is checked by getSubscriptionForUser).
  if (!(await getSubscriptionForUser(db, caller.tenant.id, caller.user.id, subscriptionId)))
    throw notFound('There is no such payment for this subscription.');
  return payment;
}
