/**
 * Offers of the cancellation, renewal, bulk renewal and upgrade flows (account-flows.md §3
 * Recommendation, §4 "Offer acceptance", "Bulk renewal", §7 recommendations / accept /
 * acceptAllRecommendations / pending-payments). Decides, in one transaction per change, with the
 * capability rules of engine/domain the screens use; the SQL is in server/store/offerStore.ts.
 *
 *  - An offer paid by invoice or direct debit applies at once (answer url null).
 *  - An offer paid by card or PayPal creates a pending payment and answers the provider's page; the
 *    payment's settlement applies every offer it pays for, or none (server/payments/).
 *  - A second accept of an offer by the same account while its payment is pending, or within
 *    minutes of its being applied, answers as the first did and changes nothing; changes to one
 *    subscription are serialized by its row lock (subscriptions first, then payments, everywhere).
 *  - Each source keeps to its own kind of offer, a retention offer is taken once a year, and offers
 *    billed by invoice or direct debit are for the ordering party (the security review's findings).
 */
import type { Database, Queryable } from '../db/database';
import type { Locale } from '../../engine/domain/locales';
import type { AcceptAnswer, PendingPayment, Recommendation } from '../../schemas/generated/offers';
import type { Subscription } from '../../schemas/generated/subscription';
import type { RecommendationsQuery } from '../../schemas/generated/recommendations-query';
import type { AcceptRecommendationQuery } from '../../schemas/generated/accept-recommendation-query';
import type { BulkRenewalRequest } from '../../schemas/generated/bulk-renewal-request';
import { isBundleSlave, isExternallyManaged, isOrderingParty } from '../../engine/domain/capabilities';
import { cancellationStart, CANCEL_CATEGORY } from '../../engine/domain/cancellation';
import {
  BULK_PAYMENT_CONFLICT_MESSAGE,
  bulkSelectionKey,
  hasPaymentConflict,
  isBulkRenewalSubscription,
  offerCategory,
  paysOnline,
  type PaymentProvider as OfferPaymentProvider,
  type UpgradeTime,
} from '../../engine/domain/offers';
import { HttpError, badRequest, notFound } from '../http/errors';
import { enqueueMail } from '../mail/mailQueue';
import { recordEvent } from '../events/recordEvent';
import {
  getSubscriptionForUser,
  listSubscriptionsForUser,
  loadLifecycle,
  lockSubscription,
  saveLifecycle,
  changeLifecycle,
} from '../store/subscriptionStore';
import {
  acceptOffer,
  addMonths,
  isOfferTaken,
  openOffers,
  settlePayment,
  isOfferChange,
  type OfferChange,
  type LifecycleState,
} from '../../engine/domain/lifecycle';
import { getUserById } from '../store/userStore';
import {
  acceptancesOfPayment,
  claimVoucherCode,
  findOffer,
  listCancellationReasons,
  listOffers,
  type AcceptanceSource,
  type OfferRow,
} from '../store/offerStore';
import {
  findPaymentRecord,
  settlePaymentRecord,
  stalePendingPayments,
  type PaymentRow,
} from '../store/paymentStore';
import { refuse, refusedTransition, requireCapability, requireFeature } from '../tenancy/refusals';
import type { ServerTenant } from '../tenancy/tenantContext';
import type { SettledStatus } from '../payments/paymentProvider';
import { isExpired, PAYMENT_EXPIRY_MINUTES, type PaymentPages } from '../payments/paymentPages';
import { offerTexts, toRecommendation } from './recommendations';
import { offerAcceptedMail } from './offerMails';
import { wordsIn } from '../../engine/domain/language';
import { utcDay } from '../../engine/domain/dates';

export interface OfferServiceDeps {
  db: Database;
  mailFrom: string;
  now: () => Date;
  /** Starts payments on the tenant's provider (server/payments/paymentPages.ts). */
  paymentPages: PaymentPages;
  /**
   * Settles any payment by its purpose (server/apiRoutes.ts): a popup closed without an outcome
   * cancels an offer payment and a payment method registration alike.
   */
  settleAny?: (tenant: ServerTenant, paymentId: string, status: SettledStatus) => Promise<boolean>;
}

interface Caller {
  tenant: ServerTenant;
  user: { id: string; email: string };
  locale: Locale;
  /** The tenant portal's base path, for the payment page's URL. */
  basePath: string;
}

