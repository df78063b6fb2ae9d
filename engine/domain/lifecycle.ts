/**
 * The lifecycle of one subscription: what its term, status and pending changes are, and the only
 * way they change, so every screen and flow tells the same truth about it
 * (docs/architecture.md "The subscription lifecycle").
 *
 * Every flow that changes a subscription — cancellation, offers of the cancellation, renewal, bulk
 * renewal and upgrade flows, the payment that settles them, holiday breaks, scheduled changes —
 * loads this state inside its transaction, calls one transition, and hands the new state to the
 * store (server/store/subscriptionStore.ts `saveLifecycle`), which writes it and nothing else. The
 * screens read the same fields back from the API, so what a page shows is what the server decided.
 *
 * Pure: no clock, no I/O. A transition takes the state and a request and returns the new state or
 * a named refusal; it never changes its argument.
 *
 * Rules, with their sources:
 *  - Cancelling sets order status AK and clears isCancelable (portal-core.md §4 order status,
 *    account-flows.md §4 "Cancellation"). The cancellation's effective date becomes the end of the
 *    term, and its issue the last issue: the end shown equals the cancellation.
 *  - An offer accepted (applied, or waiting for its payment) is not offered or accepted again for
 *    that subscription, so nobody pays twice for it; a failed one may be taken again. "Again" is
 *    for as long as what it bought lasts: an upgrade for good, a renewal or a retention discount for
 *    the months it runs from the day it applied (the subscriber renews for the next term a year
 *    later with the same offer, as the order system's catalogue keeps it).
 *  - A retention offer (the cancellation flow's) is taken once a year per subscription, whichever
 *    it was: the others are then neither offered nor accepted (offer_already_used).
 *  - A subscription is renewed once for what a renewal covers, whichever renewal it was (the
 *    renewal page's or the bulk renewal's): while a renewal runs (the months it bought, from the
 *    day it applied) no other renewal offer is offered or accepted (already_renewed), unless the
 *    subscription was cancelled since (renewing takes a cancellation back). Two renewal offers one
 *    after another extended the term twice and were paid twice.
 *  - An offer's price pays for the months it covers (a renewal's, a retention discount's): the next
 *    automatic payment planned inside them moves past them (docs/architecture.md "The
 *    subscription lifecycle").
 *  - A payment settles once: a second report of it is refused (account-flows.md §4 "Offer
 *    acceptance": success, error and canceled are final).
 *  - A renewal runs on from the current end (or today, when that has passed). Renewing a cancelled
 *    subscription revokes the cancellation (status A again): a subscription is never "cancelled"
 *    with an end after its cancellation. An inactive one renewed is active again. Only the
 *    ordering party's renewal revokes (§6 "renewal: ordering party"); the bulk renewal, which the
 *    goods recipient may make (§6), is refused for a cancelled subscription.
 *  - A cancellation does not cut short a renewal that runs (applied, within the months it bought):
 *    it takes effect at the end of the renewed term, no earlier (renewed_term). Cancelling to an
 *    earlier date and renewing again to take it back charged the same months twice.
 *  - Nothing is scheduled after the end: no cancellation date, upgrade, holiday break or change.
 *  - An upgrade is to a format the subscription neither has nor will have: not to its mix type, not
 *    to the one of an upgrade planned for the next cycle, not to the one of an upgrade waiting for
 *    its payment (docs/architecture.md "The subscription lifecycle"). Such offers are neither offered nor
 *    accepted (upgrade_format_held); a payment that would apply one after all (the order system changed the
 *    mix type meanwhile) ends as an error, as for any offer that may no longer apply.
 *  - Cancelling voids what waits for a payment (the payment page stops working) and an upgrade
 *    planned after the new end. Cancelling a bundle's master ends its components with it
 *    (portal-core.md §2 "Bundle components are not managed separately").
 *  - A phase upgrade (portal-core.md §2 "phase-upgrade button", §6 "phase upgrade: phase can
 *    upgrade, ordering party, active") moves an active subscription whose current phase can be
 *    upgraded (a trial, say) to its next phase; the phase is then not upgradable again, so nobody
 *    asks twice, until the order system names its next phase through the change feed. "Active" as
 *    §4 groups it (A, IZ, AK): a cancelled subscription may still move until its end, as it may
 *    still upgrade.
 *
 * Where the spec's rules pull apart, the model decides (docs/architecture.md "The subscription lifecycle"):
 *  - Upgrade (§6 "upgrade: ordering party") names no status. An upgrade changes what is delivered
 *    from now or the next cycle, so an inactive subscription (I) has nothing to upgrade: refused
 *    `inactive`. A cancelled one (AK) may still upgrade now, until its end.
 *  - An externally managed subscription (WBZA) refuses cancellation (§6, §8) but may be offered a
 *    paid renewal (§6 "renewal" does not exclude it). The model follows the renewal rule: renewing
 *    extends the term the order system manages, which it confirms through the change feed; only
 *    the cancellation, which the external party must receive, is refused.
 */
