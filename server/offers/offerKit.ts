import type { Database, Queryable } from '../db/database';
import type { Locale } from '../../engine/domain/locales';
import type { Subscription } from '../../schemas/generated/subscription';
import { isExternallyManaged } from '../../engine/domain/capabilities';
import { cancellationStart, CANCEL_CATEGORY } from '../../engine/domain/cancellation';
import {
  isBulkRenewalSubscription,
  mayPayFor,
  offerCategory,
  paysOnline,
  type UpgradeTime,
} from '../../engine/domain/offers';
import {
  acceptOffer,
  addMonths,
  isOfferChange,
  type AcceptRequest,
  type AppliedChange,
  type LifecycleState,
  type OfferChange,
} from '../../engine/domain/lifecycle';
import { utcDay } from '../../engine/domain/dates';
import { nextBillingDay } from '../../engine/domain/subscriptionTerm';
import { experimentAssignment, offersOfVariant } from '../../engine/domain/offerExperiments';
import { HttpError, badRequest } from '../http/errors';
import { enqueueMail } from '../store/mailQueueStore';
import { recordEvent } from '../events/recordEvent';
import {
  getSubscriptionForUser,
  loadLifecycle,
  saveLifecycle,
  type LifecycleWriteContext,
} from '../store/subscriptionStore';
import { listOffers, type AcceptanceSource, type OfferRow } from '../store/offerStore';
import { refuse, refusedTransition, requireCapability, requireFeature } from '../tenancy/refusals';
import type { ServerTenant } from '../tenancy/tenantContext';
import type { SettledStatus } from '../payments/paymentProvider';
import type { PaymentPages } from '../payments/paymentPages';
import { offerTexts } from './recommendations';
import { offerAcceptedMail, offerBilling } from './offerMails';

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

