/**
 * The refusals of an accept call that have a dialog of their own (engine/account/offers/paymentOutcomes.ts),
 * each with its texts in both languages.
 */
import { describe, expect, it } from 'vitest';
import { PAYMENT_OUTCOMES, refusedOfferOutcome } from '../../../engine/account/offers/paymentOutcomes';
import texts from '../../../engine/account/texts.json';

describe('refusedOfferOutcome', () => {
  it('gives the server’s refusals their dialog, and none to any other failure', () => {
    expect(refusedOfferOutcome('mixed_currencies')).toBe('offer:mixed_currencies');
    expect(refusedOfferOutcome('offer_payment_open')).toBe('offer:payment_open');
    expect(refusedOfferOutcome('internal')).toBeNull();
    expect(refusedOfferOutcome(undefined)).toBeNull();
  });

  it('has the texts of every outcome in both languages', () => {
    const all = texts as unknown as Record<string, Record<string, string>>;
    for (const { titleKey, textKey } of Object.values(PAYMENT_OUTCOMES))
      for (const locale of ['de-DE', 'en-GB'])
        for (const key of [titleKey, textKey]) expect(all[locale][key], `${locale} ${key}`).toBeTruthy();
  });
});
