/**
 * The subscription lifecycle (engine/domain/lifecycle.ts): random sequences of
 * transitions on random subscriptions, with the invariants checked after every step, and the
 * sequences subscribers ran into spelled out. fast-check prints the seed and the shrunk sequence of
 * a failure; FC_SEED replays one (the run is fixed to a seed so CI is repeatable).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  acceptOffer,
  addMonths,
  cancel,
  currentPeriodEnd,
  endHoliday,
  endWithBundle,
  isOfferPaymentOpen,
  isOfferTaken,
  isRenewed,
  isRetentionUsed,
  isUpgradeToHeldFormat,
  renewedUntil,
  openOffers,
  renew,
  scheduleChange,
  settlePayment,
  startHoliday,
  upgradePhase,
  type LifecycleState,
  type OfferEffect,
  type Transition,
} from '../../engine/domain/lifecycle';
import { isActive } from '../../engine/domain/orderStatus';

const SEED = Number(process.env.FC_SEED ?? 20261125);
const START = '2026-11-25';
const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const OFFERS: Record<string, OfferEffect> = {
  'RENEW-12': { kind: 'extend', months: 12 },
  'RENEW-24': { kind: 'extend', months: 24 },
  // The seed's "print + digital bundle, 12 months": a renewal in another format.
  'RENEW-BUNDLE': { kind: 'extend', months: 12, mixType: 'KO' },
  'UP-DE': { kind: 'upgrade', mixType: 'DE', typeKey: 'DE' },
  'UP-KO': { kind: 'upgrade', mixType: 'KO', typeKey: 'KO' },
  // A second offer of the same format (the seed's "print + digital from today" and "… from the next period").
  'UP-KO-NEXT': { kind: 'upgrade', mixType: 'KO', typeKey: 'KO' },
  'RETAIN-3': { kind: 'retain', months: 3, discountPercent: 50 },
  'KEEP-YEAR': { kind: 'extend', months: 12 },
};
/** The retention offers: taken in the cancellation flow. */
const RETENTION = new Set(['RETAIN-3', 'KEEP-YEAR']);
const sourceOf = (offerId: string) =>
  RETENTION.has(offerId) ? 'cancellation' : OFFERS[offerId].kind === 'upgrade' ? 'upgrade' : 'renewal';
const OFFER_IDS = Object.keys(OFFERS);

function subscription(overrides: Partial<LifecycleState> = {}): LifecycleState {
  return {
    status: 'A',
    end: '2027-02-02',
    endIssue: '2/2027',
    isCancelable: true,
    cancellation: null,
    mixType: 'PR',
    plannedUpgrade: null,
    retention: null,
    suspension: null,
    scheduled: [],
    acceptances: [],
    phaseUpgradable: false,
    ...overrides,
  };
}

const arbState: fc.Arbitrary<LifecycleState> = fc
  .record({
    status: fc.constantFrom('A' as const, 'IZ' as const, 'I' as const, 'IU' as const),
    endIn: fc.option(fc.integer({ min: -60, max: 400 }), { nil: null }),
    endIssue: fc.option(fc.constantFrom('12/2026', '1/2027', '2/2027'), { nil: null }),
    isCancelable: fc.boolean(),
    mixType: fc.constantFrom('PR', 'DE', 'KO'),
    phaseUpgradable: fc.boolean(),
  })
  .map(({ endIn, ...rest }) =>
    subscription({
      ...rest,
      end: endIn === null ? null : addDays(START, endIn),
      endIssue: endIn === null ? null : rest.endIssue,
    }),
  );

type Step =
  | { op: 'wait'; days: number }
  | { op: 'cancel'; inDays: number; issue: string | null; exceptional: boolean }
  | { op: 'accept'; offerId: string; online: boolean; upgradeTime: 'NOW' | 'NEXT_CYCLE' }
  | { op: 'settle'; pick: number; outcome: 'success' | 'error' | 'canceled' }
  | { op: 'renew'; months: number }
  | { op: 'holiday'; inDays: number; length: number }
  | { op: 'endHoliday' }
  | { op: 'schedule'; kind: 'address' | 'payment-method'; inDays: number }
  | { op: 'phaseUpgrade' };

const arbStep: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('wait' as const), days: fc.integer({ min: 1, max: 200 }) }),
  fc.record({
    op: fc.constant('cancel' as const),
    inDays: fc.integer({ min: -5, max: 300 }),
    issue: fc.option(fc.constantFrom('1/2027', '3/2027'), { nil: null }),
    exceptional: fc.boolean(),
  }),
  fc.record({
    op: fc.constant('accept' as const),
    offerId: fc.constantFrom(...OFFER_IDS),
    online: fc.boolean(),
    upgradeTime: fc.constantFrom('NOW' as const, 'NEXT_CYCLE' as const),
  }),
  fc.record({
    op: fc.constant('settle' as const),
    pick: fc.nat(5),
    outcome: fc.constantFrom('success' as const, 'error' as const, 'canceled' as const),
  }),
  fc.record({ op: fc.constant('renew' as const), months: fc.integer({ min: 1, max: 24 }) }),
  fc.record({
    op: fc.constant('holiday' as const),
    inDays: fc.integer({ min: -3, max: 300 }),
    length: fc.integer({ min: 0, max: 60 }),
  }),
  fc.record({ op: fc.constant('endHoliday' as const) }),
  fc.record({ op: fc.constant('phaseUpgrade' as const) }),
  fc.record({
    op: fc.constant('schedule' as const),
    kind: fc.constantFrom('address' as const, 'payment-method' as const),
    inDays: fc.integer({ min: -3, max: 300 }),
  }),
);

