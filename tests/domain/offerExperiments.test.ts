/**
 * Offer experiments: a subscriber's variant is stable, follows the weights, and the
 * flow shows the variant's offers; the statistics behind "not yet significant".
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assignVariant,
  experimentAssignment,
  experimentFor,
  offersOfVariant,
  type OfferExperiment,
} from '../../engine/domain/offerExperiments';
import { normalCdf, twoProportionTest, wilsonInterval } from '../../engine/domain/proportions';

const SUBSCRIBERS = 10_000;
const subscriberIds = Array.from({ length: SUBSCRIBERS }, (_, i) => `user-${i}`);

/** Pearson's chi-square of observed counts against the shares the weights ask for. */
function chiSquare(observed: number[], weights: number[]): number {
  const total = weights.reduce((a, b) => a + b, 0);
  const n = observed.reduce((a, b) => a + b, 0);
  return observed.reduce((sum, o, i) => {
    const expected = (n * weights[i]) / total;
    return sum + (o - expected) ** 2 / expected;
  }, 0);
}
/** The 99.9 % quantiles of chi-square with 1 to 4 degrees of freedom. */
const CHI_SQUARE_999 = [10.828, 13.816, 16.266, 18.467];

const experiment = (weights: number[]): OfferExperiment => ({
  id: 'price-offers',
  flow: 'cancellation',
  variants: weights.map((weight, i) => ({ id: `v${i}`, weight, offers: i === 0 ? [] : [`OFFER-${i}`] })),
});

describe('offer experiment assignment', () => {
  it('puts each of 10,000 subscribers in the same variant every time', () => {
    const e = experiment([1, 1, 2]);
    const first = subscriberIds.map((id) => assignVariant('technikwelt', e, id).id);
    const again = subscriberIds.map((id) => assignVariant('technikwelt', e, id).id);
    expect(again).toEqual(first);
  });

  it.each([[[1, 1]], [[1, 3]], [[0.2, 0.3, 0.5]], [[5, 1, 1, 1, 2]]])(
    'follows the weights %j over 10,000 subscribers (chi-square at 99.9 %%, each share within 2 points)',
    (weights) => {
      const e = experiment(weights);
      const counts = weights.map(() => 0);
      for (const id of subscriberIds) counts[Number(assignVariant('technikwelt', e, id).id.slice(1))] += 1;
      expect(chiSquare(counts, weights)).toBeLessThan(CHI_SQUARE_999[weights.length - 2]);
      const total = weights.reduce((a, b) => a + b, 0);
      counts.forEach((count, i) =>
        expect(Math.abs(count / SUBSCRIBERS - weights[i] / total)).toBeLessThan(0.02),
      );
    },
  );

  it('keeps a subscriber in their variant for any tenant, experiment and weights (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.string({ minLength: 1 }),
        fc.array(fc.double({ min: 0.01, max: 100, noNaN: true }), { minLength: 2, maxLength: 6 }),
        fc.string(),
        (tenant, id, weights, subscriber) => {
          const e = { ...experiment(weights), id };
          const variant = assignVariant(tenant, e, subscriber);
          expect(e.variants).toContain(variant);
          expect(assignVariant(tenant, e, subscriber)).toBe(variant);
        },
      ),
    );
  });

  it('assigns anew under another experiment id: the two assignments are independent', () => {
    const a = experiment([1, 1]);
    const b = { ...a, id: 'price-offers-2' };
    const same = subscriberIds.filter(
      (id) => assignVariant('technikwelt', a, id).id === assignVariant('technikwelt', b, id).id,
    ).length;
    expect(Math.abs(same / SUBSCRIBERS - 0.5)).toBeLessThan(0.02);
  });

  it('runs the experiment of the reason before the one without, and none in another flow', () => {
    const general = { ...experiment([1, 1]), id: 'general' };
    const price = { ...experiment([1, 1]), id: 'price', reason: 'PREIS' };
    const renewal = { ...experiment([1, 1]), id: 'renewal', flow: 'renewal' as const };
    const all = [general, price, renewal];
    expect(experimentFor(all, 'cancellation', 'PREIS')?.id).toBe('price');
    expect(experimentFor(all, 'cancellation', 'ZEIT')?.id).toBe('general');
    expect(experimentFor(all, 'renewal', null)?.id).toBe('renewal');
    expect(experimentFor(all, 'upgrade', null)).toBeUndefined();
    expect(experimentAssignment({ id: 't', offerExperiments: [] }, 'cancellation', 'PREIS', 'u1')).toBeNull();
  });

  it("shows the variant's offers in the flow's order, and none for an empty variant", () => {
    const offers = [{ id: 'A' }, { id: 'B' }, { id: 'C' }];
    expect(offersOfVariant(offers, { offers: ['C', 'A', 'GONE'] }).map((o) => o.id)).toEqual(['A', 'C']);
    expect(offersOfVariant(offers, { offers: [] })).toEqual([]);
  });
});

describe('save-rate statistics', () => {
  it("gives Wilson's interval, inside [0, 1] even at 0 and n", () => {
    const half = wilsonInterval(50, 100)!;
    expect(half.low).toBeCloseTo(0.4038, 3);
    expect(half.high).toBeCloseTo(0.5962, 3);
    expect(wilsonInterval(0, 10)!.low).toBe(0);
    expect(wilsonInterval(10, 10)!.high).toBeCloseTo(1, 12);
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it('says a difference is significant only when the z-test says so at 5 %', () => {
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 5);
    // 60 of 200 against 40 of 200: z = 2.309, p = 0.021.
    const clear = twoProportionTest({ successes: 60, n: 200 }, { successes: 40, n: 200 })!;
    expect(clear.z).toBeCloseTo(2.309, 2);
    expect(clear.pValue).toBeCloseTo(0.021, 2);
    expect(clear.significant).toBe(true);
    // The same rates on a tenth of the flows: not yet.
    expect(twoProportionTest({ successes: 6, n: 20 }, { successes: 4, n: 20 })!.significant).toBe(false);
    expect(twoProportionTest({ successes: 0, n: 0 }, { successes: 4, n: 20 })).toBeNull();
  });
});
