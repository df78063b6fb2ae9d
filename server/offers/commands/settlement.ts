/**
 * A pending offer payment's outcome (account-flows.md §3 Pending payment, §4 "Offer acceptance"):
 * the provider's report settles it, and a payment whose page expired is cancelled before anyone
 * looks at the offers it holds.
 */
import type { Subscription } from '../../../schemas/generated/subscription';
import { isOfferChange, settlePayment, type LifecycleState } from '../../../engine/domain/lifecycle';
import { recordEvent } from '../../events/recordEvent';
import {
  getSubscriptionForUser,
  loadLifecycle,
  lockSubscription,
  changeLifecycle,
} from '../../store/subscriptionStore';
import { getUserById } from '../../store/userStore';
import {
  acceptancesOfPayment,
  claimVoucherCode,
  findOffer,
  type AcceptanceSource,
} from '../../store/offerStore';
import {
  findPaymentRecord,
  paidAfterCancel,
  settlePaymentRecord,
  stalePendingPayments,
  type PaymentRow,
} from '../../store/paymentStore';
import { scheduleRefund } from '../../store/paymentRefundStore';
import { continueChangeOf } from '../../store/orderSystemOverlays';
import type { ServerTenant } from '../../tenancy/tenantContext';
import type { SettledStatus } from '../../payments/paymentProvider';
import { PAYMENT_EXPIRY_MINUTES } from '../../payments/paymentPages';
import { nextCycleOf, requireOfferSource, type OfferKit } from '../offerKit';

/**
 * How the offer commands settle a payment: by its purpose when the server gives a way to
 * (deps.settleAny, server/apiRoutes.ts), else as an offer payment (settle).
 */
export const settling = (kit: OfferKit) =>
  kit.settleAny ??
  ((tenant: ServerTenant, paymentId: string, status: SettledStatus) =>
    settle(kit, tenant, paymentId, status));

/**
 * Cancels the payments whose page expired while offers of these subscriptions still wait for
 * them (a popup never finished, nobody polled): until then their offers count as taken. Runs
 * before the caller's transaction, since settling locks the subscriptions itself.
 */
export async function expireStalePayments(
  kit: OfferKit,
  tenant: ServerTenant,
  subscriptionIds: readonly string[],
): Promise<void> {
  const before = new Date(kit.now().getTime() - PAYMENT_EXPIRY_MINUTES * 60_000);
  for (const paymentId of await stalePendingPayments(kit.db, tenant.id, subscriptionIds, before)) {
    await settling(kit)(tenant, paymentId, 'canceled');
  }
}

/**
 * Settles a pending payment (the provider's report) through each paid-for subscription's
 * lifecycle (settlePayment): on success every offer it pays for applies and the cross-selling
 * voucher is handed out; otherwise they fail. All or none: if one may no longer apply (a
 * subscription cancelled meanwhile is not renewed) the payment ends as an error. Once only: a
 * payment that is no longer pending is left alone (false).
 */