import type { OrderStatus } from './orderStatus';
import { isActive } from './orderStatus';
import type { UpgradeTime } from './offers';
import { withinTerm } from './subscriptionTerm';
import { addDays, addMonths } from './dates';

/** What accepting an offer does (the offers table's `effect`). */
export type OfferEffect =
  /**
   * `mixType`: the format of the term it buys, when that differs (a print + digital bundle), with
   * the order system's product key of that format (`typeKey`).
   */
  | { kind: 'extend'; months: number; mixType?: 'PR' | 'DE' | 'ON' | 'KO'; typeKey?: string }
  | { kind: 'upgrade'; mixType: 'PR' | 'DE' | 'ON' | 'KO'; typeKey: string }
  | { kind: 'retain'; months: number; discountPercent: number };

export type AcceptanceSource = 'cancellation' | 'renewal' | 'upgrade' | 'bulk-renewal';
export type AcceptanceStatus = 'pending' | 'applied' | 'failed';

export interface Acceptance {
  offerId: string;
  source: AcceptanceSource;
  status: AcceptanceStatus;
  /** The online payment it waits for (pending) or was paid by; null when billed by invoice or direct debit. */
  paymentId: string | null;
  effect: OfferEffect;
  upgradeTime: UpgradeTime | null;
  /** The day it was accepted, or applied once paid. */
  on: string;
}

export interface CancellationState {
  type: 'regular' | 'exceptional';
  /** The day it takes effect: the last day of the term. */
  effectiveDate: string;
  /** The last issue, when the cancellation was to an issue. */
  issueNumber: string | null;
}

export interface LifecycleState {
  status: OrderStatus;
  /** The last day of the term (validToOnSaleDate); null when open-ended. */
  end: string | null;
  /** The last issue of the term when known (renewal.expiryIssueNr); null when the end is a date. */
  endIssue: string | null;
  isCancelable: boolean;
  cancellation: CancellationState | null;
  mixType: string;
  plannedUpgrade: { offerId: string; mixType: string; from: string } | null;
  retention: { offerId: string; discountPercent: number; until: string } | null;
  /** A holiday break: issues are not delivered from..to (both inside the term). */
  suspension: { from: string; to: string | null } | null;
  /** Changes waiting for their day (address, payment method), none after the end. */
  scheduled: ReadonlyArray<{ kind: 'address' | 'payment-method'; from: string }>;
  acceptances: readonly Acceptance[];
  /** The current phase can be upgraded now (the subscription's `currentPhase.canUpgrade`). */
  phaseUpgradable: boolean;
  /**
   * The next automatic payment the order system plans (renewal.autoRenewalNextPaymentDate) and its
   * period in months (billingFrequency); none without automatic renewal.
   */
  nextPayment?: { day: string; everyMonths: number } | null;
}

export type LifecycleRefusal =
  | 'already_cancelled'
  | 'not_cancellable'
  | 'inactive'
  | 'date_in_past'
  | 'date_after_end'
  | 'offer_already_accepted'
  | 'offer_already_used'
  | 'already_renewed'
  | 'renewed_term'
  | 'offer_payment_open'
  | 'payment_already_settled'
  | 'upgrade_format_held'
  | 'invalid_range'
  | 'phase_not_upgradable'
  | 'beyond_calendar';

export type Transition =
  | { ok: true; state: LifecycleState; changes: readonly AppliedChange[] }
  | { ok: false; refusal: LifecycleRefusal };