/** The invariants of docs/architecture.md "The subscription lifecycle", after every step. */
function checkInvariants(state: LifecycleState, today: string): void {
  // The end shown equals the effective cancellation when cancelled.
  if (state.status === 'AK') {
    expect(state.cancellation).not.toBeNull();
    expect(state.end).toBe(state.cancellation!.effectiveDate);
    expect(state.endIssue).toBe(state.cancellation!.issueNumber);
    expect(state.isCancelable).toBe(false);
  }
  // A cancellation revoked by a renewal leaves no trace of "cancelled".
  if (state.cancellation) expect(state.status).toBe('AK');
  // Nothing after the end is planned or offered as a date.
  if (state.end !== null) {
    if (state.plannedUpgrade) expect(state.plannedUpgrade.from <= state.end).toBe(true);
    if (state.suspension) {
      expect(state.suspension.from <= state.end).toBe(true);
      expect(state.suspension.to === null || state.suspension.to <= state.end).toBe(true);
    }
    for (const change of state.scheduled) expect(change.from <= state.end).toBe(true);
  }
  // A suspension's days are a range.
  if (state.suspension?.to) expect(state.suspension.from <= state.suspension.to).toBe(true);
  // At most one acceptance of an offer holds it at a time (no double accept).
  for (const offerId of OFFER_IDS) {
    const holding = state.acceptances.filter((a) => a.offerId === offerId && a.status === 'pending');
    expect(holding.length).toBeLessThanOrEqual(1);
  }
  // One offer at a time waits for its payment: no second one could be paid for beside it.
  expect(state.acceptances.filter((a) => a.status === 'pending').length).toBeLessThanOrEqual(1);
  // An offer taken is not among the open ones, nor an upgrade to a format it has or will have,
  // nor any while an offer's payment is open.
  const open = openOffers(
    state,
    OFFER_IDS.map((id) => ({ id, effect: OFFERS[id] })),
    today,
  ).map((o) => o.id);
  for (const offerId of OFFER_IDS)
    expect(open.includes(offerId)).toBe(
      !isOfferPaymentOpen(state) &&
        !isOfferTaken(state, offerId, today) &&
        !isUpgradeToHeldFormat(state, OFFERS[offerId]),
    );
  // The format it has, the one planned and those waiting for a payment are all different: no
  // upgrade to a format it has or will have was ever accepted.
  const formats = [
    state.mixType,
    ...(state.plannedUpgrade ? [state.plannedUpgrade.mixType] : []),
    ...state.acceptances.flatMap((a) =>
      a.status === 'pending' && a.effect.kind === 'upgrade' ? [a.effect.mixType] : [],
    ),
  ];
  expect(new Set(formats).size).toBe(formats.length);
  // No renewal is offered while one runs, whichever it was.
  if (isRenewed(state, today))
    expect(
      openOffers(
        state,
        OFFER_IDS.filter((id) => sourceOf(id) === 'renewal').map((id) => ({ id, effect: OFFERS[id] })),
        today,
        'renewal',
      ),
    ).toEqual([]);
  // No retention offer is offered in the year after one was taken.
  if (isRetentionUsed(state, today))
    expect(
      openOffers(
        state,
        [...RETENTION].map((id) => ({ id })),
        today,
        'cancellation',
      ),
    ).toEqual([]);
}

