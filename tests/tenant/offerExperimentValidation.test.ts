/**
 * `offerExperiments` in the tenant file, in the validator's wording: weights above 0,
 * two variants at least, ids unique, a reason only for cancellations, one experiment per flow and
 * reason, the flow's feature on, and an offer once per variant.
 */
import { describe, expect, it } from 'vitest';
import { validateTenantSource, type ValidationContext } from '../../tenant';
import type { Tenant } from '../../schemas/generated/tenant';
import { makeTenant, makeThemePreset } from '../support/builders';

const ctx: ValidationContext = { themePresets: { classic: makeThemePreset() }, env: {} };

function problems(experiments: unknown[], overrides: Partial<Tenant> = {}) {
  const tenant = makeTenant({
    features: ['faq', 'cancellation', 'renewal'],
    offerExperiments: experiments as Tenant['offerExperiments'],
    ...overrides,
  });
  return validateTenantSource('tenants/acme.json', JSON.stringify(tenant, null, 2), ctx).issues.map(
    (issue) => `${issue.pointer} ${issue.message}`,
  );
}

const variants = [
  { id: 'control', weight: 1, offers: ['ACME-KEEP-HALF'] },
  { id: 'no-offer', weight: 1, offers: [] },
];

describe('tenant offer experiments', () => {
  it('accepts experiments per reason and per flow, "no offer" included', () => {
    expect(
      problems([
        { id: 'price', flow: 'cancellation', reason: 'PREIS', variants },
        { id: 'general', flow: 'cancellation', variants },
        {
          id: 'renewal-12',
          flow: 'renewal',
          variants: [variants[0], { id: 'b', weight: 3, offers: ['X', 'Y'] }],
        },
      ]),
    ).toEqual([]);
  });

  it('refuses a weight of 0 or below, a single variant and an offer id that is no code', () => {
    const found = problems([
      {
        id: 'price',
        flow: 'cancellation',
        variants: [
          { id: 'a', weight: 0, offers: [] },
          { id: 'b', weight: -1, offers: ['not an id'] },
        ],
      },
      { id: 'lonely', flow: 'renewal', variants: [variants[0]] },
    ]);
    expect(found.some((p) => p.startsWith('/offerExperiments/0/variants/0/weight'))).toBe(true);
    expect(found.some((p) => p.startsWith('/offerExperiments/0/variants/1/weight'))).toBe(true);
    expect(found.some((p) => p.startsWith('/offerExperiments/0/variants/1/offers/0'))).toBe(true);
    expect(found.some((p) => p.startsWith('/offerExperiments/1/variants'))).toBe(true);
  });

  it('refuses duplicate ids, a reason outside cancellations, two experiments for one scope and an offer twice', () => {
    expect(
      problems([
        { id: 'price', flow: 'cancellation', reason: 'PREIS', variants },
        {
          id: 'price',
          flow: 'cancellation',
          reason: 'PREIS',
          variants: [variants[0], { id: 'control', weight: 2, offers: ['A', 'A'] }],
        },
        { id: 'renewal', flow: 'renewal', reason: 'PREIS', variants },
      ]),
    ).toEqual([
      '/offerExperiments/1 a second offer experiment for the cancellation flow and reason "PREIS" (also /offerExperiments/0); a subscriber can be in only one',
      '/offerExperiments/1/id duplicate offer experiment id "price" (also at /offerExperiments/0/id)',
      '/offerExperiments/1/variants/1/id duplicate variant id "control" (also at /offerExperiments/1/variants/0/id)',
      '/offerExperiments/1/variants/1/offers/1 offer "A" is listed twice in this variant (also at /offerExperiments/1/variants/1/offers/0)',
      '/offerExperiments/2/reason a reason is given for the renewal flow, which has no cancellation reasons',
    ]);
  });

  it('refuses an experiment in a flow whose feature is off, or where no retention offer is shown', () => {
    expect(problems([{ id: 'up', flow: 'upgrade', variants }])).toEqual([
      '/offerExperiments/0/flow offer experiment for the upgrade flow, but the feature "upgrade" is not in features',
    ]);
    expect(
      problems([{ id: 'price', flow: 'cancellation', variants }], {
        cancellation: { showRetentionOffers: false },
      }),
    ).toEqual([
      '/offerExperiments/0/flow offer experiment for the cancellation flow, but cancellation.showRetentionOffers is false: no offer is shown',
    ]);
  });
});