/** What a transition changed, for the account event and the confirmation e-mail. */
export interface AppliedChange {
  kind: 'cancel' | 'extend' | 'upgrade' | 'retain' | 'suspend' | 'schedule' | 'phase-upgrade';
  /**
   * cancel, extend: the new end; upgrade: the day it takes effect; retain: the discount's end;
   * suspend: its first day; phase-upgrade: the day it was asked for.
   */
  date: string | null;
  offerId?: string;
  mixType?: string;
  /** upgrade: takes effect at the next cycle rather than now; extend: its new format from the new term on. */
  later?: boolean;
  /** extend in another format: the day that format begins (the first day of the term it bought). */
  formatFrom?: string;
  /** extend of a cancelled subscription: the cancellation it revoked. */
  revokedCancellation?: CancellationState;
  /** cancel: payments of offers that were waiting and are void now. */
  voidedPayments?: string[];
}

/** What accepting an offer changed (an extension, an upgrade, a retention discount). */
export type OfferChange = AppliedChange & { kind: 'extend' | 'upgrade' | 'retain' };
export const isOfferChange = (change: AppliedChange): change is OfferChange =>
  change.kind === 'extend' || change.kind === 'upgrade' || change.kind === 'retain';

const refuse = (refusal: LifecycleRefusal): Transition => ({ ok: false, refusal });
/**
 * The days the portal keeps run from year 1000 to 9999 (the order system's records and
 * PostgreSQL's dates as ISO text compare by their characters only within four-digit years): a
 * transition that would reach past 31 December 9999, a renewal of a term the order system sent as
 * ending then, is refused rather than written as a day no store or comparison reads right.
 */
const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;
const outsideCalendar = (day: string | null | undefined) =>
  typeof day === 'string' && !CALENDAR_DAY.test(day);

function done(state: LifecycleState, ...changes: AppliedChange[]): Transition {
  const days = [
    state.end,
    state.plannedUpgrade?.from,
    state.retention?.until,
    state.suspension?.from,
    state.suspension?.to,
    state.nextPayment?.day,
    ...state.scheduled.map((change) => change.from),
    ...changes.flatMap((change) => [change.date, change.formatFrom]),
  ];
  if (days.some(outsideCalendar)) return refuse('beyond_calendar');
  return { ok: true, state, changes };
}

// Months are added as every screen counts them (engine/domain/dates.ts); its callers import it here.
export { addMonths };

// --- what the screens and the server read ------------------------------------------------------

/** Whether a day lies inside the term (engine/domain/subscriptionTerm.ts: on or before its last day). */
export function isWithinTerm(state: Pick<LifecycleState, 'end'>, day: string): boolean {
  return withinTerm(day, state.end);
}

/**
 * An upgrade from the next cycle on takes effect the day that cycle starts: only when the
 * subscription still runs then (one without auto-renewal may end first). Offers that cannot fit
 * are not listed, as accepting them would be refused.
 */
export function upgradeFitsTerm(
  state: Pick<LifecycleState, 'end'>,
  upgradeTime: UpgradeTime | null,
  nextCycle: string,
): boolean {
  return upgradeTime !== 'NEXT_CYCLE' || isWithinTerm(state, nextCycle);
}

/** The format an offer's effect gives the subscription, when it gives one (an upgrade, a bundle's renewal). */
export function formatOf(effect: OfferEffect): string | null {
  if (effect.kind === 'upgrade') return effect.mixType;
  return effect.kind === 'extend' ? (effect.mixType ?? null) : null;
}

/**
 * The natural last day of what the subscriber has now: the day before the next automatic payment
 * (the period paid for: a yearly subscription paid in advance runs paid until then), or the end of
 * the term when that comes first or there are no automatic payments. Null for a term without an end
 * and without automatic payments.
 */
export function currentPeriodEnd(
  state: Pick<LifecycleState, 'nextPayment' | 'end'>,
): { day: string; of: 'paid_period' | 'term' } | null {
  const paid = state.nextPayment ? addDays(state.nextPayment.day, -1) : null;
  if (paid !== null && (state.end === null || paid < state.end)) return { day: paid, of: 'paid_period' };
  return state.end === null ? null : { day: state.end, of: 'term' };
}

/** Whether an acceptance keeps its offer from being offered or accepted again on `today`. */
export function holdsOffer(acceptance: Acceptance, today: string): boolean {
  if (acceptance.status === 'failed') return false;
  if (acceptance.status === 'pending') return true;
  const { effect } = acceptance;
  return effect.kind === 'upgrade' || today < addMonths(acceptance.on, effect.months);
}

