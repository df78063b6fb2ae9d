// @vitest-environment jsdom
/**
 * The holiday service and complaint pages in jsdom with a fake API (account-flows.md §2, §4, §8).
 */
import { act } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type {
  ComplaintState,
  HolidayIssue,
  HolidayServiceState,
} from '../../../schemas/generated/account-changes';
import HolidayServiceScreen from '../../../engine/features/holiday-service/HolidayServiceScreen';
import ComplaintScreen from '../../../engine/features/issue-complaint/ComplaintScreen';
import { makeSubscription } from '../../support/subscriptionBuilder';
import { todayIso } from '../../../engine/account/changes/today';
import { ApiError } from '../../../engine/core/apiClient';
import {
  byText,
  choose,
  cleanUp,
  click,
  en,
  fakeApi,
  labelled,
  openDialog,
  polyfillDialogs,
  render,
  settle,
  type,
} from './harness';

beforeAll(polyfillDialogs);
afterEach(cleanUp);

const subscription = makeSubscription();
const S = `/subscriptions/${subscription.id}`;
const state = (planned: HolidayServiceState['planned'] = null): HolidayServiceState => ({
  types: ['redirect', 'break'],
  planned,
  maxWeeks: { redirect: 8, break: 2, download: 4 },
  earliestStart: '2099-03-02',
});
const issue = (n: number, shipped = false): HolidayIssue => ({
  issue: `i${n}`,
  issueNumber: `${n}/2099`,
  dateOfFirstSale: `2099-03-${String(n).padStart(2, '0')}`,
  dateOfFirstShipping: `2099-03-${String(n - 1).padStart(2, '0')}`,
  shipped,
});
// The break preselected by the query: two weeks at most, so the default range is two weeks.
const ISSUES = `${S}/holiday-service/issues?dateFrom=2099-03-02&dateTo=2099-03-15`;

/** A redirect planned by the gift's giver, cancellable (its address is the recipient's). */
const PLANNED_REDIRECT = {
  type: 'redirect' as const,
  dateFrom: '2099-03-02',
  dateTo: '2099-03-16',
  fromIssueNumber: '5/2099',
  toIssueNumber: '12/2099',
  address: null,
  isCancellable: true,
};

const renderHoliday = (api: ReturnType<typeof fakeApi>, query = '') =>
  render(<HolidayServiceScreen />, {
    api,
    path: `${S}/holiday-service${query}`,
    route: 'subscriptions/:id/holiday-service',
  });