export interface Caller {
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
      if (isExternallyManaged(s)) throw externallyManaged(s);
      // The screen's list follows the same rule (engine/domain/offers.ts).
      if (!isBulkRenewalSubscription(s, tenant)) {
        throw refuse.notAllowed(
          'Bulk renewal concerns active renewable subscriptions you receive (role WE) that do not renew by themselves and are not part of a bundle.',
        );
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
 * Offers paid by invoice or direct debit are the ordering party's (engine/domain/offers.ts
 * mayPayFor). The refusal names the order, so a bulk renewal's screen can say which one it was.
 */
export function requirePayer(s: Subscription, offer: OfferRow): void {
  if (!mayPayFor(s, offer.paymentProvider)) {
    throw refuse.notAllowed(
      `${s.orderNumber}: offers paid by invoice or direct debit are for the ordering party.`,
      {
        orderNumber: s.orderNumber,
      },
    );
  }
}

export const externallyManaged = (s: Pick<Subscription, 'orderNumber'>) =>
  new HttpError(
    403,
    'externally_managed',
    `The subscription ${s.orderNumber} is managed externally and cannot be changed here.`,
    { orderNumber: s.orderNumber },
  );

/** The category a source's offers come from (the query's first, then the tenant's, then §9's default). */
export function categoryOf(
  source: AcceptanceSource,
  tenant: ServerTenant,
  queried: string | undefined,
): string {
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

/**
 * The day a NEXT_CYCLE upgrade takes effect: the next payment date the order system names, else the
 * first day of the next billing period (engine/domain/subscriptionTerm.ts), else in a month.
 */
export function nextCycleOf(s: Subscription, today: string): string {
  const next = s.renewal?.autoRenewalNextPaymentDate;
  return (next && next > today ? next : undefined) ?? nextBillingDay(s, today) ?? addMonths(today, 1);
}

/** One offer accepted for one subscription, with the lifecycle it was checked against (under its lock). */
export interface Accepted {
  s: Subscription;
  offer: OfferRow;
  source: AcceptanceSource;
  state: LifecycleState;
}

/**
 * What every offer command shares (server/offers/commands/*): the database, the clock, the payment
 * pages, the offers a source may show, the caller's subscription and its lifecycle, and the steps
 * of an accepted offer (waiting for its payment, or applied, recorded and mailed). One per server,
 * made by createOfferService.
 */
export function createOfferKit(deps: OfferServiceDeps) {
  const { db } = deps;
  const today = () => utcDay(deps.now());

  /** The lifecycle request of accepting an offer (without its payment). */
  function acceptRequest(
    s: Subscription,
    offer: OfferRow,
    source: AcceptanceSource,
    upgradeTime: UpgradeTime | null,
  ): Omit<AcceptRequest, 'paymentId'> {
    const day = today();
    return {
      offerId: offer.id,
      source,
      effect: offer.effect,
      upgradeTime,
      today: day,
      nextCycle: nextCycleOf(s, day),
    };
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
      /** The cancellation reason a retention offer was taken for. */
      cancelReason?: string | null;
    },
  ) {
    const { s, offer } = input;
    // The subscriber's offer experiment variant in the offer's flow, as the flow showed it.
    const experiment =
      input.source === 'bulk-renewal'
        ? null
        : (experimentAssignment(tenant, input.source, input.cancelReason, input.user.id)?.assignment ?? null);
    await recordEvent(
      tx,
      tenant.id,
      'offer.accepted',
      {
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
        // The format it gives (an upgrade, a bundle's renewal) and, for a renewal, from when.
        ...(input.change.mixType ? { mixType: input.change.mixType } : {}),
        ...(input.change.formatFrom ? { formatFrom: input.change.formatFrom } : {}),
        experiment,
      },
      // Also when a provider's callback applies it: the language the subscriber chose the offer in.
      { locale: input.locale },
    );
    const revoked = input.change.revokedCancellation;
    if (revoked && input.change.date) {
      // The order system withdraws the cancellation: said as a change of its own, not only as an extension.
      await recordEvent(
        tx,
        tenant.id,
        'subscription.cancellation_revoked',
        {
          userId: input.user.id,
          subscriptionId: s.id,
          orderNumber: s.orderNumber,
          offerId: offer.id,
          cancelledTo: revoked.effectiveDate,
          issueNumber: revoked.issueNumber,
          newEnd: input.change.date,
        },
        { locale: input.locale },
      );
    }
    const mail = offerAcceptedMail(input.locale, {
      tenant: tenant.name,
      subscription: s.displayName,
      orderNumber: s.orderNumber,
      offer: offerTexts(offer, input.locale).title,
      amount: offer.price,
      currency: offer.currency,
      billing: offerBilling({
        // A bulk renewal's invoice item waits for the card payment of the others but is not paid by it.
        paidOnline: input.paymentId !== null && paysOnline(offer.paymentProvider),
        source: input.source,
        offerProvider: offer.paymentProvider,
        subscriptionPays: s.paymentDetails?.paymentMethod,
      }),
      change: input.change,
    });
    await enqueueMail(tx, { tenantId: tenant.id, to: input.user.email, from: deps.mailFrom, ...mail });
  }

  return {
    db,
    now: deps.now,
    today,
    paymentPages: deps.paymentPages,
    settleAny: deps.settleAny,
    acceptRequest,
    confirmApplied,

    /**
     * The offers of a source for the subscription, in the caller's language. With the subscriber's
     * account id, an offer experiment of the flow (tenant offerExperiments) narrows them
     * to the subscriber's variant: the list shown and the offers that may be accepted are the same.
     */
    async offersFor(
      tx: Queryable,
      tenant: ServerTenant,
      s: Subscription,
      source: AcceptanceSource,
      category: string,
      cancelReason?: string,
      subscriberId?: string,
    ): Promise<OfferRow[]> {
      const offers = (await listOffers(tx, tenant.id, s.publication, category)).filter(
        (offer) =>
          EFFECTS_OF_SOURCE[source].includes(offer.effect.kind) &&
          upgradeTimeAllowed(tenant, offer) &&
          (source !== 'cancellation' ||
            offer.reasons === null ||
            (cancelReason !== undefined && offer.reasons.includes(cancelReason))),
      );
      const assigned =
        subscriberId !== undefined && source !== 'bulk-renewal'
          ? experimentAssignment(tenant, source, cancelReason, subscriberId)
          : null;
      return assigned ? offersOfVariant(offers, assigned.variant) : offers;
    },

    async subscriptionOf(tx: Queryable, caller: Caller, subscriptionId: string): Promise<Subscription> {
      const s = await getSubscriptionForUser(tx, caller.tenant.id, caller.user.id, subscriptionId, {
        locale: caller.locale,
      });
      if (!s) throw refuse.notYours('There is no such subscription on your account.');
      return s;
    },

    /** The subscription's lifecycle (engine/domain/lifecycle.ts), under the caller's lock when changing it. */
    async lifecycleOf(tx: Queryable, tenant: ServerTenant, subscriptionId: string): Promise<LifecycleState> {
      const state = await loadLifecycle(tx, tenant.id, subscriptionId);
      if (!state) throw refuse.notYours('There is no such subscription on your account.');
      return state;
    },

    /** A pending payment for these offers, and the provider's page to pay it on (one payment for all). */
    startPayment(
      tx: Queryable,
      caller: Caller,
      offers: OfferRow[],
      description: string,
    ): Promise<{ id: string; url: string }> {
      // One payment has one currency: offers priced in others (a tenant's offers may name any)
      // are not added up, nor charged in whichever came first.
      if (new Set(offers.map((offer) => offer.currency)).size > 1)
        throw new HttpError(
          409,
          'mixed_currencies',
          'These offers are priced in different currencies and cannot be paid together: renew them one at a time.',
        );
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
    },

    /** An accepted offer that waits for its online payment: its lifecycle says so, nothing applies yet. */
    async holdForPayment(
      tx: Queryable,
      tenant: ServerTenant,
      accepted: Accepted,
      request: Omit<AcceptRequest, 'paymentId'>,
      paymentId: string,
      context: LifecycleWriteContext,
    ): Promise<void> {
      const { s, state } = accepted;
      const result = acceptOffer(state, { ...request, paymentId });
      if (!result.ok) throw refusedTransition(result.refusal);
      await saveLifecycle(tx, tenant.id, s.id, state, result.state, context);
    },

    /**
     * An accepted offer billed by invoice or direct debit applies at once: its lifecycle is saved and
     * each change it made recorded and mailed to the caller.
     */
    async applyNow(
      tx: Queryable,
      caller: Caller,
      accepted: Accepted,
      applied: { state: LifecycleState; changes: readonly AppliedChange[] },
      context: LifecycleWriteContext,
    ): Promise<void> {
      const { tenant } = caller;
      const { s, offer, source, state } = accepted;
      await saveLifecycle(tx, tenant.id, s.id, state, applied.state, context);
      for (const change of applied.changes.filter(isOfferChange))
        await confirmApplied(tx, tenant, {
          user: caller.user,
          locale: caller.locale,
          s,
          offer,
          source,
          change,
          paymentId: null,
          cancelReason: context.cancelReason,
        });
    },
  };
}

export type OfferKit = ReturnType<typeof createOfferKit>;