/** An offer is offered and accepted once: not while it waits for its payment, nor while what it bought lasts. */
export function isOfferTaken(
  state: Pick<LifecycleState, 'acceptances'>,
  offerId: string,
  today: string,
): boolean {
  return state.acceptances.some((a) => a.offerId === offerId && holdsOffer(a, today));
}

/**
 * An offer waiting for its payment (account-flows.md §4 "Offer acceptance": processing) is the
 * subscription's one open offer: while it waits, no other offer of any flow is offered or accepted,
 * since the subscriber could then pay for both and both would apply (a renewal by invoice while a
 * card renewal's page is still open extended the term twice). Its page finishes it, or the
 * subscriber gives it up (GET …/pending-payments names it on every offer page).
 */
export function isOfferPaymentOpen(state: Pick<LifecycleState, 'acceptances'>): boolean {
  return state.acceptances.some((a) => a.status === 'pending');
}

/** Retention offers (those of the cancellation flow) are a one-off: one a year per subscription, whichever it was. */
export const RETENTION_OFFER_MONTHS = 12;
export function isRetentionUsed(state: Pick<LifecycleState, 'acceptances'>, today: string): boolean {
  return state.acceptances.some(
    (a) =>
      a.source === 'cancellation' && a.status !== 'failed' && today < addMonths(a.on, RETENTION_OFFER_MONTHS),
  );
}

/** The flows that renew: a renewal taken in one is a renewal for the other. */
const RENEWAL_SOURCES: readonly AcceptanceSource[] = ['renewal', 'bulk-renewal'];

/**
 * Whether a renewal runs on `today`: an extension of the term (the renewal or bulk renewal flow's,
 * whichever offer, or a retention offer that extends it, paid for like a renewal) waiting for its
 * payment, or applied within the months it bought, and the subscription not cancelled since. Then
 * no further renewal is offered or accepted until it ends (a renewal after that, next year's, is
 * open again).
 */
export function isRenewed(state: Pick<LifecycleState, 'acceptances' | 'status'>, today: string): boolean {
  // Cancelled since: the end is the cancellation's, and a renewal is how the subscriber takes the
  // cancellation back (renew), so it is offered again.
  if (isCancelled(state)) return false;
  return state.acceptances.some((a) => a.effect.kind === 'extend' && holdsOffer(a, today));
}

/**
 * The end of the term an extension bought (a renewal, or a retention offer that extends the term),
 * while it runs: applied (paid, or billed) within the months it bought, and the subscription not
 * cancelled since. A cancellation then takes effect no earlier: it would cut short a term the
 * subscriber has paid for, and renewing again to take it back would charge the same months twice.
 * An extension still waiting for its payment does not count: cancelling voids it, and nothing was
 * paid. Null when none runs.
 */
export function renewedUntil(
  state: Pick<LifecycleState, 'acceptances' | 'status' | 'end'>,
  today: string,
): string | null {
  if (isCancelled(state) || state.end === null) return null;
  const runs = state.acceptances.some(
    (a) => a.effect.kind === 'extend' && a.status === 'applied' && holdsOffer(a, today),
  );
  return runs ? state.end : null;
}

/**
 * The formats (mix types) a subscription has or will have: its own, that of an upgrade planned for
 * the next cycle, and those of upgrades waiting for their payment. `except`: acceptances left out
 * (the ones a payment is settling, which are not "another" upgrade to themselves).
 */
export function heldFormats(
  state: Pick<LifecycleState, 'mixType' | 'plannedUpgrade' | 'acceptances'>,
  except: readonly Acceptance[] = [],
): Set<string> {
  const formats = new Set([state.mixType]);
  if (state.plannedUpgrade) formats.add(state.plannedUpgrade.mixType);
  for (const a of state.acceptances)
    if (a.status === 'pending' && a.effect.kind === 'upgrade' && !except.includes(a))
      formats.add(a.effect.mixType);
  return formats;
}

/**
 * Whether an offer's effect is an upgrade to a format the subscription has or will have (a "print +
 * digital from today" for a print + digital subscription): nothing to gain, so neither offered nor
 * accepted.
 */
export function isUpgradeToHeldFormat(
  state: Pick<LifecycleState, 'mixType' | 'plannedUpgrade' | 'acceptances'>,
  effect: OfferEffect | undefined,
  except: readonly Acceptance[] = [],
): boolean {
  if (effect?.kind !== 'upgrade') return false;
  return heldFormats(state, except).has(effect.mixType) || isRenewalFormatPlanned(state);
}