function run(initial: LifecycleState, steps: readonly Step[]): void {
  let state = initial;
  let today = START;
  let payments = 0;
  const settledPayments = new Set<string>();
  checkInvariants(state, today);
  for (const step of steps) {
    let result: Transition | null = null;
    switch (step.op) {
      case 'wait':
        today = addDays(today, step.days);
        break;
      case 'cancel': {
        const effectiveDate = addDays(today, step.inDays);
        const paidUntil = renewedUntil(state, today);
        result = cancel(state, {
          type: step.exceptional ? 'exceptional' : 'regular',
          effectiveDate,
          issueNumber: step.issue,
          today,
        });
        if (result.ok) expect(state.status === 'AK' || state.status === 'I').toBe(false);
        // A renewal that runs is not cut short: the cancellation takes effect at its end, no earlier.
        if (result.ok && paidUntil !== null) expect(effectiveDate >= paidUntil).toBe(true);
        break;
      }
      case 'accept': {
        const wasTaken = isOfferTaken(state, step.offerId, today);
        const paymentOpen = isOfferPaymentOpen(state);
        const retentionUsed = isRetentionUsed(state, today);
        const renewed = isRenewed(state, today);
        const formatHeld = isUpgradeToHeldFormat(state, OFFERS[step.offerId]);
        const paymentId = step.online ? `PAY-${++payments}` : null;
        result = acceptOffer(state, {
          offerId: step.offerId,
          source: sourceOf(step.offerId),
          effect: OFFERS[step.offerId],
          upgradeTime: OFFERS[step.offerId].kind === 'upgrade' ? step.upgradeTime : null,
          paymentId,
          today,
          nextCycle: addDays(today, 30),
        });
        // An accepted offer is never accepted again while it holds.
        if (wasTaken) expect(result).toEqual({ ok: false, refusal: 'offer_already_accepted' });
        // Nor any other while an offer's payment is open.
        else if (paymentOpen) expect(result).toEqual({ ok: false, refusal: 'offer_payment_open' });
        // A retention offer is taken once a year, whichever it was.
        else if (
          RETENTION.has(step.offerId) &&
          retentionUsed &&
          !(state.status === 'AK' || state.status === 'I')
        )
          expect(result).toEqual({ ok: false, refusal: 'offer_already_used' });
        // A subscription is renewed once while the renewal runs, whichever renewal offer it was.
        else if (sourceOf(step.offerId) === 'renewal' && renewed)
          expect(result).toEqual({ ok: false, refusal: 'already_renewed' });
        // No upgrade to the format it has or will have.
        if (formatHeld) expect(result.ok).toBe(false);
        if (result.ok) expect(isOfferTaken(result.state, step.offerId, today)).toBe(true);
        break;
      }
      case 'settle': {
        const ids = [
          ...new Set(state.acceptances.map((a) => a.paymentId).filter((id): id is string => id !== null)),
        ];
        if (ids.length === 0) break;
        const paymentId = ids[step.pick % ids.length];
        result = settlePayment(state, {
          paymentId,
          outcome: step.outcome,
          today,
          nextCycle: addDays(today, 30),
        });
        // A payment settles once.
        if (settledPayments.has(paymentId)) expect(result.ok).toBe(false);
        if (result.ok) settledPayments.add(paymentId);
        break;
      }
      case 'renew':
        result = renew(state, { months: step.months, today });
        if (result.ok) {
          const from = state.end !== null && state.end > today ? state.end : today;
          expect(result.state.end).toBe(addMonths(from, step.months));
          expect(result.state.status).not.toBe('AK');
        }
        break;
      case 'holiday':
        result = startHoliday(state, {
          from: addDays(today, step.inDays),
          to: addDays(today, step.inDays + step.length),
          today,
        });
        break;
      case 'endHoliday':
        result = endHoliday(state);
        break;
      case 'schedule':
        result = scheduleChange(state, { kind: step.kind, from: addDays(today, step.inDays), today });
        break;
      case 'phaseUpgrade':
        result = upgradePhase(state, { today });
        // Only an active subscription whose phase can be; once upgraded, not again.
        if (!isActive(state.status)) expect(result).toEqual({ ok: false, refusal: 'inactive' });
        else if (!state.phaseUpgradable)
          expect(result).toEqual({ ok: false, refusal: 'phase_not_upgradable' });
        if (result.ok) {
          expect(result.state).toEqual({ ...state, phaseUpgradable: false });
          expect(upgradePhase(result.state, { today })).toEqual({
            ok: false,
            refusal: 'phase_not_upgradable',
          });
        }
        break;
    }
    if (result && !result.ok) expect(typeof result.refusal).toBe('string');
    if (result?.ok) state = result.state;
    checkInvariants(state, today);
  }
}