/** The capability rule behind each source (portal-core.md §6; account-flows.md §6 bulk renewal: role WE). */
export function requireOfferSource(source: AcceptanceSource, s: Subscription, tenant: ServerTenant): void {
  switch (source) {
    case 'cancellation': {
      const start = cancellationStart(s);
      if (start === 'already_cancelled')
        throw new HttpError(409, 'already_cancelled', 'This subscription is already cancelled.');
      if (start === 'externally_managed') throw externallyManaged(s);
      requireCapability('cancellation', s, tenant);
      return;
    }
    case 'renewal':
      return requireCapability('renewal', s, tenant);
    case 'upgrade':
      return requireCapability('upgrade', s, tenant);
    case 'bulk-renewal': {
      // Per publication: the bulk-renewal slice's gate has asked for the flag, each subscription's
      // publication blacklist is asked here.
      requireFeature(tenant, 'renewal', s.publication);
      if (!tenant.renewal.bulkRenewal) throw refuse.featureDisabled('bulk renewal');
      const autoRenewing = (s.renewal?.autoRenewal ?? false) && !tenant.renewal.forceWithAutoRenewal;
      if (!isBulkRenewalSubscription(s) || autoRenewing || isBundleSlave(s) || isExternallyManaged(s)) {
        throw refuse.notAllowed('Bulk renewal concerns renewable subscriptions you receive (role WE).');
      }
    }
  }
}

/** What an offer of each source may do (a category named in the query cannot lend one flow another's offers). */
const EFFECTS_OF_SOURCE: Record<AcceptanceSource, ReadonlyArray<OfferRow['effect']['kind']>> = {
  cancellation: ['retain', 'extend'],
  renewal: ['extend'],
  'bulk-renewal': ['extend'],
  upgrade: ['upgrade'],
};

/**
 * Offers paid by invoice or direct debit are billed to the ordering party, so only the ordering party
 * may accept them; a recipient (a gift's, say) may only pay online themselves.
 */
function requirePayer(s: Subscription, offer: OfferRow): void {
  if (!paysOnline(offer.paymentProvider) && !isOrderingParty(s)) {
    throw refuse.notAllowed('Offers paid by invoice or direct debit are for the ordering party.');
  }
}

export const externallyManaged = (s: Pick<Subscription, 'orderNumber'>) =>
  new HttpError(
    403,
    'externally_managed',
    `The subscription ${s.orderNumber} is managed externally and cannot be cancelled here.`,
    { orderNumber: s.orderNumber },
  );

/** The category a source's offers come from (the query's first, then the tenant's, then §9's default). */
function categoryOf(source: AcceptanceSource, tenant: ServerTenant, queried: string | undefined): string {
  if (source === 'cancellation') return CANCEL_CATEGORY;
  // A retention offer is only for someone about to cancel: no other flow may name its category.
  if (queried === CANCEL_CATEGORY)
    throw badRequest('validation_failed', 'The category CANCEL belongs to the cancellation flow.');
  if (source === 'upgrade') return offerCategory('upgrade', queried, tenant.upgrade.recommendationCategory);
  return offerCategory('renewal', queried, tenant.renewal.recommendationCategory);
}

/** Upgrade offers only at the times the tenant allows (tenant file upgrade.upgradeTimes). */
const upgradeTimeAllowed = (tenant: ServerTenant, offer: OfferRow) =>
  offer.offer.kind !== 'upgradeOption' ||
  (tenant.upgrade.upgradeTimes as readonly string[]).includes(offer.offer.upgradeTime ?? 'NOW');

