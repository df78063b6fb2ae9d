// @vitest-environment jsdom
/**
 * Screens of the public pages rendered in jsdom with a fake API: the states the demo tenants do not
 * reach (contact unsupported for this visitor, no subscription with a calendar).
 */
import { type ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  choose,
  cleanUp,
  fakeApi,
  portalConfig,
  render as renderScreen,
  type,
} from '../support/renderScreen';
import type { PortalConfig } from '../../engine/domain/portalConfig';
import ContactScreen from '../../engine/features/contact/ContactScreen';
import IssueCalendarScreen from '../../engine/features/issue-calendar/IssueCalendarScreen';
import PublicationCalendarScreen from '../../engine/features/issue-calendar/PublicationCalendarScreen';
import { formatDate } from '../../engine/domain/dates';
import { makeSubscription } from '../support/subscriptionBuilder';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const PUBLIC_TEXTS = ['core', 'features/contact', 'features/issue-calendar'];

function config(tenant: Record<string, unknown>): PortalConfig {
  return portalConfig(PUBLIC_TEXTS, { features: ['contact-form', 'issue-calendar'], ...tenant });
}

afterEach(cleanUp);

/** The screen with the API answering from `answers` (nothing for any other path). */
async function render(
  element: ReactNode,
  portal: PortalConfig,
  answers: Record<string, unknown>,
  loggedIn = false,
) {
  const api = fakeApi({}, {}, (method, path) => (method === 'GET' ? answers[path] : {}));
  const { page } = await renderScreen(element, {
    api,
    path: '/',
    portal,
    loginSource: loggedIn ? 'token' : null,
  });
  return page;
}

describe('contact screen', () => {
  it('shows the unsupported alert with the fallback e-mail and phone when no activity is offered to the visitor', async () => {
    const portal = config({
      contactForm: {
        activities: [{ activity: 'MEMBERS', name: { 'en-GB': 'Members only' }, visibility: 'authenticated' }],
      },
    });
    const page = await render(<ContactScreen />, portal, {});
    expect(page.textContent).toContain('Unfortunately the contact form is not available online');
    expect(page.textContent).toContain('help@acme.example');
    expect(page.textContent).toContain('+49 30 123');
    expect(page.querySelector('select')).toBeNull();
  });

  it('offers the visible activities and injects the tenant script once', async () => {
    const portal = config({
      contactForm: {
        customScriptUrl: 'https://chat.acme.example/widget.js',
        activities: [
          { activity: 'MEMBERS', name: { 'en-GB': 'Members only' }, visibility: 'authenticated' },
          { activity: 'GENERAL', name: { 'en-GB': 'General' } },
        ],
      },
    });
    const page = await render(<ContactScreen />, portal, {});
    const options = [...page.querySelectorAll('option')].map((option) => option.textContent);
    expect(options).toEqual(['Please choose', 'General']);
    expect(document.querySelectorAll('script[src="https://chat.acme.example/widget.js"]')).toHaveLength(1);
  });

  it('keeps what the visitor typed when the topic changes', async () => {
    const portal = config({
      contactForm: {
        activities: [
          { activity: 'GENERAL', name: { 'en-GB': 'General' } },
          { activity: 'DELIVERY', name: { 'en-GB': 'Delivery' } },
        ],
      },
    });
    const page = await render(<ContactScreen />, portal, {});
    const topic = page.querySelector<HTMLSelectElement>('select')!;
    await choose(topic, 'GENERAL');
    const typedInto = () => [
      ...page.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(
        'form input:not([type=checkbox]):not([type=radio]):not([type=file]):not([type=hidden]), form textarea',
      ),
    ];
    const fields = typedInto();
    expect(fields.length).toBeGreaterThan(2);
    for (const [index, field] of fields.entries()) await type(field, `typed ${index}`);
    // As the fields took it (the order number keeps its digits).
    const before = typedInto().map((field) => field.value);
    expect(before.filter((value) => value.startsWith('typed')).length).toBeGreaterThan(2);
    await choose(topic, 'DELIVERY');
    await choose(topic, 'GENERAL');
    expect(typedInto().map((field) => field.value)).toEqual(before);
  });
});