describe('subscription lifecycle: invariants over random sequences', () => {
  it('hold after every step', () => {
    fc.assert(
      fc.property(arbState, fc.array(arbStep, { maxLength: 25 }), (initial, steps) => run(initial, steps)),
      { seed: SEED, numRuns: 400, verbose: 1 },
    );
  });

  it('never change the state given to a transition', () => {
    fc.assert(
      fc.property(arbState, arbStep, (initial, step) => {
        const frozen = JSON.stringify(initial);
        run(initial, [step]);
        expect(JSON.stringify(initial)).toBe(frozen);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });
});

describe('subscription lifecycle: the sequences subscribers ran into', () => {
  const today = '2026-11-25';

  it('cancelling to 05.01.2027 (issue 1/2027) ends it there, not with issue 2/2027', () => {
    const result = cancel(subscription(), {
      type: 'regular',
      effectiveDate: '2027-01-05',
      issueNumber: '1/2027',
      today,
    });
    expect(result.ok && result.state).toMatchObject({
      status: 'AK',
      end: '2027-01-05',
      endIssue: '1/2027',
      isCancelable: false,
    });
  });

  it('a date after the end is refused', () => {
    expect(
      cancel(subscription(), { type: 'regular', effectiveDate: '2027-03-02', issueNumber: '3/2027', today }),
    ).toEqual({ ok: false, refusal: 'date_after_end' });
    expect(startHoliday(subscription(), { from: '2027-01-20', to: '2027-02-20', today })).toEqual({
      ok: false,
      refusal: 'date_after_end',
    });
  });

  it('renewing a cancelled subscription revokes the cancellation instead of "cancelled, ends 05.01.2028"', () => {
    const cancelled = cancel(subscription(), {
      type: 'regular',
      effectiveDate: '2027-01-05',
      issueNumber: '1/2027',
      today,
    });
    if (!cancelled.ok) throw new Error(cancelled.refusal);
    const renewed = acceptOffer(cancelled.state, {
      offerId: 'RENEW-12',
      source: 'renewal',
      effect: OFFERS['RENEW-12'],
      upgradeTime: null,
      paymentId: null,
      today,
      nextCycle: '2026-12-25',
    });
    expect(renewed.ok && renewed.state).toMatchObject({
      status: 'A',
      end: '2028-01-05',
      endIssue: null,
      cancellation: null,
      isCancelable: true,
    });
    expect(renewed.ok && renewed.changes).toEqual([
      {
        kind: 'extend',
        date: '2028-01-05',
        offerId: 'RENEW-12',
        revokedCancellation: { type: 'regular', effectiveDate: '2027-01-05', issueNumber: '1/2027' },
      },
    ]);
    // The goods recipient's bulk renewal does not revoke the ordering party's cancellation.
    expect(
      acceptOffer(cancelled.state, {
        offerId: 'RENEW-12',
        source: 'bulk-renewal',
        effect: OFFERS['RENEW-12'],
        upgradeTime: null,
        paymentId: null,
        today,
        nextCycle: '2026-12-25',
      }),
    ).toEqual({
      ok: false,
      refusal: 'already_cancelled',
    });
  });

  it('bulk renewal of two subscriptions moves both ends', () => {
    const ends = [
      subscription({ end: '2027-01-10' }),
      subscription({ end: '2027-03-01', endIssue: null }),
    ].map((s) => {
      const result = acceptOffer(s, {
        offerId: 'RENEW-12',
        source: 'bulk-renewal',
        effect: OFFERS['RENEW-12'],
        upgradeTime: null,
        paymentId: 'PAY-BULK',
        today,
        nextCycle: '2026-12-25',
      });
      if (!result.ok) throw new Error(result.refusal);
      const settled = settlePayment(result.state, {
        paymentId: 'PAY-BULK',
        outcome: 'success',
        today,
        nextCycle: '2026-12-25',
      });
      if (!settled.ok) throw new Error(settled.refusal);
      return settled.state.end;
    });
    expect(ends).toEqual(['2028-01-10', '2028-03-01']);
  });

  it('an accepted offer is not offered or accepted again; a payment settles once', () => {
    const accepted = acceptOffer(subscription(), {
      offerId: 'UP-DE',
      source: 'upgrade',
      effect: OFFERS['UP-DE'],
      upgradeTime: 'NOW',
      paymentId: 'PAY-1',
      today,
      nextCycle: '2026-12-25',
    });
    if (!accepted.ok) throw new Error(accepted.refusal);
    // While its payment is open, no offer is: a second one could be paid for beside it.
    expect(openOffers(accepted.state, [{ id: 'UP-DE' }, { id: 'UP-KO' }], today)).toEqual([]);
    expect(
      acceptOffer(accepted.state, {
        offerId: 'RENEW-12',
        source: 'renewal',
        effect: OFFERS['RENEW-12'],
        upgradeTime: null,
        paymentId: null,
        today,
        nextCycle: '2026-12-25',
      }),
    ).toEqual({ ok: false, refusal: 'offer_payment_open' });
    expect(
      acceptOffer(accepted.state, {
        offerId: 'UP-DE',
        source: 'upgrade',
        effect: OFFERS['UP-DE'],
        upgradeTime: 'NOW',
        paymentId: 'PAY-2',
        today,
        nextCycle: '2026-12-25',
      }),
    ).toEqual({
      ok: false,
      refusal: 'offer_already_accepted',
    });
    const paid = settlePayment(accepted.state, {
      paymentId: 'PAY-1',
      outcome: 'success',
      today,
      nextCycle: '2026-12-25',
    });
    expect(paid.ok && paid.state.mixType).toBe('DE');
    if (!paid.ok) return;
    expect(
      settlePayment(paid.state, { paymentId: 'PAY-1', outcome: 'success', today, nextCycle: '2026-12-25' }),
    ).toEqual({ ok: false, refusal: 'payment_already_settled' });
    expect(openOffers(paid.state, [{ id: 'UP-DE' }], '2030-01-01')).toEqual([]);
  });

  it('a renewal is open again a term later, a failed payment leaves it open at once', () => {
    const renewed = acceptOffer(subscription(), {
      offerId: 'RENEW-12',
      source: 'renewal',
      effect: OFFERS['RENEW-12'],
      upgradeTime: null,
      paymentId: null,
      today,
      nextCycle: '2026-12-25',
    });
    if (!renewed.ok) throw new Error(renewed.refusal);
    expect(isOfferTaken(renewed.state, 'RENEW-12', '2027-11-24')).toBe(true);
    expect(isOfferTaken(renewed.state, 'RENEW-12', '2027-11-25')).toBe(false);
    const failed = acceptOffer(subscription(), {
      offerId: 'RENEW-12',
      source: 'renewal',
      effect: OFFERS['RENEW-12'],
      upgradeTime: null,
      paymentId: 'P',
      today,
      nextCycle: '2026-12-25',
    });
    if (!failed.ok) throw new Error(failed.refusal);
    const declined = settlePayment(failed.state, {
      paymentId: 'P',
      outcome: 'error',
      today,
      nextCycle: '2026-12-25',
    });
    expect(declined.ok && isOfferTaken(declined.state, 'RENEW-12', today)).toBe(false);
  });

  it('a renewal is not cut short by a cancellation, so taking the cancellation back never pays for its months twice', () => {
    const renewal = (state: LifecycleState, offerId: string, paymentId: string | null) =>
      acceptOffer(state, {
        offerId,
        source: 'renewal',
        effect: OFFERS[offerId],
        upgradeTime: null,
        paymentId,
        today,
        nextCycle: '2026-12-25',
      });
    const renewed = renewal(subscription(), 'RENEW-12', null);
    if (!renewed.ok) throw new Error(renewed.refusal);
    expect(renewedUntil(renewed.state, today)).toBe('2028-02-02');
    const cancelOn = (state: LifecycleState, effectiveDate: string) =>
      cancel(state, { type: 'regular', effectiveDate, issueNumber: null, today });
    // Before: cancelled to 05.01.2027, then renewed again to take it back: 2027 paid twice.
    expect(cancelOn(renewed.state, '2027-01-05')).toEqual({ ok: false, refusal: 'renewed_term' });
    expect(cancelOn(renewed.state, '2028-02-01')).toEqual({ ok: false, refusal: 'renewed_term' });
    const cancelled = cancelOn(renewed.state, '2028-02-02');
    expect(cancelled.ok && cancelled.state).toMatchObject({ status: 'AK', end: '2028-02-02' });
    if (!cancelled.ok) throw new Error(cancelled.refusal);
    expect(renewedUntil(cancelled.state, today)).toBeNull();
    // Renewing now takes the cancellation back with months after the paid ones.
    const again = renewal(cancelled.state, 'RENEW-24', null);
    expect(again.ok && again.state).toMatchObject({ status: 'A', end: '2030-02-02' });
    // A renewal still waiting for its payment holds nothing paid: cancelling earlier voids it.
    const waiting = renewal(subscription(), 'RENEW-12', 'P');
    if (!waiting.ok) throw new Error(waiting.refusal);
    expect(renewedUntil(waiting.state, today)).toBeNull();
    expect(cancelOn(waiting.state, '2027-01-05').ok).toBe(true);
  });

  it("a bundle's renewal gives its format from the term it buys: planned for the old end, or today once the term is over", () => {
    const bundle = (state: LifecycleState, on: string) =>
      acceptOffer(state, {
        offerId: 'RENEW-BUNDLE',
        source: 'renewal',
        effect: OFFERS['RENEW-BUNDLE'],
        upgradeTime: null,
        paymentId: null,
        today: on,
        nextCycle: addDays(on, 30),
      });
    // Renewed before its end: print through 02.02.2027, print + digital from the next day.
    const early = bundle(subscription(), today);
    expect(early.ok && early.state).toMatchObject({
      end: '2028-02-02',
      mixType: 'PR',
      plannedUpgrade: { offerId: 'RENEW-BUNDLE', mixType: 'KO', from: '2027-02-03' },
    });
    expect(early.ok && early.changes).toEqual([
      expect.objectContaining({
        kind: 'extend',
        date: '2028-02-02',
        mixType: 'KO',
        later: true,
        formatFrom: '2027-02-03',
      }),
    ]);
    // Its format belongs to the term it bought: no upgrade replaces it, to another format or now.
    if (!early.ok) throw new Error(early.refusal);
    for (const [offerId, upgradeTime] of [
      ['UP-DE', 'NEXT_CYCLE'],
      ['UP-DE', 'NOW'],
    ] as const) {
      const upgrade = { offerId, source: 'upgrade' as const, effect: OFFERS[offerId], upgradeTime };
      expect(openOffers(early.state, [{ id: offerId, effect: OFFERS[offerId] }], today)).toEqual([]);
      expect(
        acceptOffer(early.state, { ...upgrade, paymentId: null, today, nextCycle: '2026-12-25' }),
      ).toEqual({ ok: false, refusal: 'upgrade_format_held' });
    }
    // An upgrade to it planned before stays as planned, from its own earlier day.
    const upgraded = acceptOffer(subscription(), {
      offerId: 'UP-KO-NEXT',
      source: 'upgrade',
      effect: OFFERS['UP-KO-NEXT'],
      upgradeTime: 'NEXT_CYCLE',
      paymentId: null,
      today,
      nextCycle: '2026-12-25',
    });
    if (!upgraded.ok) throw new Error(upgraded.refusal);
    const both = bundle(upgraded.state, today);
    expect(both.ok && both.state).toMatchObject({
      end: '2028-02-02',
      plannedUpgrade: { offerId: 'UP-KO-NEXT', mixType: 'KO', from: '2026-12-25' },
    });
    expect(both.ok && both.changes[0].mixType).toBeUndefined();
    // Renewed on its last day: the new format begins the next day.
    const lastDay = bundle(subscription({ end: today }), today);
    expect(lastDay.ok && lastDay.state).toMatchObject({
      mixType: 'PR',
      plannedUpgrade: { mixType: 'KO', from: addDays(today, 1) },
    });
    // Renewed after it ended: print + digital from today.
    const late = bundle(subscription({ status: 'I', end: '2026-10-31' }), today);
    expect(late.ok && late.state).toMatchObject({ status: 'A', mixType: 'KO', plannedUpgrade: null });
    expect(late.ok && late.changes[0]).toMatchObject({ kind: 'extend', mixType: 'KO', later: false });
    // A print + digital subscription renewed as a bundle stays what it is, with nothing planned.
    const same = bundle(subscription({ mixType: 'KO' }), today);
    expect(same.ok && same.state).toMatchObject({ mixType: 'KO', plannedUpgrade: null });
    expect(same.ok && same.changes[0].mixType).toBeUndefined();
  });

  it('a retention offer that extends the term holds it like a renewal: no cancellation cuts the paid year short, and no renewal is offered on top', () => {
    const kept = acceptOffer(subscription(), {
      offerId: 'KEEP-YEAR',
      source: 'cancellation',
      effect: OFFERS['KEEP-YEAR'],
      upgradeTime: null,
      paymentId: null,
      today,
      nextCycle: '2026-12-25',
    });
    if (!kept.ok) throw new Error(kept.refusal);
    expect(renewedUntil(kept.state, today)).toBe('2028-02-02');
    expect(
      cancel(kept.state, { type: 'regular', effectiveDate: '2027-01-05', issueNumber: null, today }),
    ).toEqual({ ok: false, refusal: 'renewed_term' });
    expect(isRenewed(kept.state, today)).toBe(true);
    // A retention discount moves no end and buys no term: it holds nothing.
    const discounted = acceptOffer(subscription(), {
      offerId: 'RETAIN-3',
      source: 'cancellation',
      effect: OFFERS['RETAIN-3'],
      upgradeTime: null,
      paymentId: null,
      today,
      nextCycle: '2026-12-25',
    });
    if (!discounted.ok) throw new Error(discounted.refusal);
    expect(renewedUntil(discounted.state, today)).toBeNull();
  });

  it('cancelling voids offers waiting for a payment and an upgrade planned after the new end', () => {
    const planned = acceptOffer(subscription({ end: '2027-06-30', endIssue: null }), {
      offerId: 'UP-KO',
      source: 'upgrade',
      effect: OFFERS['UP-KO'],
      upgradeTime: 'NEXT_CYCLE',
      paymentId: null,
      today,
      nextCycle: '2027-03-01',
    });
    if (!planned.ok) throw new Error(planned.refusal);
    const waiting = acceptOffer(planned.state, {
      offerId: 'RENEW-12',
      source: 'renewal',
      effect: OFFERS['RENEW-12'],
      upgradeTime: null,
      paymentId: 'PAY-9',
      today,
      nextCycle: '2027-03-01',
    });
    if (!waiting.ok) throw new Error(waiting.refusal);
    const cancelled = cancel(waiting.state, {
      type: 'regular',
      effectiveDate: '2027-01-05',
      issueNumber: '1/2027',
      today,
    });
    expect(cancelled.ok && cancelled.state.plannedUpgrade).toBeNull();
    expect(cancelled.ok && cancelled.changes[0].voidedPayments).toEqual(['PAY-9']);
    expect(
      cancelled.ok &&
        settlePayment(cancelled.state, {
          paymentId: 'PAY-9',
          outcome: 'success',
          today,
          nextCycle: '2027-03-01',
        }),
    ).toEqual({ ok: false, refusal: 'payment_already_settled' });
  });

  it('an inactive subscription is not upgraded (the model follows the lifecycle over §6 "upgrade: ordering party")', () => {
    expect(
      acceptOffer(subscription({ status: 'I' }), {
        offerId: 'UP-DE',
        source: 'upgrade',
        effect: OFFERS['UP-DE'],
        upgradeTime: 'NOW',
        paymentId: null,
        today,
        nextCycle: '2026-12-25',
      }),
    ).toEqual({
      ok: false,
      refusal: 'inactive',
    });
  });

  describe('no upgrade to the format it has or will have', () => {
    const accept = (state: LifecycleState, offerId: string, paymentId: string | null = null) =>
      acceptOffer(state, {
        offerId,
        source: 'upgrade',
        effect: OFFERS[offerId],
        upgradeTime: offerId === 'UP-KO-NEXT' ? 'NEXT_CYCLE' : 'NOW',
        paymentId,
        today,
        nextCycle: '2026-12-25',
      });
    const offered = (state: LifecycleState) =>
      openOffers(
        state,
        ['UP-DE', 'UP-KO', 'UP-KO-NEXT'].map((id) => ({ id, effect: OFFERS[id] })),
        today,
        'upgrade',
      ).map((o) => o.id);

    it('print + digital is not offered "print + digital from today", and its accept is refused, paid or not', () => {
      const kombi = subscription({ mixType: 'KO' });
      expect(offered(kombi)).toEqual(['UP-DE']);
      expect(accept(kombi, 'UP-KO', 'PAY-1')).toEqual({ ok: false, refusal: 'upgrade_format_held' });
      expect(accept(kombi, 'UP-KO-NEXT')).toEqual({ ok: false, refusal: 'upgrade_format_held' });
      expect(accept(kombi, 'UP-DE').ok).toBe(true);
    });

    it('an upgrade planned for the next cycle counts: the same format now is neither offered nor accepted', () => {
      const planned = accept(subscription(), 'UP-KO-NEXT');
      if (!planned.ok) throw new Error(planned.refusal);
      expect(planned.state.plannedUpgrade).toMatchObject({ mixType: 'KO' });
      expect(offered(planned.state)).toEqual(['UP-DE']);
      expect(accept(planned.state, 'UP-KO')).toEqual({ ok: false, refusal: 'upgrade_format_held' });
    });

    it('an upgrade waiting for its payment counts, and its own payment still applies it', () => {
      const waiting = accept(subscription(), 'UP-KO', 'PAY-1');
      if (!waiting.ok) throw new Error(waiting.refusal);
      // Nothing is offered while its payment is open (isOfferPaymentOpen).
      expect(offered(waiting.state)).toEqual([]);
      expect(accept(waiting.state, 'UP-KO-NEXT')).toEqual({ ok: false, refusal: 'offer_payment_open' });
      const paid = settlePayment(waiting.state, {
        paymentId: 'PAY-1',
        outcome: 'success',
        today,
        nextCycle: '2026-12-25',
      });
      expect(paid.ok && paid.state.mixType).toBe('KO');
      // A failed payment leaves the format open again.
      const failed = settlePayment(waiting.state, {
        paymentId: 'PAY-1',
        outcome: 'error',
        today,
        nextCycle: '2026-12-25',
      });
      if (!failed.ok) throw new Error(failed.refusal);
      expect(offered(failed.state)).toEqual(['UP-DE', 'UP-KO', 'UP-KO-NEXT']);
    });

    it('a payment that would upgrade to the format the order system gave meanwhile does not apply', () => {
      const waiting = accept(subscription(), 'UP-KO', 'PAY-1');
      if (!waiting.ok) throw new Error(waiting.refusal);
      expect(
        settlePayment(
          { ...waiting.state, mixType: 'KO' },
          { paymentId: 'PAY-1', outcome: 'success', today, nextCycle: '2026-12-25' },
        ),
      ).toEqual({ ok: false, refusal: 'upgrade_format_held' });
    });
  });
});

describe('addMonths', () => {
  it('stays inside the month it lands in, as a subscriber counts months', () => {
    expect(addMonths('2026-11-30', 3)).toBe('2027-02-28');
    expect(addMonths('2027-11-30', 3)).toBe('2028-02-29');
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(addMonths('2026-11-15', 12)).toBe('2027-11-15');
    expect(addMonths('2026-12-31', 2)).toBe('2027-02-28');
  });

  it('never skips a month and keeps the day where the month has it', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2090-12-31'), noInvalidDate: true }),
        fc.integer({ min: -120, max: 120 }),
        (date, months) => {
          const day = date.toISOString().slice(0, 10);
          const result = addMonths(day, months);
          const [y, m, d] = day.split('-').map(Number);
          const [ry, rm, rd] = result.split('-').map(Number);
          expect(ry * 12 + rm - (y * 12 + m)).toBe(months);
          expect(rd).toBe(Math.min(d, new Date(Date.UTC(ry, rm, 0)).getUTCDate()));
        },
      ),
      { seed: SEED },
    );
  });
});

