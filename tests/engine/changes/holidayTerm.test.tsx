// @vitest-environment jsdom
/**
 * The holiday service page of a subscription with an end: the picker stops at its last
 * day, only the issues inside the dates and the term are listed and booked, and a subscription that
 * ends before a service could begin offers no dates (engine/domain/subscriptionTerm.ts).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HolidayIssue, HolidayServiceState } from '../../../schemas/generated/account-changes';
import HolidayServiceScreen from '../../../engine/features/holiday-service/HolidayServiceScreen';
import { makeSubscription } from '../../support/subscriptionBuilder';
import { byText, cleanUp, click, en, fakeApi, labelled, polyfillDialogs, render } from './harness';

beforeAll(polyfillDialogs);
afterEach(cleanUp);

const state: HolidayServiceState = {
  types: ['break'],
  planned: null,
  maxWeeks: { redirect: 8, break: 4, download: 4 },
  earliestStart: '2099-03-02',
};
const issue = (n: number): HolidayIssue => ({
  issue: `i${n}`,
  issueNumber: `${n}/2099`,
  dateOfFirstSale: `2099-03-${String(n).padStart(2, '0')}`,
  dateOfFirstShipping: null,
  shipped: false,
});

describe('holiday service page of a subscription that ends', () => {
  it('opens with a range up to the last day, lists and books only the issues up to it', async () => {
    const subscription = makeSubscription({ orderStatus: 'AK', validToOnSaleDate: '2099-03-09' });
    const S = `/subscriptions/${subscription.id}`;
    // An answer with an issue after the end is not shown or booked.
    const api = fakeApi(
      {
        [S]: subscription,
        [`${S}/holiday-service`]: state,
        [`${S}/holiday-service/issues?dateFrom=2099-03-02&dateTo=2099-03-09`]: [issue(5), issue(12)],
      },
      { [`${S}/holiday-service`]: { ...subscription, activeHolidayServiceType: 'break' } },
    );
    const { page } = await render(<HolidayServiceScreen />, {
      api,
      path: `${S}/holiday-service?service=Break`,
      route: 'subscriptions/:id/holiday-service',
    });
    const dateTo = labelled<HTMLInputElement>(page, `${en['holiday-service.setup.dateTo']} *`);
    expect(dateTo.value).toBe('2099-03-09');
    expect(dateTo.max).toBe('2099-03-09');
    expect(labelled<HTMLInputElement>(page, `${en['holiday-service.setup.dateFrom']} *`).max).toBe(
      '2099-03-09',
    );
    const listed = page.querySelector('[data-testid="holiday-issues"]')!.textContent!;
    expect(listed).toContain('Issue 5/2099');
    expect(listed).not.toContain('12/2099');
    await click(byText(page, 'button', en['holiday-service.setup.submit.break']));
    expect(api.calls.find((call) => call.method === 'POST')!.body).toMatchObject({
      dateTo: '2099-03-09',
      issueNumberFrom: '5/2099',
      issueNumberTo: '5/2099',
    });
  });

  it('offers no dates when the subscription ends before a service could begin', async () => {
    const subscription = makeSubscription({ orderStatus: 'AK', validToOnSaleDate: '2099-03-01' });
    const S = `/subscriptions/${subscription.id}`;
    const api = fakeApi({ [S]: subscription, [`${S}/holiday-service`]: state });
    const { page } = await render(<HolidayServiceScreen />, {
      api,
      path: `${S}/holiday-service`,
      route: 'subscriptions/:id/holiday-service',
    });
    expect(page.textContent).toContain(
      en['holiday-service.endsBeforeStart'].replace('{{date}}', '1 Mar 2099'),
    );
    expect(page.querySelector('input[type="date"]')).toBeNull();
    expect(api.calls.some((call) => call.path.includes('/holiday-service/issues'))).toBe(false);
  });
});