/**
 * A renewal bought its term in another format (a bundle), planned for that term's first day: the
 * format belongs to the term paid for, so no upgrade replaces or cuts it short.
 */
function isRenewalFormatPlanned(state: Pick<LifecycleState, 'plannedUpgrade' | 'acceptances'>): boolean {
  const planned = state.plannedUpgrade;
  return (
    planned !== null &&
    state.acceptances.some(
      (a) => a.offerId === planned.offerId && a.status === 'applied' && a.effect.kind === 'extend',
    )
  );
}

/**
 * The offers of a flow still open to this subscription on `today`, in their order: none of the
 * cancellation flow once a retention offer was taken this year, none of the renewal flows while a
 * renewal runs (isRenewed), none while an offer's payment is
 * open (isOfferPaymentOpen), no offer it holds already, and no
 * upgrade to a format it has or will have (isUpgradeToHeldFormat), no extension the renewal would
 * refuse (isRenewalRefused); offers given without their effect are judged by the other rules only.
 */
export function openOffers<T extends { id: string; effect?: OfferEffect }>(
  state: LifecycleState,
  offers: readonly T[],
  today: string,
  source?: AcceptanceSource,
): T[] {
  if (source === 'cancellation' && isRetentionUsed(state, today)) return [];
  if (source && RENEWAL_SOURCES.includes(source) && isRenewed(state, today)) return [];
  if (isOfferPaymentOpen(state)) return [];
  return offers.filter(
    (offer) =>
      !isOfferTaken(state, offer.id, today) &&
      !isUpgradeToHeldFormat(state, offer.effect) &&
      !isRenewalRefused(state, offer.effect, today),
  );
}

/**
 * An extension the lifecycle's renewal would refuse (`beyond_calendar`: a term the order system
 * sent as ending on 31.12.9999) is not offered: the same rule an acceptance meets (effectRefusal).
 */
function isRenewalRefused(state: LifecycleState, effect: OfferEffect | undefined, today: string) {
  return effect?.kind === 'extend' && !renew(state, { months: effect.months, today }).ok;
}

export const isCancelled = (state: Pick<LifecycleState, 'status'>) =>
  state.status === 'AK' || state.status === 'I';

// --- transitions -------------------------------------------------------------------------------

export interface CancelRequest {
  type: 'regular' | 'exceptional';
  effectiveDate: string;
  issueNumber: string | null;
  today: string;
}

/** account-flows.md §4 "Cancellation": AK, isCancelable cleared, the end is the cancellation's. */
export function cancel(state: LifecycleState, request: CancelRequest): Transition {
  if (isCancelled(state)) return refuse('already_cancelled');
  if (!state.isCancelable) return refuse('not_cancellable');
  if (request.effectiveDate < request.today) return refuse('date_in_past');
  if (!isWithinTerm(state, request.effectiveDate)) return refuse('date_after_end');
  const paidUntil = renewedUntil(state, request.today);
  if (paidUntil !== null && request.effectiveDate < paidUntil) return refuse('renewed_term');
  const voided = state.acceptances.filter((a) => a.status === 'pending');
  const voidedPayments = [
    ...new Set(voided.map((a) => a.paymentId).filter((id): id is string => id !== null)),
  ];
  const end = request.effectiveDate;
  const next: LifecycleState = {
    ...endingOn(state, end, request.issueNumber),
    cancellation: { type: request.type, effectiveDate: end, issueNumber: request.issueNumber },
  };
  return done(next, { kind: 'cancel', date: end, voidedPayments });
}

/** What ends on `end`: status AK, that end, nothing planned or waiting after it. */
function endingOn(state: LifecycleState, end: string, endIssue: string | null): LifecycleState {
  return {
    ...state,
    status: 'AK',
    end,
    endIssue,
    isCancelable: false,
    plannedUpgrade: state.plannedUpgrade && state.plannedUpgrade.from <= end ? state.plannedUpgrade : null,
    retention:
      state.retention && state.retention.until > end ? { ...state.retention, until: end } : state.retention,
    suspension: clipToEnd(state.suspension, end),
    scheduled: state.scheduled.filter((change) => change.from <= end),
    acceptances: state.acceptances.map((a) => (a.status === 'pending' ? { ...a, status: 'failed' } : a)),
  };
}