export function createOfferService(deps: OfferServiceDeps) {
  const { db } = deps;

  /** The offers of a source for the subscription, in the caller's language. */
  async function offersFor(
    tx: Queryable,
    tenant: ServerTenant,
    s: Subscription,
    source: AcceptanceSource,
    category: string,
    cancelReason?: string,
  ): Promise<OfferRow[]> {
    const offers = await listOffers(tx, tenant.id, s.publication, category);
    return offers.filter(
      (offer) =>
        EFFECTS_OF_SOURCE[source].includes(offer.effect.kind) &&
        upgradeTimeAllowed(tenant, offer) &&
        (source !== 'cancellation' ||
          offer.reasons === null ||
          (cancelReason !== undefined && offer.reasons.includes(cancelReason))),
    );
  }

  async function subscriptionOf(
    tx: Queryable,
    caller: Caller,
    subscriptionId: string,
  ): Promise<Subscription> {
    const s = await getSubscriptionForUser(tx, caller.tenant.id, caller.user.id, subscriptionId, {
      locale: caller.locale,
    });
    if (!s) throw refuse.notYours('There is no such subscription on your account.');
    return s;
  }

  /** The subscription's lifecycle (engine/domain/lifecycle.ts), under the caller's lock when changing it. */
  async function lifecycleOf(
    tx: Queryable,
    tenant: ServerTenant,
    subscriptionId: string,
  ): Promise<LifecycleState> {
    const state = await loadLifecycle(tx, tenant.id, subscriptionId);
    if (!state) throw refuse.notYours('There is no such subscription on your account.');
    return state;
  }

  /** The lifecycle request of accepting an offer (without its payment). */
  function acceptRequest(
    s: Subscription,
    offer: OfferRow,
    source: AcceptanceSource,
    upgradeTime: UpgradeTime | null,
  ) {
    const today = utcDay(deps.now());
    return {
      offerId: offer.id,
      source,
      effect: offer.effect,
      upgradeTime,
      today,
      nextCycle: nextCycleOf(s, today),
    };
  }

  /**
   * Cancels the payments whose page expired while offers of these subscriptions still wait for
   * them (a popup never finished, nobody polled): until then their offers count as taken. Runs
   * before the caller's transaction, since settling locks the subscriptions itself.
   */
  async function expireStalePayments(
    tenant: ServerTenant,
    subscriptionIds: readonly string[],
  ): Promise<void> {
    const before = new Date(deps.now().getTime() - PAYMENT_EXPIRY_MINUTES * 60_000);
    for (const paymentId of await stalePendingPayments(db, tenant.id, subscriptionIds, before)) {
      await (deps.settleAny ?? service.settle)(tenant, paymentId, 'canceled');
    }
  }

  /** Records, mails and reports one applied offer (inside the transaction that applied it). */
  async function confirmApplied(
    tx: Queryable,
    tenant: ServerTenant,
    input: {
      user: { id: string; email: string };
      locale: Locale;
      s: Subscription;
      offer: OfferRow;
      source: AcceptanceSource;
      change: OfferChange;
      paymentId: string | null;
    },
  ) {
    const { s, offer } = input;
    await recordEvent(tx, tenant.id, 'offer.accepted', {
      userId: input.user.id,
      subscriptionId: s.id,
      orderNumber: s.orderNumber,
      offerId: offer.id,
      source: input.source,
      amount: offer.price,
      currency: offer.currency,
      paymentId: input.paymentId,
      change: input.change.kind,
      effectiveDate: input.change.date,
    });
    const revoked = input.change.revokedCancellation;
    if (revoked && input.change.date) {
      // The order system withdraws the cancellation: said as a change of its own, not only as an extension.
      await recordEvent(tx, tenant.id, 'subscription.cancellation_revoked', {
        userId: input.user.id,
        subscriptionId: s.id,
        orderNumber: s.orderNumber,
        offerId: offer.id,
        cancelledTo: revoked.effectiveDate,
        issueNumber: revoked.issueNumber,
        newEnd: input.change.date,
      });
    }
    const mail = offerAcceptedMail(input.locale, {
      tenant: tenant.name,
      subscription: s.displayName,
      orderNumber: s.orderNumber,
      offer: offerTexts(offer, input.locale).title,
      amount: offer.price,
      currency: offer.currency,
      paidOnline: input.paymentId !== null,
      change: input.change,
    });
    await enqueueMail(tx, { tenantId: tenant.id, to: input.user.email, from: deps.mailFrom, ...mail });
  }

  /** A pending payment for these offers, and the provider's page to pay it on (one payment for all). */
  function startPayment(
    tx: Queryable,
    caller: Caller,
    offers: OfferRow[],
    description: string,
  ): Promise<{ id: string; url: string }> {
    return deps.paymentPages.start(tx, {
      tenant: caller.tenant,
      userId: caller.user.id,
      locale: caller.locale,
      basePath: caller.basePath,
      method: offers.some((offer) => offer.paymentProvider === 'CREDIT_CARD') ? 'CREDIT_CARD' : 'PAYPAL',
      amount: offers.reduce((sum, offer) => sum + offer.price, 0),
      currency: offers[0].currency,
      description,
      purpose: 'offers',
    });
  }

  const service = {
    expireStalePayments,

    /**
     * GET /subscriptions/{id}/recommendations (§7): the offers of the source's category that are
     * still open to the subscription (engine/domain/lifecycle.ts openOffers: one accepted or waiting
     * for its payment is not offered again).
     */
    async recommendations(
      caller: Caller,
      subscriptionId: string,
      query: RecommendationsQuery,
    ): Promise<Recommendation[]> {
      const s = await subscriptionOf(db, caller, subscriptionId);
      await expireStalePayments(caller.tenant, [s.id]);
      requireOfferSource(query.source, s, caller.tenant);
      const offers = await offersFor(
        db,
        caller.tenant,
        s,
        query.source,
        categoryOf(query.source, caller.tenant, query.category),
      );
      return openOffers(
        await lifecycleOf(db, caller.tenant, s.id),
        offers,
        utcDay(deps.now()),
        query.source,
      ).map((offer) => toRecommendation(offer, caller.locale));
    },

    /** The retention offers shown for a reason (cancellation infos), unless the tenant overrides them; open ones only. */
    async retentionOffers(
      tx: Queryable,
      tenant: ServerTenant,
      s: Subscription,
      reason: string,
      locale: Locale,
    ): Promise<Recommendation[]> {
      if (!tenant.cancellation.showRetentionOffers) return [];
      const offers = await offersFor(tx, tenant, s, 'cancellation', CANCEL_CATEGORY, reason);
      return openOffers(await lifecycleOf(tx, tenant, s.id), offers, utcDay(deps.now()), 'cancellation').map(
        (offer) => toRecommendation(offer, locale),
      );
    },

    /**
     * POST /subscriptions/{id}/recommendations/{recommendationId}/accept (§7): through the
     * lifecycle's acceptOffer, so an offer is accepted once (a second accept, even a double submit,
     * is 409 offer_already_accepted and changes nothing).
     */
    async accept(
      caller: Caller,
      subscriptionId: string,
      offerId: string,
      query: AcceptRecommendationQuery,
    ): Promise<AcceptAnswer> {
      const { tenant } = caller;
      await expireStalePayments(tenant, [(await subscriptionOf(db, caller, subscriptionId)).id]);
      return db.transaction(async (tx) => {
        await lockSubscription(tx, tenant.id, subscriptionId);
        const s = await subscriptionOf(tx, caller, subscriptionId);
        const source = query.source;
        requireOfferSource(source, s, tenant);
        const category = categoryOf(source, tenant, query.category);
        if (source === 'cancellation') {
          if (!query.cancelReason)
            throw badRequest(
              'validation_failed',
              'A retention offer is accepted for a cancellation reason (cancelReason).',
            );
          const reasons = await listCancellationReasons(tx, tenant.id, s.publication);
          if (!reasons.some((r) => r.code === query.cancelReason))
            throw badRequest('validation_failed', 'Unknown cancellation reason.');
        }
        const offer = (await offersFor(tx, tenant, s, source, category, query.cancelReason)).find(
          (o) => o.id === offerId,
        );
        if (!offer) throw notFound('This offer is not available for this subscription.');
        const upgradeTime: UpgradeTime | null =
          offer.offer.kind === 'upgradeOption' ? (offer.offer.upgradeTime ?? 'NOW') : null;
        if (query.upgradeTime && upgradeTime && query.upgradeTime !== upgradeTime)
          throw badRequest('validation_failed', `This offer takes effect ${upgradeTime}.`);
        requirePayer(s, offer);

        const state = await lifecycleOf(tx, tenant, s.id);
        if (isOfferTaken(state, offer.id, utcDay(deps.now())))
          throw refusedTransition('offer_already_accepted');
        const request = acceptRequest(s, offer, source, upgradeTime);
        // Whether it may apply is decided before anyone is sent to pay for it.
        const check = acceptOffer(state, { ...request, paymentId: null });
        if (!check.ok) throw refusedTransition(check.refusal);
        const context = {
          userId: caller.user.id,
          locale: tenant.defaultLocale,
          cancelReason: query.cancelReason ?? null,
        };

        if (paysOnline(offer.paymentProvider)) {
          const payment = await startPayment(
            tx,
            caller,
            [offer],
            `${s.displayName} (${s.orderNumber}): ${offerTexts(offer, caller.locale).title}`,
          );
          const result = acceptOffer(state, { ...request, paymentId: payment.id });
          if (!result.ok) throw refusedTransition(result.refusal);
          await saveLifecycle(tx, tenant.id, s.id, state, result.state, context);
          return {
            url: payment.url,
            status: 'pending',
            pendingPayment: { id: payment.id, subscriptionId: s.id },
          };
        }
        await saveLifecycle(tx, tenant.id, s.id, state, check.state, context);
        for (const change of check.changes.filter(isOfferChange))
          await confirmApplied(tx, tenant, {
            user: caller.user,
            locale: caller.locale,
            s,
            offer,
            source,
            change,
            paymentId: null,
          });
        return { url: null, status: 'applied' };
      });
    },

    /** POST /subscriptions/acceptAllRecommendations (§4 "Bulk renewal", §5 payment conflict): one payment for all. */
    async acceptAll(caller: Caller, request: BulkRenewalRequest): Promise<AcceptAnswer> {
      const { tenant } = caller;
      const entries = Object.entries(request.selectedRecommendations);
      const chosen = entries.map(
        ([, value]) => value!.paymentProviders[0].PAYMENT_PROVIDER as OfferPaymentProvider,
      );
      if (hasPaymentConflict(chosen)) throw badRequest('payment_conflict', BULK_PAYMENT_CONFLICT_MESSAGE);
      const keys = new Set(entries.map(([key]) => key));
      await expireStalePayments(
        tenant,
        (await listSubscriptionsForUser(db, tenant.id, caller.user.id))
          .filter((x) => keys.has(bulkSelectionKey(x)))
          .map((x) => x.id),
      );
      return db.transaction(async (tx) => {
        // Lock first, in one order (as every flow does), then read what the locks protect.
        const listed = await listSubscriptionsForUser(tx, tenant.id, caller.user.id);
        for (const id of listed
          .filter((x) => keys.has(bulkSelectionKey(x)))
          .map((x) => x.id)
          .sort())
          await lockSubscription(tx, tenant.id, id);
        const mine = await listSubscriptionsForUser(tx, tenant.id, caller.user.id, { locale: caller.locale });
        const picked: Array<{ s: Subscription; offer: OfferRow; state: LifecycleState }> = [];
        for (const [key, selection] of entries) {
          const value = selection!;
          const s = mine.find((candidate) => bulkSelectionKey(candidate) === key);
          if (!s) throw refuse.notYours(`There is no subscription ${key} on your account.`);
          requireOfferSource('bulk-renewal', s, tenant);
          const offers = await offersFor(
            tx,
            tenant,
            s,
            'bulk-renewal',
            categoryOf('bulk-renewal', tenant, undefined),
          );
          const offer = offers.find((o) => o.id === value.recommendationId);
          if (!offer)
            throw notFound(`The offer ${value.recommendationId} is not available for ${s.orderNumber}.`);
          if (offer.paymentProvider !== value.paymentProviders[0].PAYMENT_PROVIDER)
            throw badRequest(
              'validation_failed',
              `The offer ${offer.id} is paid by ${offer.paymentProvider}.`,
            );
          requirePayer(s, offer);
          const state = await lifecycleOf(tx, tenant, s.id);
          // Each one through the lifecycle: an offer already taken for one of them refuses the whole order.
          const check = acceptOffer(state, {
            ...acceptRequest(s, offer, 'bulk-renewal', null),
            paymentId: null,
          });
          if (!check.ok) {
            const refused = refusedTransition(check.refusal);
            throw new HttpError(refused.status, refused.code, `${s.orderNumber}: ${refused.message}`, {
              orderNumber: s.orderNumber,
            });
          }
          picked.push({ s, offer, state });
        }
        const context = { userId: caller.user.id, locale: tenant.defaultLocale };
        const online = picked.filter(({ offer }) => paysOnline(offer.paymentProvider));
        if (online.length > 0) {
          const description = picked
            .map(({ s, offer }) => `${s.orderNumber}: ${offerTexts(offer, caller.locale).title}`)
            .join('; ');
          const payment = await startPayment(
            tx,
            caller,
            online.map(({ offer }) => offer),
            description,
          );
          // Everything chosen waits for the one payment, so a failed payment renews nothing.
          for (const { s, offer, state } of picked) {
            const result = acceptOffer(state, {
              ...acceptRequest(s, offer, 'bulk-renewal', null),
              paymentId: payment.id,
            });
            if (!result.ok) throw refusedTransition(result.refusal);
            await saveLifecycle(tx, tenant.id, s.id, state, result.state, context);
          }
          return {
            url: payment.url,
            status: 'pending',
            pendingPayment: { id: payment.id, subscriptionId: picked[0].s.id },
          };
        }
        for (const { s, offer, state } of picked) {
          const result = acceptOffer(state, {
            ...acceptRequest(s, offer, 'bulk-renewal', null),
            paymentId: null,
          });
          if (!result.ok) throw refusedTransition(result.refusal);
          await saveLifecycle(tx, tenant.id, s.id, state, result.state, context);
          for (const change of result.changes.filter(isOfferChange))
            await confirmApplied(tx, tenant, {
              user: caller.user,
              locale: caller.locale,
              s,
              offer,
              source: 'bulk-renewal',
              change,
              paymentId: null,
            });
        }
        return { url: null, status: 'applied' };
      });
    },

    /**
     * Settles a pending payment (the provider's report) through each paid-for subscription's
     * lifecycle (settlePayment): on success every offer it pays for applies and the cross-selling
     * voucher is handed out; otherwise they fail. All or none: if one may no longer apply (a
     * subscription cancelled meanwhile is not renewed) the payment ends as an error. Once only: a
     * payment that is no longer pending is left alone (false).
     */
    async settle(tenant: ServerTenant, paymentId: string, status: SettledStatus): Promise<boolean> {
      return db.transaction(async (tx) => {
        // Subscriptions first, then the payment: the order accept uses too (no deadlock between them).
        const acceptances = await acceptancesOfPayment(tx, tenant.id, paymentId);
        const subscriptionIds = [...new Set(acceptances.map((a) => a.subscriptionId))].sort();
        for (const id of subscriptionIds) await lockSubscription(tx, tenant.id, id);
        const payment = await findPaymentRecord(tx, tenant.id, paymentId, true);
        if (!payment || payment.status !== 'pending') return false;
        const user = await getUserById(tx, tenant.id, payment.userId);
        const today = utcDay(deps.now());
        let outcome: SettledStatus = status;
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
            settlePayment(state, { paymentId, outcome: 'success', today, nextCycle: nextCycleOf(s, today) })
              .ok;
          if (!allowed) outcome = 'error';
        }
        let crossSelling: PaymentRow['crossSelling'] = null;
        for (const { id, s, state } of paidFor) {
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
            const acceptance = acceptances.find(
              (a) => a.subscriptionId === id && a.offerId === change.offerId,
            );
            const offer = change.offerId ? await findOffer(tx, tenant.id, change.offerId) : null;
            if (!acceptance || !offer) continue;
            await confirmApplied(tx, tenant, {
              user,
              locale: payment.locale,
              s,
              offer,
              source: acceptance.source,
              change,
              paymentId,
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
    },

    /** GET /subscriptions/{id}/pending-payments/{pendingPaymentId} (§3 Pending payment), the caller's own only. */
    async pendingPayment(caller: Caller, subscriptionId: string, paymentId: string): Promise<PendingPayment> {
      const payment = await ownPayment(caller, subscriptionId, paymentId);
      if (payment.status === 'pending' && isExpired(payment, deps.now())) {
        await (deps.settleAny ?? this.settle)(caller.tenant, paymentId, 'canceled');
        return pendingPaymentView((await findPaymentRecord(db, caller.tenant.id, paymentId))!, caller.locale);
      }
      return pendingPaymentView(payment, caller.locale);
    },

    /** The popup was closed without an outcome: a payment still pending is cancelled (its page stops working). */
    async abandon(caller: Caller, subscriptionId: string, paymentId: string): Promise<PendingPayment> {
      await ownPayment(caller, subscriptionId, paymentId);
      await (deps.settleAny ?? this.settle)(caller.tenant, paymentId, 'canceled');
      return pendingPaymentView((await findPaymentRecord(db, caller.tenant.id, paymentId))!, caller.locale);
    },
  };
  return service;

  async function ownPayment(caller: Caller, subscriptionId: string, paymentId: string): Promise<PaymentRow> {
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
}

/** The day a NEXT_CYCLE upgrade takes effect: the next payment date, else in a month. */
function nextCycleOf(s: Subscription, today: string): string {
  return s.renewal?.autoRenewalNextPaymentDate ?? addMonths(today, 1);
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

export function pendingPaymentView(payment: PaymentRow, locale: Locale): PendingPayment {
  const view: PendingPayment = { status: payment.status };
  if (payment.status === 'success' && payment.crossSelling) {
    const c = payment.crossSelling;
    view.crossSellingOffer = {
      product: { title: wordsIn(c.titles, locale) ?? '', images: [{ url: c.imageUrl }], url: c.url },
      voucherCode: c.voucherCode,
    };
  }
  return view;
}

export type OfferService = ReturnType<typeof createOfferService>;
