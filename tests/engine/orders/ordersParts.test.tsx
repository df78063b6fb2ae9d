// @vitest-environment jsdom
/**
 * The orders page's parts that few accounts have load with their data (docs/testing.md "Speed and
 * size"): the pending orders' section comes with the subscriptions, never after them (the cards
 * would move down), and a pending-orders answer that fails leaves the subscriptions shown; a
 * rejected change's notice shows above it all.
 */
import { afterEach, describe, expect, it } from 'vitest';
import OrdersScreen from '../../../engine/features/orders/OrdersScreen';
import { makeSubscription } from '../../support/subscriptionBuilder';
import { ApiError } from '../../../engine/domain/apiError';
import { cleanUp, fakeApi, portalConfig, render, settle, settleUntil } from '../../support/renderScreen';

const portal = portalConfig(['features/orders', 'account', 'ui', 'core'], {
  features: ['orders', 'pending-orders'],
});
const subscription = makeSubscription({ id: 'S1', displayName: 'Stadtkurier – Print' });
const pendingOrder = {
  id: 'P1',
  source: 'VHS',
  title: 'Gartenjahrbuch 2027',
  orderNumber: '4000000099',
  articleNumber: null,
  orderDate: '2026-11-30',
  coverImageUrl: null,
  issueNumberFrom: null,
  download: null,
};

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

const cards = (page: HTMLElement) => page.querySelectorAll('.subscription-card').length;
const pendingHeading = (page: HTMLElement) => page.querySelector('#pending-title');

afterEach(cleanUp);

describe('the orders page and its rarer parts', () => {
  it('shows the subscriptions only together with the pending orders above them', async () => {
    const pending = deferred<unknown>();
    const { page } = await render(<OrdersScreen />, {
      api: fakeApi({
        '/subscriptions': [subscription],
        '/pending-orders': () => pending.promise,
        '/purchase-orders': [],
        '/rejected-changes': [],
      }),
      path: '/orders',
      portal,
    });
    // The subscriptions have answered; the pending orders have not.
    await settle();
    expect(cards(page)).toBe(0);
    expect(page.querySelector('.loading')).not.toBeNull();
    pending.resolve([pendingOrder]);
    const seen: Array<[number, boolean]> = [];
    await settleUntil(() => {
      seen.push([cards(page), pendingHeading(page) !== null]);
      return cards(page) > 0;
    });
    // Never a card without the section above it, and the section first in the list.
    expect(seen.filter(([shown, withPending]) => shown > 0 && !withPending)).toEqual([]);
    expect(pendingHeading(page)!.textContent).toBe('Orders being processed');
    const order = [...page.querySelectorAll('h2, .subscription-card h3')].map((node) => node.textContent);
    expect(order.indexOf('Orders being processed')).toBeLessThan(order.indexOf('Stadtkurier – Print'));
    expect(page.textContent).toContain('Gartenjahrbuch 2027');
  });

  it('shows the subscriptions when there are no pending orders, or they cannot be loaded', async () => {
    for (const answer of [[], new ApiError(500, 'internal', 'down')]) {
      const { page } = await render(<OrdersScreen />, {
        api: fakeApi({
          '/subscriptions': [subscription],
          '/pending-orders': answer,
          '/purchase-orders': [],
          '/rejected-changes': [],
        }),
        path: '/orders',
        portal,
      });
      await settleUntil(() => cards(page) > 0);
      expect(pendingHeading(page)).toBeNull();
      cleanUp();
    }
  });

  it("names a rejected change above the page's lists", async () => {
    const { page } = await render(<OrdersScreen />, {
      api: fakeApi({
        '/subscriptions': [subscription],
        '/pending-orders': [],
        '/purchase-orders': [],
        '/rejected-changes': [
          {
            eventId: '5b0c1f0e-8d8a-4f7e-9a51-1c2d3e4f5a6b',
            type: 'address.changed',
            changedAt: '2026-11-03T10:00:00.000Z',
            rejectedAt: '2026-11-04T08:00:00.000Z',
            reason: 'Outside our delivery area.',
            undone: true,
            orderNumber: null,
            refund: null,
          },
        ],
      }),
      path: '/orders',
      portal,
    });
    await settleUntil(() => page.querySelector('.rejected-changes .alert') !== null);
    expect(page.querySelector('.rejected-changes .alert')!.textContent).toBe(
      'Your change of address on 3 Nov 2026 was not accepted: Outside our delivery area. Your account shows the previous details again.',
    );
  });

  it('tells two subscriptions of one name apart in the summary by their order numbers', async () => {
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const print = { displayName: 'Technikwelt Magazin – Print', isRenewal: true, roles: ['AG' as const] };
    const { page } = await render(<OrdersScreen />, {
      api: fakeApi({
        '/subscriptions': [
          makeSubscription({
            ...print,
            id: 'S1',
            orderNumber: '4279685277',
            orderStatus: 'AK',
            validToOnSaleDate: inDays(30),
          }),
          makeSubscription({
            ...print,
            id: 'S2',
            orderNumber: '4279707000',
            validToOnSaleDate: inDays(30),
            renewal: null,
          }),
          makeSubscription({
            id: 'S3',
            displayName: 'Stadtkurier – Digital',
            orderNumber: '4000000003',
            orderStatus: 'AK',
            validToOnSaleDate: inDays(40),
          }),
        ],
        '/pending-orders': [],
        '/purchase-orders': [],
        '/rejected-changes': [],
      }),
      path: '/orders',
      portal: portalConfig(['features/orders', 'account', 'ui', 'core'], { features: ['orders', 'renewal'] }),
    });
    await settleUntil(() => page.querySelector('.orders-summary-attention') !== null);
    const items = [...page.querySelectorAll('.orders-summary-attention li')].map((li) => li.textContent);
    expect(items).toHaveLength(3);
    expect(
      items.filter((item) => item!.includes('Technikwelt Magazin – Print (4279685277) is cancelled')),
    ).toHaveLength(1);
    expect(
      items.filter((item) => item!.includes('Technikwelt Magazin – Print (4279707000) ends')),
    ).toHaveLength(1);
    // A name only one subscription has stays as it is.
    expect(items.filter((item) => item!.startsWith('Stadtkurier – Digital is cancelled'))).toHaveLength(1);
  });
});