/**
 * A bundle's component when its master is cancelled: it is not managed on its own (portal-core.md
 * §2 "Bundle components are not managed separately") and ends with the bundle, on the master's
 * end, with no cancellation of its own. One that ends earlier already, or has ended, stays as it is.
 */
export function endWithBundle(state: LifecycleState, request: { end: string }): Transition {
  if (isCancelled(state) || (state.end !== null && state.end <= request.end)) return done(state);
  // A component takes no offers of its own (engine/domain/capabilities.ts), so no payment waits.
  return done(endingOn(state, request.end, null), { kind: 'cancel', date: request.end });
}

function clipToEnd(suspension: LifecycleState['suspension'], end: string): LifecycleState['suspension'] {
  if (!suspension || suspension.from > end) return null;
  return suspension.to === null || suspension.to > end ? { ...suspension, to: end } : suspension;
}

export interface AcceptRequest {
  offerId: string;
  source: AcceptanceSource;
  effect: OfferEffect;
  upgradeTime: UpgradeTime | null;
  /** The online payment it waits for; null when billed by invoice or direct debit (applies at once). */
  paymentId: string | null;
  today: string;
  /** upgrade NEXT_CYCLE: the day the next cycle starts. */
  nextCycle: string;
}

/** account-flows.md §4 "Offer acceptance": once per offer; applies at once unless paid online. */
export function acceptOffer(state: LifecycleState, request: AcceptRequest): Transition {
  if (isOfferTaken(state, request.offerId, request.today)) return refuse('offer_already_accepted');
  if (isOfferPaymentOpen(state)) return refuse('offer_payment_open');
  if (request.source === 'cancellation' && isCancelled(state)) return refuse('already_cancelled');
  if (request.source === 'cancellation' && isRetentionUsed(state, request.today))
    return refuse('offer_already_used');
  if (RENEWAL_SOURCES.includes(request.source) && isRenewed(state, request.today))
    return refuse('already_renewed');
  // Bulk renewal is the goods recipient's (account-flows.md §6): it never revokes the ordering
  // party's cancellation; only the ordering party's own renewal may.
  if (request.source === 'bulk-renewal' && state.status === 'AK') return refuse('already_cancelled');
  const blocked = effectRefusal(
    state,
    request.effect,
    request.upgradeTime,
    request.today,
    request.nextCycle,
    [],
  );
  if (blocked) return refuse(blocked);
  const acceptance: Acceptance = {
    offerId: request.offerId,
    source: request.source,
    status: request.paymentId ? 'pending' : 'applied',
    paymentId: request.paymentId,
    effect: request.effect,
    upgradeTime: request.upgradeTime,
    on: request.today,
  };
  const accepted: LifecycleState = { ...state, acceptances: [...state.acceptances, acceptance] };
  if (request.paymentId) return done(accepted);
  return applyEffect(accepted, acceptance, request.today, request.nextCycle);
}

/** Why an offer's effect cannot apply now, if it cannot (`deciding`: the acceptances being settled). */
function effectRefusal(
  state: LifecycleState,
  effect: OfferEffect,
  upgradeTime: UpgradeTime | null,
  today: string,
  nextCycle: string,
  deciding: readonly Acceptance[],
): LifecycleRefusal | null {
  if (effect.kind === 'upgrade') {
    if (!isActive(state.status)) return 'inactive';
    if (isUpgradeToHeldFormat(state, effect, deciding)) return 'upgrade_format_held';
    if (!upgradeFitsTerm(state, upgradeTime, nextCycle)) return 'date_after_end';
  }
  if (effect.kind === 'retain' && isCancelled(state)) return 'already_cancelled';
  if (effect.kind === 'retain' && state.end !== null && state.end < today) return 'inactive';
  // Known before a payment is asked for: a renewal of a term that runs to the calendar's end.
  if (effect.kind === 'extend') {
    const renewed = renew(state, { months: effect.months, today });
    if (!renewed.ok) return renewed.refusal;
  }
  return null;
}

export interface SettleRequest {
  paymentId: string;
  outcome: 'success' | 'error' | 'canceled';
  today: string;
  nextCycle: string;
}

/**
 * The payment of offers waiting for it reported its outcome: on success each applies (if it still
 * may: a subscription cancelled meanwhile is not renewed), otherwise they fail. Once only.
 */