describe('issue calendar for a logged-in user', () => {
  it('says so when no subscription has an issue calendar', async () => {
    const inactive = makeSubscription({
      id: '301-1',
      orderNumber: '4000000001',
      displayName: 'Old',
      orderStatus: 'I',
      publication: 'TWM',
    });
    const page = await render(<IssueCalendarScreen />, config({}), { '/subscriptions': [inactive] }, true);
    expect(page.textContent).toContain('None of your subscriptions has an issue calendar.');
  });

  it('shows the empty notice when no issue appears in the next month', async () => {
    const active = makeSubscription({
      id: '301-2',
      orderNumber: '4000000002',
      displayName: 'Magazine',
      orderStatus: 'A',
      publication: 'TWM',
    });
    const api: Record<string, unknown> = { '/subscriptions': [active] };
    const portal = config({});
    const page = await render(
      <IssueCalendarScreen />,
      portal,
      new Proxy(api, {
        get: (target, key: string) => (key.startsWith('/subscriptions/') ? [] : target[key]),
      }),
      true,
    );
    expect(page.querySelector('select')?.textContent).toContain('All subscriptions');
    expect(page.textContent).toContain('No issues appear in the next month.');
  });

  it('reads out a marked day by the translated day label', async () => {
    const active = makeSubscription({
      id: '301-3',
      orderNumber: '4000000003',
      displayName: 'Magazine',
      orderStatus: 'A',
      publication: 'TWM',
    });
    const today = new Date().toISOString().slice(0, 10);
    const issue = {
      issue: '2026-47',
      issueNumber: '47',
      description: null,
      dateOfFirstSale: today,
      publication: 'TWM',
      subscriptionId: '301-3',
    };
    const api: Record<string, unknown> = { '/subscriptions': [active] };
    const portal = config({ issueCalendar: { mode: 'calendar' } });
    const page = await render(
      <IssueCalendarScreen />,
      portal,
      new Proxy(api, {
        get: (target, key: string) => (key.startsWith('/subscriptions/') ? [issue] : target[key]),
      }),
      true,
    );
    const spoken = page.querySelector(`[data-date="${today}"] .visually-hidden`)?.textContent;
    expect(spoken).toBe(`On sale from ${formatDate(today, 'en-GB')}: Magazine: issue 47`);
  });

  it('tells two subscriptions of one publication apart by their order numbers', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const subscriptions = ['4000000004', '4000000005'].map((orderNumber, n) =>
      makeSubscription({
        id: `301-${4 + n}`,
        orderNumber,
        displayName: 'Magazine',
        orderStatus: 'A',
        publication: 'TWM',
      }),
    );
    const issueOf = (subscriptionId: string) => ({
      issue: '2026-47',
      issueNumber: '47',
      description: null,
      dateOfFirstSale: today,
      publication: 'TWM',
      subscriptionId,
    });
    const page = await render(
      <IssueCalendarScreen />,
      config({ issueCalendar: { mode: 'list' } }),
      new Proxy({ '/subscriptions': subscriptions } as Record<string, unknown>, {
        get: (target, key: string) =>
          key.startsWith('/subscriptions/') ? [issueOf(key.split('/')[2])] : target[key],
      }),
      true,
    );
    expect(page.textContent).toContain('Magazine (4000000004): issue 47');
    expect(page.textContent).toContain('Magazine (4000000005): issue 47');
  });
});

describe("a publication's calendar", () => {
  const answers = {
    '/issue-calendar/publications': [{ publication: 'SKT', description: 'Stadtkurier', clientId: '01' }],
  };
  const backLinks = (page: HTMLElement) =>
    [...page.querySelectorAll('a')].filter((a) => a.textContent?.includes('Back to overview'));

  for (const [how, tenant, query] of [
    ['the tenant setting', { embedding: { hideBackToOverview: true } }, ''],
    ['the query parameter', {}, '?hideBackToOverview=true'],
  ] as const) {
    it(`hides the back link by ${how} (portal-core.md §1)`, async () => {
      const shown = await renderScreen(<PublicationCalendarScreen />, {
        api: fakeApi({}, {}, (method, path) =>
          method === 'GET' ? ((answers as Record<string, unknown>)[path] ?? []) : {},
        ),
        path: '/issue-calendar/publications/SKT',
        route: '/issue-calendar/publications/:publication',
        portal: config({}),
        loginSource: null,
      });
      expect(backLinks(shown.page)).toHaveLength(1);
      cleanUp();
      const hidden = await renderScreen(<PublicationCalendarScreen />, {
        api: fakeApi({}, {}, (method, path) =>
          method === 'GET' ? ((answers as Record<string, unknown>)[path] ?? []) : {},
        ),
        path: `/issue-calendar/publications/SKT${query}`,
        route: '/issue-calendar/publications/:publication',
        portal: config(tenant),
        loginSource: null,
      });
      expect(hidden.page.textContent).toContain('Stadtkurier');
      expect(backLinks(hidden.page)).toHaveLength(0);
    });
  }
});
