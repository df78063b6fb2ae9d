/**
 * When a payment method change and an upgrade "from the next period" take effect (account-flows.md
 * §4 "usually at the end of the payment period"): the order system's next payment day, else the
 * first day of the subscription's next billing period, never the first of next month for a
 * subscription paid yearly.
 */
import { describe, expect, it } from 'vitest';
import type { Subscription } from '../../../schemas/generated/subscription';
import { endOfPaymentPeriod } from '../../../server/payment-method-change/paymentMethodChangeService';
import { nextCycleOf } from '../../../server/offers/offerKit';

const TODAY = '2026-11-30';
const subscription = (fields: Partial<Subscription>) =>
  ({ renewal: null, validToOnSaleDate: null, ...fields }) as Subscription;

describe('the end of the payment period', () => {
  it('is the next billing day of a yearly subscription, counted from its first day', () => {
    const yearly = subscription({ validFromOnSaleDate: '2025-02-05', billingFrequency: '12' });
    expect(endOfPaymentPeriod(yearly, TODAY)).toBe('2027-02-05');
    expect(nextCycleOf(yearly, TODAY)).toBe('2027-02-05');
  });

  it('is the next payment day the order system names, when it names one', () => {
    const renewing = subscription({
      validFromOnSaleDate: '2025-11-24',
      billingFrequency: '01',
      renewal: { autoRenewalNextPaymentDate: '2026-12-29' } as Subscription['renewal'],
    });
    expect(endOfPaymentPeriod(renewing, TODAY)).toBe('2026-12-29');
    expect(nextCycleOf(renewing, TODAY)).toBe('2026-12-29');
  });

  it('is a monthly subscription’s next billing day, not a month from today', () => {
    const monthly = subscription({ validFromOnSaleDate: '2025-11-24', billingFrequency: '01' });
    expect(nextCycleOf(monthly, TODAY)).toBe('2026-12-24');
  });

  it('never lies after the term’s last day', () => {
    const ending = subscription({
      validFromOnSaleDate: '2025-02-05',
      billingFrequency: '12',
      validToOnSaleDate: '2026-12-15',
    });
    expect(endOfPaymentPeriod(ending, TODAY)).toBe('2026-12-15');
  });
});