describe('the calendar’s end (an order system’s 31.12.9999 for a term without end)', () => {
  const forever = subscription({ end: '9999-12-31', endIssue: null });
  const accept = (paymentId: string | null) =>
    acceptOffer(forever, {
      offerId: 'RENEW-12',
      source: 'renewal',
      effect: OFFERS['RENEW-12'],
      upgradeTime: null,
      paymentId,
      today: START,
      nextCycle: '2026-12-25',
    });

  it('refuses a renewal past it, billed or paid online, before any payment is asked for', () => {
    expect(renew(forever, { months: 12, today: START })).toEqual({ ok: false, refusal: 'beyond_calendar' });
    expect(accept(null)).toEqual({ ok: false, refusal: 'beyond_calendar' });
    expect(accept('PAY-1')).toEqual({ ok: false, refusal: 'beyond_calendar' });
  });

  it('still takes a renewal that ends on it, and a cancellation of such a term', () => {
    const renewed = renew(subscription({ end: '9998-12-31' }), { months: 12, today: START });
    expect(renewed.ok && renewed.state.end).toBe('9999-12-31');
    const cancelled = cancel(forever, {
      type: 'regular',
      effectiveDate: '2027-06-30',
      issueNumber: null,
      today: START,
    });
    expect(cancelled.ok).toBe(true);
  });
});