export async function settle(
  kit: OfferKit,
  tenant: ServerTenant,
  paymentId: string,
  status: SettledStatus,
): Promise<boolean> {
  return kit.db.transaction(async (tx) => {
    // Subscriptions first, then the payment: the order accept uses too (no deadlock between them).
    const acceptances = await acceptancesOfPayment(tx, tenant.id, paymentId);
    const subscriptionIds = [...new Set(acceptances.map((a) => a.subscriptionId))].sort();
    for (const id of subscriptionIds) await lockSubscription(tx, tenant.id, id);
    const payment = await findPaymentRecord(tx, tenant.id, paymentId, true);
    // Cancelled by the portal (a cancellation voids the offers waiting for it) while the provider's
    // page was still open, and paid there after all: nothing applies any more, the money goes back.
    if (payment?.status === 'canceled' && status === 'success') {
      if (!(await paidAfterCancel(tx, tenant.id, paymentId))) return false;
      await scheduleRefund(tx, {
        tenantId: tenant.id,
        paymentId,
        acceptanceId: null,
        amount: payment.amount,
        reason: 'not_applied',
      });
      await recordEvent(tx, tenant.id, 'payment.settled', {
        userId: payment.userId,
        paymentId,
        status: 'error',
        amount: payment.amount,
        currency: payment.currency,
        subscriptionIds,
      });
      return true;
    }
    if (!payment || payment.status !== 'pending') return false;
    const user = await getUserById(tx, tenant.id, payment.userId);
    const today = kit.today();
    let outcome: SettledStatus = status;
    // A subscription the order system deleted meanwhile took its acceptances with it: what is left
    // no longer adds up to the payment, so it pays for nothing (all or none), and a payment taken is
    // refunded (below).
    const covered = acceptances.reduce((sum, a) => sum + (a.paidAmount ?? 0), 0);
    if (acceptances.length === 0 || covered + 0.005 < payment.amount) outcome = 'error';
    const paidFor: Array<{ id: string; s: Subscription | null; state: LifecycleState }> = [];
    for (const id of subscriptionIds) {
      const state = await loadLifecycle(tx, tenant.id, id);
      if (!state) continue; // deleted meanwhile, with its acceptances
      const s = user
        ? await getSubscriptionForUser(tx, tenant.id, user.id, id, { locale: payment.locale })
        : null;
      paidFor.push({ id, s, state });
      const mine = acceptances.filter((a) => a.subscriptionId === id && a.status === 'pending');
      // What was bought must still be allowed now: the flow's rule and the lifecycle, checked again.
      const allowed =
        s !== null &&
        mine.every((a) => stillAllowed(a.source, s, tenant)) &&
        settlePayment(state, { paymentId, outcome: 'success', today, nextCycle: nextCycleOf(s, today) }).ok;
      if (!allowed) outcome = 'error';
    }
    let crossSelling: PaymentRow['crossSelling'] = null;
    for (const { id, s, state } of paidFor) {
      // Each subscription's changes belong to its own offer.accepted, recorded after them: not to
      // the event of the subscription before it (server/store/orderSystemOverlays.ts links the
      // writes after an event to it), or a rejection of one would take back the other's.
      await continueChangeOf(tx, null);
      const nextCycle = s ? nextCycleOf(s, today) : today;
      const result = await changeLifecycle(
        tx,
        tenant.id,
        id,
        () => settlePayment(state, { paymentId, outcome, today, nextCycle }),
        {
          userId: payment.userId,
          locale: tenant.defaultLocale,
        },
      );
      if (!result.ok || outcome !== 'success' || !user || !s) continue;
      for (const change of result.changes.filter(isOfferChange)) {
        const acceptance = acceptances.find((a) => a.subscriptionId === id && a.offerId === change.offerId);
        const offer = change.offerId ? await findOffer(tx, tenant.id, change.offerId) : null;
        if (!acceptance || !offer) continue;
        await kit.confirmApplied(tx, tenant, {
          user,
          locale: payment.locale,
          s,
          offer,
          source: acceptance.source,
          change,
          paymentId,
          cancelReason: acceptance.cancelReason,
        });
        if (!crossSelling && offer.offer.crossSelling) {
          const voucherCode = offer.voucherPool
            ? await claimVoucherCode(tx, tenant.id, offer.voucherPool, paymentId)
            : null;
          crossSelling = { ...offer.offer.crossSelling, voucherCode };
        }
      }
    }
    await settlePaymentRecord(tx, tenant.id, paymentId, outcome, crossSelling);
    // Paid at the provider for offers that may no longer apply: the money goes back (the refund job).
    if (status === 'success' && outcome === 'error')
      await scheduleRefund(tx, {
        tenantId: tenant.id,
        paymentId,
        acceptanceId: null,
        amount: payment.amount,
        reason: 'not_applied',
      });
    await recordEvent(tx, tenant.id, 'payment.settled', {
      userId: payment.userId,
      paymentId,
      status: outcome,
      amount: payment.amount,
      currency: payment.currency,
      subscriptionIds,
    });
    return true;
  });
}

/** Whether an offer may still be applied when its payment arrives (the rule of its flow, checked again). */
function stillAllowed(source: AcceptanceSource, s: Subscription, tenant: ServerTenant): boolean {
  try {
    requireOfferSource(source, s, tenant);
    return true;
  } catch {
    return false;
  }
}