describe('holiday service page', () => {
  it("tells a gift's giver that the redirect's address is kept for the recipient", async () => {
    const planned = PLANNED_REDIRECT;
    const api = fakeApi({ [S]: subscription, [`${S}/holiday-service`]: state(planned) });
    const { page } = await renderHoliday(api);
    const facts = page.querySelector('[data-testid="holiday-active"]')!.textContent;
    expect(facts).toContain(en['holiday-service.active.address']);
    expect(facts).toContain(en['holiday-service.active.addressRecipientOnly']);
  });

  it('calls a service planned until its first day, and running from then on', async () => {
    const planned = await renderHoliday(
      fakeApi({ [S]: subscription, [`${S}/holiday-service`]: state(PLANNED_REDIRECT) }),
    );
    expect(planned.page.querySelector('#holiday-active-title')!.textContent).toBe(
      en['holiday-service.active.heading'],
    );
    cleanUp();
    const today = todayIso();
    const running = await renderHoliday(
      fakeApi({
        [S]: subscription,
        [`${S}/holiday-service`]: state({ ...PLANNED_REDIRECT, dateFrom: today, isCancellable: false }),
      }),
    );
    expect(running.page.querySelector('#holiday-active-title')!.textContent).toBe(
      en['holiday-service.active.headingRunning'],
    );
  });

  it("names the tenant's fallback e-mail and phone when no type is offered for the title (account-flows.md §1)", async () => {
    const api = fakeApi({ [S]: subscription, [`${S}/holiday-service`]: { ...state(), types: [] } });
    const { page } = await renderHoliday(api);
    expect(page.textContent).toContain(en['holiday-service.noTypes']);
    const links = [...page.querySelectorAll('.fallback-contact a')].map((a) => a.getAttribute('href'));
    expect(links.some((href) => href?.startsWith('mailto:'))).toBe(true);
    expect(links.some((href) => href?.startsWith('tel:'))).toBe(true);
  });

  it('preselects the type of the query, opens with its longest default range and books the issues that range picks', async () => {
    const api = fakeApi(
      { [S]: subscription, [`${S}/holiday-service`]: state(), [ISSUES]: [issue(5), issue(12)] },
      { [`${S}/holiday-service`]: { ...subscription, activeHolidayServiceType: 'break' } },
    );
    const { page } = await renderHoliday(api, '?service=Break');
    expect(page.querySelector<HTMLInputElement>('input[name="holiday-type"][value="break"]')!.checked).toBe(
      true,
    );
    expect(labelled<HTMLInputElement>(page, `${en['holiday-service.setup.dateTo']} *`).value).toBe(
      '2099-03-15',
    );
    expect(page.querySelector('[data-testid="holiday-issues"]')!.textContent).toContain('Issue 12/2099');

    // After booking the page loads the state again: now with the planned break.
    api.get[`${S}/holiday-service`] = state({
      type: 'break',
      dateFrom: '2099-03-02',
      dateTo: '2099-03-15',
      fromIssueNumber: '5/2099',
      toIssueNumber: '12/2099',
      address: null,
      isCancellable: true,
      suspendedFromIssueNr: '5/2099',
      suspendedToIssueNr: '12/2099',
    });
    await click(byText(page, 'button', en['holiday-service.setup.submit.break']));
    expect(api.calls.find((call) => call.method === 'POST')!.body).toEqual({
      subscriptionId: subscription.id,
      service: 'break',
      dateFrom: '2099-03-02',
      dateTo: '2099-03-15',
      issueNumberFrom: '5/2099',
      issueNumberTo: '12/2099',
    });
    expect(page.textContent).toContain(en['holiday-service.notice.booked']);
    expect(page.querySelector('[data-testid="holiday-active"]')!.textContent).toContain('5/2099 – 12/2099');
    expect(byText(page, 'button', en['holiday-service.active.cancel'])).toBeDefined();
  });

  it('says before the e-paper is booked that it cannot be cancelled online afterwards (§6 "download never")', async () => {
    const api = fakeApi({
      [S]: subscription,
      [`${S}/holiday-service`]: { ...state(), types: ['redirect', 'break', 'download'] },
    });
    const { page } = await renderHoliday(api, '?service=Download');
    const option = page.querySelector<HTMLInputElement>('input[name="holiday-type"][value="download"]')!;
    expect(option.checked).toBe(true);
    expect(page.querySelector('.holiday-types')!.textContent).toContain(
      'Once booked, the switch cannot be cancelled online.',
    );
    expect(api.calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('says the service is cancelled only beside the state loaded after it, never beside its cancel button', async () => {
    const planned = PLANNED_REDIRECT;
    const api = fakeApi(
      { [S]: subscription, [`${S}/holiday-service`]: state(planned) },
      { [`${S}/holiday-service/cancel`]: subscription },
    );
    const { page } = await renderHoliday(api);
    let answerReload: (value: HolidayServiceState) => void = () => undefined;
    api.get[`${S}/holiday-service`] = () =>
      new Promise<HolidayServiceState>((resolve) => (answerReload = resolve));
    await click(byText(page, 'button', en['holiday-service.active.cancel']));
    // Every state the page commits, as a browser paints it: outside act(), which would run the
    // effect that starts the reload before anything is looked at.
    const seenTogether: boolean[] = [];
    const watch = new MutationObserver(() =>
      seenTogether.push(
        Boolean(page.textContent?.includes(en['holiday-service.notice.cancelled'])) &&
          page.querySelector('[data-testid="holiday-active"]') !== null,
      ),
    );
    watch.observe(page, { childList: true, subtree: true, characterData: true });
    const actEnvironment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = false;
    try {
      (byText(openDialog(page)!, 'button', en['holiday-service.active.confirmYes']) as HTMLElement).click();
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      actEnvironment.IS_REACT_ACT_ENVIRONMENT = true;
      watch.disconnect();
    }
    await settle();
    expect(seenTogether).not.toContain(true);
    expect(page.textContent).toContain(en['holiday-service.notice.cancelled']);
    expect(page.querySelector('[data-testid="holiday-active"]')).toBeNull();
    expect(byText(page, 'button', en['holiday-service.active.cancel'])).toBeUndefined();
    await act(async () => answerReload(state()));
    await settle();
    expect(page.textContent).toContain(en['holiday-service.notice.cancelled']);
    expect(page.querySelector('input[name="holiday-type"]')).not.toBeNull();
  });

  it('says a service cancelled meanwhile in another tab is cancelled already, and shows the state as it is now', async () => {
    let planned: HolidayServiceState['planned'] = PLANNED_REDIRECT;
    const api = fakeApi(
      { [S]: subscription, [`${S}/holiday-service`]: () => state(planned) },
      {
        [`${S}/holiday-service/cancel`]: () => {
          throw new ApiError(404, 'holiday_service_not_planned', 'There is no such holiday service planned.');
        },
      },
    );
    const { page } = await renderHoliday(api);
    planned = null; // cancelled in another tab
    await click(byText(page, 'button', en['holiday-service.active.cancel']));
    await click(byText(openDialog(page)!, 'button', en['holiday-service.active.confirmYes']) as HTMLElement);
    await settle();
    expect(page.textContent).toContain(en['holiday-service.notice.gone']);
    expect(page.textContent).not.toContain(en['shell.genericError']);
    expect(page.querySelector('[data-testid="holiday-active"]')).toBeNull();
    expect(page.querySelector('input[name="holiday-type"]')).not.toBeNull();
  });

  it('keeps what was typed when a service planned meanwhile refuses the booking, for the form after its cancellation', async () => {
    let planned: HolidayServiceState['planned'] = null;
    const api = fakeApi(
      { [S]: subscription, [`${S}/holiday-service`]: () => state(planned) },
      {
        [`${S}/holiday-service`]: () => {
          planned = { ...PLANNED_REDIRECT, type: 'break' };
          throw new ApiError(409, 'holiday_service_active', 'A holiday service is already planned.');
        },
        [`${S}/holiday-service/cancel`]: () => {
          planned = null;
          return subscription;
        },
      },
      (method, path) => {
        if (method === 'GET' && path.startsWith(`${S}/holiday-service/issues?`)) return [issue(5), issue(12)];
        if (method === 'GET' && path.startsWith(`${S}/supported-countries`)) return ['DE', 'AT'];
        throw new ApiError(404, 'not_found', `no fake for ${path}`);
      },
    );
    const { page } = await renderHoliday(api, '?service=Redirect');
    const field = (label: string) => labelled<HTMLInputElement>(page, label);
    const dateTo = `${en['holiday-service.setup.dateTo']} *`;
    await type(field(dateTo), '2099-03-20');
    // A text over its limit is said as it is typed, before the submit, and kept whole.
    const street = field(`${en['account.address.street']} *`);
    await type(street, 'B'.repeat(36));
    expect(street.getAttribute('aria-invalid')).toBe('true');
    expect(page.textContent).toContain(
      en['shell.tooLong'].replace('{{max}}', '35').replace('{{count}}', '36'),
    );
    expect(field(`${en['account.address.city']} *`).getAttribute('aria-invalid')).not.toBe('true');
    await type(street, 'Bergweg');
    expect(street.getAttribute('aria-invalid')).not.toBe('true');
    await type(field(`${en['account.address.streetNumber']} *`), '9');
    await type(field(`${en['account.address.zipcode']} *`), '87561');
    await type(field(`${en['account.address.city']} *`), 'Oberstdorf');
    await choose(labelled<HTMLSelectElement>(page, `${en['account.address.countryCode']} *`), 'DE');
    await click(byText(page, 'button', en['holiday-service.setup.submit.redirect']));
    await settle();
    // The service planned in another window shows, as §4 asks: cancelled before changed.
    expect(page.textContent).toContain(en['holiday-service.notice.active']);
    expect(page.querySelector('[data-testid="holiday-active"]')).not.toBeNull();
    await click(byText(page, 'button', en['holiday-service.active.cancel']));
    await click(byText(openDialog(page)!, 'button', en['holiday-service.active.confirmYes']) as HTMLElement);
    await settle();
    expect(
      page.querySelector<HTMLInputElement>('input[name="holiday-type"][value="redirect"]')!.checked,
    ).toBe(true);
    expect(field(dateTo).value).toBe('2099-03-20');
    expect(field(`${en['account.address.street']} *`).value).toBe('Bergweg');
    expect(field(`${en['account.address.city']} *`).value).toBe('Oberstdorf');
  });

  it('says an emptied date beside its field on submit and moves the focus there, booking nothing', async () => {
    const api = fakeApi({ [S]: subscription, [`${S}/holiday-service`]: state(), [ISSUES]: [issue(5)] });
    const { page } = await renderHoliday(api, '?service=Break');
    const dateTo = labelled<HTMLInputElement>(page, `${en['holiday-service.setup.dateTo']} *`);
    await type(dateTo, '');
    const submit = byText(page, 'button', en['holiday-service.setup.submit.break']) as HTMLButtonElement;
    expect(page.textContent).not.toContain(en['holiday-service.error.required']);
    expect(submit.disabled).toBe(false);
    await click(submit);
    expect(page.textContent).toContain(en['holiday-service.error.required']);
    expect(document.activeElement).toBe(dateTo);
    expect(api.calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('keeps submit disabled when the only issue of the range has shipped', async () => {
    const api = fakeApi({ [S]: subscription, [`${S}/holiday-service`]: state(), [ISSUES]: [issue(5, true)] });
    const { page } = await renderHoliday(api, '?service=Break');
    expect(
      (byText(page, 'button', en['holiday-service.setup.submit.break']) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect(page.textContent).toContain(en['holiday-service.issues.block.already_shipped']);
  });

  it('offers no cancel for a service that can no longer be cancelled, and points to contact', async () => {
    const planned = {
      type: 'download' as const,
      dateFrom: '2099-03-02',
      dateTo: '2099-03-30',
      fromIssueNumber: null,
      toIssueNumber: null,
      address: null,
      isCancellable: false,
    };
    const api = fakeApi({ [S]: subscription, [`${S}/holiday-service`]: state(planned) });
    const { page } = await renderHoliday(api);
    expect(byText(page, 'button', en['holiday-service.active.cancel'])).toBeUndefined();
    expect(page.textContent).toContain(en['holiday-service.active.notCancellable.download']);
    expect(byText(page, 'a', en['account.flow.contactUs'])!.getAttribute('href')).toBe(
      `/contact?subscriptionId=${subscription.id}`,
    );
  });
});

const complaint = (overrides: Partial<ComplaintState> = {}): ComplaintState => ({
  issues: [
    {
      issue: 'i12',
      issueNumber: '12/2099',
      description: null,
      dateOfFirstSale: '2099-03-12',
      complained: false,
    },
    {
      issue: 'i5',
      issueNumber: '5/2099',
      description: null,
      dateOfFirstSale: '2099-03-05',
      complained: true,
    },
  ],
  reasons: ['damaged', 'notdelivered'],
  maxReached: false,
  ...overrides,
});

describe('complaint page', () => {
  it('loads the options of the chosen issue, keeps submit disabled until all three are chosen and names the replacement week', async () => {
    const api = fakeApi(
      { [S]: subscription, [`${S}/complaint`]: complaint() },
      {
        [`${S}/delivered-issues/compensation-options`]: ['complimentary_issue', 'replacement'],
        [`${S}/delivered-issues/request-compensation`]: {
          url: null,
          compensationOption: 'replacement',
          expectedBy: null,
        },
      },
    );
    const { page } = await render(<ComplaintScreen />, {
      api,
      path: `${S}/complaint`,
      route: 'subscriptions/:id/complaint',
    });
    const submit = () => byText(page, 'button', en['issue-complaint.submit']) as HTMLButtonElement;
    const issueSelect = labelled<HTMLSelectElement>(page, `${en['issue-complaint.issueLabel']} *`);
    expect(issueSelect.querySelector<HTMLOptionElement>('option[value="i5"]')!.disabled).toBe(true);
    await choose(issueSelect, 'i12');
    expect(submit().disabled).toBe(true);
    await choose(labelled<HTMLSelectElement>(page, `${en['issue-complaint.reasonLabel']} *`), 'damaged');
    expect(api.calls.find((call) => call.path.endsWith('compensation-options'))!.body).toEqual({
      issue: 'i12',
    });
    expect(submit().disabled).toBe(true);
    await click(page.querySelector<HTMLInputElement>('input[name="compensation"][value="replacement"]'));
    expect(submit().disabled).toBe(false);
    await click(submit());
    expect(api.calls.find((call) => call.path.endsWith('request-compensation'))!.body).toEqual({
      issue: 'i12',
      complaintReason: 'damaged',
      compensationOption: 'replacement',
    });
    expect(openDialog(page)!.textContent).toContain(en['issue-complaint.success.replacement']);
  });

  it('names a complaint made meanwhile when the chosen issue is refused on asking for its options (§8 "Complaint: conflict")', async () => {
    // The page was loaded before the complaint about i12 was made in another tab.
    let loads = 0;
    const api = fakeApi(
      {
        [S]: subscription,
        [`${S}/complaint`]: () => {
          loads += 1;
          const { issues } = complaint();
          return loads === 1
            ? complaint()
            : complaint({
                issues: [
                  ...issues.map((x) => ({ ...x, complained: true })),
                  { ...issues[0], issue: 'i13', issueNumber: '13/2099', complained: false },
                ],
              });
        },
      },
      {
        [`${S}/delivered-issues/compensation-options`]: new ApiError(
          409,
          'complaint_exists',
          'There is a complaint about this issue already.',
        ),
      },
    );
    const { page } = await render(<ComplaintScreen />, {
      api,
      path: `${S}/complaint`,
      route: 'subscriptions/:id/complaint',
    });
    await choose(labelled<HTMLSelectElement>(page, `${en['issue-complaint.issueLabel']} *`), 'i12');
    await choose(labelled<HTMLSelectElement>(page, `${en['issue-complaint.reasonLabel']} *`), 'damaged');
    await settle();
    expect(openDialog(page)?.outerHTML).toBeUndefined();
    expect(page.textContent).toContain(en['issue-complaint.refusal.exists']);
    expect(loads).toBe(2);
    const issueSelect = labelled<HTMLSelectElement>(page, `${en['issue-complaint.issueLabel']} *`);
    expect(issueSelect.value).toBe('');
    expect(issueSelect.querySelector<HTMLOptionElement>('option[value="i12"]')!.disabled).toBe(true);
  });

  it('points to the contact page without compensation options, and shows the no-issues and conflict messages', async () => {
    const api = fakeApi(
      { [S]: subscription, [`${S}/complaint`]: complaint() },
      { [`${S}/delivered-issues/compensation-options`]: [] },
    );
    const { page } = await render(<ComplaintScreen />, {
      api,
      path: `${S}/complaint`,
      route: 'subscriptions/:id/complaint',
    });
    await choose(labelled<HTMLSelectElement>(page, `${en['issue-complaint.issueLabel']} *`), 'i12');
    await choose(labelled<HTMLSelectElement>(page, `${en['issue-complaint.reasonLabel']} *`), 'notdelivered');
    const overlay = openDialog(page)!;
    expect(overlay.textContent).toContain(en['issue-complaint.noOptions']);
    await click(byText(overlay, 'button', en['issue-complaint.toContact']));
    expect(page.querySelector('[data-testid="elsewhere"]')!.textContent).toBe(
      `/contact?subscriptionId=${subscription.id}`,
    );
    cleanUp();

    const none = await render(<ComplaintScreen />, {
      api: fakeApi({ [S]: subscription, [`${S}/complaint`]: complaint({ issues: [] }) }),
      path: `${S}/complaint`,
      route: 'subscriptions/:id/complaint',
    });
    expect(none.page.textContent).toContain(en['issue-complaint.start.no_issues']);
    cleanUp();

    const max = await render(<ComplaintScreen />, {
      api: fakeApi({ [S]: subscription, [`${S}/complaint`]: complaint({ maxReached: true }) }),
      path: `${S}/complaint`,
      route: 'subscriptions/:id/complaint',
    });
    expect(max.page.textContent).toContain(en['issue-complaint.start.max_reached']);
  });
});