describe('an offer pays for the months it covers', () => {
  const accept = (state: LifecycleState, effect: OfferEffect, source: 'cancellation' | 'renewal') =>
    acceptOffer(state, {
      offerId: 'X',
      source,
      effect,
      upgradeTime: null,
      paymentId: null,
      today: '2026-11-30',
      nextCycle: '2026-12-29',
    });
  const monthly = subscription({
    end: null,
    endIssue: null,
    nextPayment: { day: '2026-12-29', everyMonths: 1 },
  });

  it('moves only payments whose whole period is discounted: none that pays for a day after it', () => {
    // Taken on 15 November for three months: discounted through 14 February.
    const fifteenth = (nextDay: string) =>
      acceptOffer(
        subscription({ end: null, endIssue: null, nextPayment: { day: nextDay, everyMonths: 1 } }),
        {
          offerId: 'X',
          source: 'cancellation',
          effect: OFFERS['RETAIN-3'],
          upgradeTime: null,
          paymentId: null,
          today: '2026-11-15',
          nextCycle: '2026-12-14',
        },
      );
    const taken = fifteenth('2026-12-14');
    expect(taken.ok && taken.state.retention?.until).toBe('2027-02-14');
    // 14 December and 14 January are paid for; 14 February pays 14 February to 13 March: due.
    expect(taken.ok && taken.state.nextPayment).toEqual({ day: '2027-02-14', everyMonths: 1 });
    // A payment on the day after the discount stays where it is.
    const after = fifteenth('2027-02-15');
    expect(after.ok && after.state.nextPayment).toEqual({ day: '2027-02-15', everyMonths: 1 });
  });

  it('moves the next automatic payment past the discounted months of a retention offer', () => {
    const taken = accept(monthly, OFFERS['RETAIN-3'], 'cancellation');
    // Three months from 30 November: the discount runs through 27 February, its last day.
    expect(taken.ok && taken.state.retention?.until).toBe('2027-02-27');
    // 29 December and 29 January are paid for; 28 February (29 December + 2 months) is due.
    expect(taken.ok && taken.state.nextPayment).toEqual({ day: '2027-02-28', everyMonths: 1 });
  });

  it('moves it past a renewal’s months, and leaves one due before the renewal begins', () => {
    const renewed = accept(monthly, OFFERS['RENEW-12'], 'renewal');
    expect(renewed.ok && renewed.state.end).toBe('2027-11-30');
    // 29 November 2027 pays for a month that runs past the renewal's last day: it is due.
    expect(renewed.ok && renewed.state.nextPayment).toEqual({ day: '2027-11-29', everyMonths: 1 });
    // A term that ends after the next payment: that payment is for the term before the renewal.
    const ending = subscription({ end: '2027-01-05', nextPayment: { day: '2026-12-29', everyMonths: 1 } });
    const later = accept(ending, OFFERS['RENEW-12'], 'renewal');
    expect(later.ok && later.state.nextPayment).toEqual({ day: '2026-12-29', everyMonths: 1 });
  });

  it('leaves a subscription without automatic payments, or with an unknown period, as it is', () => {
    const none = accept(subscription({ end: null, endIssue: null }), OFFERS['RETAIN-3'], 'cancellation');
    expect(none.ok && none.state.nextPayment).toBeUndefined();
    const unknown = accept(
      subscription({ end: null, endIssue: null, nextPayment: { day: '2026-12-29', everyMonths: 0 } }),
      OFFERS['RETAIN-3'],
      'cancellation',
    );
    expect(unknown.ok && unknown.state.nextPayment).toEqual({ day: '2026-12-29', everyMonths: 0 });
  });
});