export function settlePayment(state: LifecycleState, request: SettleRequest): Transition {
  const waiting = state.acceptances.filter(
    (a) => a.paymentId === request.paymentId && a.status === 'pending',
  );
  if (waiting.length === 0) return refuse('payment_already_settled');
  if (request.outcome !== 'success') {
    return done({
      ...state,
      acceptances: state.acceptances.map((a) => (waiting.includes(a) ? { ...a, status: 'failed' } : a)),
    });
  }
  for (const acceptance of waiting) {
    const blocked = effectRefusal(
      state,
      acceptance.effect,
      acceptance.upgradeTime,
      request.today,
      request.nextCycle,
      waiting,
    );
    if (blocked) return refuse(blocked);
  }
  let next = state;
  const changes: AppliedChange[] = [];
  for (const acceptance of waiting) {
    const result = applyEffect(next, acceptance, request.today, request.nextCycle);
    if (!result.ok) return result;
    next = result.state;
    changes.push(...result.changes);
  }
  return done(next, ...changes);
}

/** Marks the acceptance applied and makes its change. */
function applyEffect(
  state: LifecycleState,
  acceptance: Acceptance,
  today: string,
  nextCycle: string,
): Transition {
  const applied: LifecycleState = {
    ...state,
    acceptances: state.acceptances.map((a) =>
      a === acceptance ? { ...a, status: 'applied', on: today } : a,
    ),
  };
  const { effect } = acceptance;
  switch (effect.kind) {
    case 'extend': {
      const from = applied.end !== null && applied.end > today ? applied.end : today;
      const renewed = renew(applied, { months: effect.months, today, offerId: acceptance.offerId });
      if (!renewed.ok || renewed.state.end === null) return renewed;
      const paid = paidFor(renewed.state, from, renewed.state.end);
      // A format the subscription has or will have (an upgrade planned before) stays as planned.
      if (effect.mixType === undefined || heldFormats(applied).has(effect.mixType))
        return done(paid, ...renewed.changes);
      // The term it bought begins the day after the old one's last day, or today once that is over.
      const formatFrom = applied.end !== null && applied.end >= today ? addDays(applied.end, 1) : today;
      return withFormatFrom(paid, renewed.changes, {
        offerId: acceptance.offerId,
        mixType: effect.mixType,
        from: formatFrom,
        today,
      });
    }
    case 'upgrade':
      return upgrade(applied, {
        offerId: acceptance.offerId,
        mixType: effect.mixType,
        time: acceptance.upgradeTime ?? 'NOW',
        today,
        nextCycle,
      });
    case 'retain': {
      // The last discounted day, as every end here is the last day covered: three months from
      // 30 November run through 27 February, and a payment planned for 28 February is due.
      const until = addDays(addMonths(today, effect.months), -1);
      const discountUntil = applied.end !== null && applied.end < until ? applied.end : until;
      return done(
        paidFor(
          {
            ...applied,
            retention: {
              offerId: acceptance.offerId,
              discountPercent: effect.discountPercent,
              until: discountUntil,
            },
          },
          today,
          discountUntil,
        ),
        { kind: 'retain', date: discountUntil, offerId: acceptance.offerId },
      );
    }
  }
}

/**
 * A renewal that buys another format (a print + digital bundle for a print subscription) changes
 * the format where the term it bought begins: today when the old term is over, else planned for
 * the old term's end, as an upgrade at the next cycle is. Its change says so (mixType, later).
 */
function withFormatFrom(
  state: LifecycleState,
  changes: readonly AppliedChange[],
  format: { offerId: string; mixType: string; from: string; today: string },
): Transition {
  const later = format.from > format.today;
  const next: LifecycleState = later
    ? { ...state, plannedUpgrade: { offerId: format.offerId, mixType: format.mixType, from: format.from } }
    : { ...state, mixType: format.mixType, plannedUpgrade: null };
  return done(
    next,
    ...changes.map((change) =>
      change.kind === 'extend'
        ? { ...change, mixType: format.mixType, later, formatFrom: format.from }
        : change,
    ),
  );
}

/**
 * An offer's price pays for the months it covers, `from` through `until` (a renewal's, the
 * discounted months of a retention offer): an automatic payment the order system planned for a
 * period wholly inside them would bill it a second time, so it moves on in steps of its own period
 * to the first one that is not. A payment whose period runs past `until` stays due, as does one
 * due before them (a renewal runs on from the term's end).
 */
