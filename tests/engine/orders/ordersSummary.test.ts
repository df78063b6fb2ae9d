import { describe, expect, it } from 'vitest';
import { ordersSummary } from '../../../engine/features/orders/ordersSummary';
import type { CapabilityContext } from '../../../engine/domain/capabilities';
import { makeSubscription } from '../../support/subscriptionBuilder';

const ctx: CapabilityContext = { tenant: { features: ['renewal'] } };
const TODAY = '2026-11-22';
const issue = (date: string, issueNumber: string) => ({
  issue: issueNumber,
  issueNumber,
  description: null,
  dateOfFirstSale: date,
  dateOfFirstShipping: date,
});

describe('the orders summary (next issue, next renewal or end, what needs attention)', () => {
  it('names the earliest next issue and the earliest end among running subscriptions, ignoring ended ones', () => {
    const summary = ordersSummary(
      [
        makeSubscription({
          id: 'A',
          nextIssue: issue('2026-12-03', '49/2026'),
          validToOnSaleDate: '2027-06-30',
        }),
        makeSubscription({
          id: 'B',
          nextIssue: issue('2026-11-28', '48/2026'),
          validToOnSaleDate: '2027-03-31',
        }),
        makeSubscription({
          id: 'C',
          orderStatus: 'I',
          nextIssue: issue('2026-11-24', '47/2026'),
          validToOnSaleDate: '2026-12-01',
        }),
      ],
      ctx,
      TODAY,
    );
    expect(summary.nextIssue?.subscription.id).toBe('B');
    expect(summary.nextEnd).toMatchObject({ subscription: { id: 'B' }, date: '2027-03-31' });
  });

  it('asks to renew what ends within 60 days and can be renewed, and lists cancelled and paused subscriptions by date', () => {
    const renewable = { isRenewal: true, roles: ['AG' as const], renewal: null };
    const summary = ordersSummary(
      [
        makeSubscription({ id: 'SOON', ...renewable, validToOnSaleDate: '2027-01-10' }),
        makeSubscription({ id: 'LATER', ...renewable, validToOnSaleDate: '2027-05-01' }),
        makeSubscription({ id: 'GONE', orderStatus: 'AK', validToOnSaleDate: '2026-12-31' }),
        makeSubscription({
          id: 'PAUSED',
          orderStatus: 'IU',
          currentSuspension: { suspendedFromDate: '2026-11-01', suspendedToDate: '2026-12-15' },
        }),
      ],
      ctx,
      TODAY,
    );
    expect(summary.attention.map((item) => [item.kind, item.subscription.id, item.date])).toEqual([
      ['paused', 'PAUSED', '2026-12-15'],
      ['cancelled', 'GONE', '2026-12-31'],
      ['renew', 'SOON', '2027-01-10'],
    ]);
  });

  it('asks nothing of a subscription the renewal rule refuses (a recipient, not the ordering party)', () => {
    const summary = ordersSummary(
      [makeSubscription({ isRenewal: true, roles: ['WE'], validToOnSaleDate: '2026-12-20' })],
      ctx,
      TODAY,
    );
    expect(summary.attention).toEqual([]);
  });
});