describe('a bundle component when its master is cancelled', () => {
  it('ends on the master’s end, with no cancellation of its own and nothing planned after it', () => {
    const part = subscription({
      end: null,
      endIssue: null,
      isCancelable: false,
      plannedUpgrade: { offerId: 'UP', mixType: 'KO', from: '2027-03-01' },
    });
    const ended = endWithBundle(part, { end: '2027-01-05' });
    expect(ended.ok && ended.state).toMatchObject({
      status: 'AK',
      end: '2027-01-05',
      endIssue: null,
      cancellation: null,
      plannedUpgrade: null,
    });
  });

  it('leaves one that ends earlier, or has ended, as it is', () => {
    const earlier = subscription({ end: '2026-12-20' });
    expect(endWithBundle(earlier, { end: '2027-01-05' })).toEqual({ ok: true, state: earlier, changes: [] });
    const ended = subscription({ status: 'I' });
    expect(endWithBundle(ended, { end: '2027-01-05' })).toEqual({ ok: true, state: ended, changes: [] });
  });
});

describe('the end of what the subscriber has now (the last cancellation date offered)', () => {
  it('is the day before the next automatic payment, or the term end when that comes first or nothing renews', () => {
    const yearly = { day: '2027-03-01', everyMonths: 12 };
    expect(currentPeriodEnd({ nextPayment: yearly, end: null })).toEqual({
      day: '2027-02-28',
      of: 'paid_period',
    });
    expect(currentPeriodEnd({ nextPayment: yearly, end: '2027-06-30' })).toEqual({
      day: '2027-02-28',
      of: 'paid_period',
    });
    expect(currentPeriodEnd({ nextPayment: yearly, end: '2027-01-31' })).toEqual({
      day: '2027-01-31',
      of: 'term',
    });
    expect(currentPeriodEnd({ nextPayment: null, end: '2027-01-16' })).toEqual({
      day: '2027-01-16',
      of: 'term',
    });
    expect(currentPeriodEnd({ nextPayment: null, end: null })).toBeNull();
  });
});