function paidFor(state: LifecycleState, from: string, until: string): LifecycleState {
  const next = state.nextPayment;
  if (!next || !(next.everyMonths > 0) || next.day < from) return state;
  const dayAfter = addDays(until, 1);
  let periods = 0;
  while (addMonths(next.day, (periods + 1) * next.everyMonths) <= dayAfter) periods += 1;
  if (periods === 0) return state;
  return { ...state, nextPayment: { ...next, day: addMonths(next.day, periods * next.everyMonths) } };
}

/**
 * A renewal: the term runs on by `months` from its end (or from today when that has passed). A
 * cancelled subscription renewed is no longer cancelled; an inactive one is active again.
 */
export function renew(
  state: LifecycleState,
  request: { months: number; today: string; offerId?: string },
): Transition {
  if (!(request.months > 0)) return refuse('invalid_range');
  const from = state.end !== null && state.end > request.today ? state.end : request.today;
  const end = addMonths(from, request.months);
  const revoked = state.status === 'AK';
  const next: LifecycleState = {
    ...state,
    status: state.status === 'AK' || state.status === 'I' ? 'A' : state.status,
    end,
    // The new last issue is the order system's to name; until it does, the end is a date.
    endIssue: null,
    isCancelable: revoked || state.status === 'I' ? true : state.isCancelable,
    cancellation: null,
  };
  return done(next, {
    kind: 'extend',
    date: end,
    offerId: request.offerId,
    revokedCancellation: (revoked && state.cancellation) || undefined,
  });
}

/** An upgrade now changes the mix type; at the next cycle it is planned for that day (inside the term). */
export function upgrade(
  state: LifecycleState,
  request: { offerId: string; mixType: string; time: UpgradeTime; today: string; nextCycle: string },
): Transition {
  if (!isActive(state.status)) return refuse('inactive');
  if (request.time === 'NEXT_CYCLE') {
    if (!isWithinTerm(state, request.nextCycle)) return refuse('date_after_end');
    return done(
      {
        ...state,
        plannedUpgrade: { offerId: request.offerId, mixType: request.mixType, from: request.nextCycle },
      },
      {
        kind: 'upgrade',
        date: request.nextCycle,
        offerId: request.offerId,
        mixType: request.mixType,
        later: true,
      },
    );
  }
  return done(
    { ...state, mixType: request.mixType, plannedUpgrade: null },
    { kind: 'upgrade', date: request.today, offerId: request.offerId, mixType: request.mixType },
  );
}

/** The current phase upgraded now: only an active subscription whose phase can be (see the rules above). */
export function upgradePhase(state: LifecycleState, request: { today: string }): Transition {
  if (!isActive(state.status)) return refuse('inactive');
  if (!state.phaseUpgradable) return refuse('phase_not_upgradable');
  return done({ ...state, phaseUpgradable: false }, { kind: 'phase-upgrade', date: request.today });
}

/** A holiday break from..to: inside the term, not in the past (account-flows.md §4 "Holiday service"). */
export function startHoliday(
  state: LifecycleState,
  request: { from: string; to: string; today: string },
): Transition {
  if (!isActive(state.status) && state.status !== 'IU') return refuse('inactive');
  if (request.to < request.from) return refuse('invalid_range');
  if (request.from < request.today) return refuse('date_in_past');
  if (!isWithinTerm(state, request.to)) return refuse('date_after_end');
  return done(
    { ...state, suspension: { from: request.from, to: request.to } },
    { kind: 'suspend', date: request.from },
  );
}

/** The holiday break was cancelled (or ended). */
export function endHoliday(state: LifecycleState): Transition {
  return done({ ...state, suspension: null });
}

/** A change waiting for its day (address, payment method): not after the end. */
export function scheduleChange(
  state: LifecycleState,
  request: { kind: 'address' | 'payment-method'; from: string; today: string },
): Transition {
  if (request.from < request.today) return refuse('date_in_past');
  if (!isWithinTerm(state, request.from)) return refuse('date_after_end');
  return done(
    {
      ...state,
      scheduled: [
        ...state.scheduled.filter((change) => change.kind !== request.kind),
        { kind: request.kind, from: request.from },
      ],
    },
    { kind: 'schedule', date: request.from },
  );
}
