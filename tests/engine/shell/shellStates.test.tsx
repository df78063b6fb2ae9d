// @vitest-environment jsdom
/**
 * The shell states in jsdom (portal-core.md §2 "Shell", "Access rules", §4, §6, §8):
 * a closed announcement stays closed, the 'new' badge after a link survives a reload, a path of an
 * external link that is not shown inside the portal gets no frame, an embedded portal keeps an
 * anonymous visitor on the page asked for, and the smaller items (e-card button, voucher phone,
 * the address form's cancel).
 */
import { readFileSync } from 'node:fs';
import { act } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccessGate } from '../../../engine/app/access';
import { requestedDestination } from '../../../engine/domain/returnTo';
import { authStateAtom } from '../../../engine/core/authState';
import { AnnouncementBanner } from '../../../engine/app/shell/AnnouncementBanner';
import { Sidebar } from '../../../engine/app/shell/Sidebar';
import { Header } from '../../../engine/app/shell/Header';
import type { PortalConfig } from '../../../engine/domain/portalConfig';
import { newSubscriptionKey } from '../../../engine/account/newSubscription';
import { CrossSelling } from '../../../engine/account/offers/OfferSuccess';
import ExternalPageScreen from '../../../engine/features/external-page/ExternalPageScreen';
import { subscriptionActions } from '../../../engine/features';
import type { SubscriptionPartner } from '../../../schemas/generated/account-changes';
import AddressChangeScreen from '../../../engine/features/address-change/AddressChangeScreen';
import { makeSubscription } from '../../support/subscriptionBuilder';
import {
  byText,
  cleanUp,
  click,
  config,
  fakeApi,
  labelled,
  polyfillDialogs,
  render,
  settleUntil,
  type,
} from '../changes/harness';

type Locale = 'de-DE' | 'en-GB';
const FILES = [
  'core',
  'account',
  'features/orders',
  'features/external-page',
  'features/address-change',
  'features/link-subscription',
  'features/faq',
  'features/contact',
  'features/e-card',
];
const TABLES = FILES.map(
  (dir) =>
    JSON.parse(readFileSync(`engine/${dir}/texts.json`, 'utf8')) as Record<Locale, Record<string, string>>,
);
const merged = (locale: Locale) =>
  Object.assign({}, ...TABLES.map((table) => table[locale])) as Record<string, string>;
const en = merged('en-GB');
const de = merged('de-DE');
const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');

function portal(tenant: Record<string, unknown> = {}): PortalConfig {
  return { ...config(tenant), texts: { 'de-DE': de, 'en-GB': en } };
}

beforeAll(polyfillDialogs);
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  cleanUp();
  vi.restoreAllMocks();
});

describe('announcement banner (§2: visible until the user closes it)', () => {
  const announcement = {
    html: { 'en-GB': '<p>Strike on Saturday</p>', 'de-DE': '<p>Warnstreik am Samstag</p>' },
    variant: 'warning',
  };
  const withBanner = (html = announcement.html) =>
    portal({ features: ['announcement'], announcement: { ...announcement, html } });

  it('stays closed after a reload, and a new announcement shows again', async () => {
    const first = await render(<AnnouncementBanner />, {
      api: fakeApi(),
      path: '/orders',
      route: 'orders',
      portal: withBanner(),
    });
    expect(first.page.textContent).toContain('Strike on Saturday');
    await click(
      first.page.querySelector<HTMLButtonElement>(`button[aria-label="${en['shell.closeBanner']}"]`),
    );
    expect(first.page.textContent).not.toContain('Strike on Saturday');
    cleanUp();

    const reloaded = await render(<AnnouncementBanner />, {
      api: fakeApi(),
      path: '/orders',
      route: 'orders',
      portal: withBanner(),
    });
    expect(reloaded.page.querySelector('.announcement')).toBeNull();
    cleanUp();

    const next = await render(<AnnouncementBanner />, {
      api: fakeApi(),
      path: '/orders',
      route: 'orders',
      portal: withBanner({ ...announcement.html, 'en-GB': '<p>Strike on Sunday</p>' }),
    });
    expect(next.page.textContent).toContain('Strike on Sunday');
  });
});

describe("the 'new' badge on Orders (§2, §4 new-subscription flag)", () => {
  const sidebarPortal = () => portal({ features: ['manual-registration'] });
  const badges = (page: HTMLElement) =>
    [...page.querySelectorAll('.menu-badge')].map((badge) => badge.textContent);

  it('shows after a link, in the menu and on the collapsed menu toggle, also after a reload', async () => {
    sessionStorage.setItem(
      newSubscriptionKey('acme'),
      JSON.stringify({ userId: 'u1', orderNumber: '4012345678' }),
    );
    const { page } = await render(<Sidebar />, {
      api: fakeApi(),
      path: '/link-subscription',
      route: 'link-subscription',
      portal: sidebarPortal(),
    });
    expect(badges(page)).toEqual([en['account.newBadge'], en['account.newBadge']]);
    const orders = page.querySelector<HTMLAnchorElement>('.sidebar-items a[href="/orders"]')!;
    expect(orders.textContent).toBe(`${en['orders.menuTitle']}${en['account.newBadge']}`);
  });

  it('is not shown to another user who signs in in the same tab', async () => {
    sessionStorage.setItem(
      newSubscriptionKey('acme'),
      JSON.stringify({ userId: 'someone-else', orderNumber: '4012345678' }),
    );
    const { page } = await render(<Sidebar />, {
      api: fakeApi(),
      path: '/orders',
      route: 'orders',
      portal: sidebarPortal(),
    });
    expect(badges(page)).toEqual([]);
  });
});

describe('external navigation links at their path (§2 catch-all)', () => {
  const links = [
    {
      text: { 'de-DE': 'E-Paper', 'en-GB': 'E-Paper' },
      url: 'https://epaper.example/reader',
      showInIframe: true,
    },
    { text: { 'de-DE': 'Shop', 'en-GB': 'Shop' }, url: 'https://shop.example/', openInNewTab: true },
    { text: { 'de-DE': 'Newsletter', 'en-GB': 'Newsletter' }, url: 'https://www.example/newsletter' },
  ];
  const external = () => portal({ features: ['external-navigation'], externalNavigationLinks: links });

  it('frames only a link shown inside the portal', async () => {
    const { page } = await render(<ExternalPageScreen />, {
      api: fakeApi(),
      path: '/E-Paper',
      route: ':page',
      portal: external(),
    });
    expect(page.querySelector('iframe')?.getAttribute('src')).toBe('https://epaper.example/reader');
  });

  it('names a link shown inside the portal on the collapsed menu’s toggle while it is open, the menu elsewhere', async () => {
    const toggle = async (path: string) => {
      const { page } = await render(<Sidebar />, {
        api: fakeApi(),
        path,
        route: ':page',
        portal: external(),
      });
      const label = page.querySelector('.sidebar-toggle')?.textContent;
      cleanUp();
      return label;
    };
    expect(await toggle('/E-Paper')).toBe('☰ E-Paper');
    // Opened in a new tab, the link has no page of the portal to name.
    expect(await toggle('/Shop')).toBe(`☰ ${en['shell.menuTitle']}`);
  });

  it('gives /Shop and /Newsletter a page that opens the link as the menu does (a new tab where set), never a frame', async () => {
    for (const [path, url, key, target] of [
      ['/Shop', 'https://shop.example/', 'external-page.openInNewTab', '_blank'],
      ['/Newsletter', 'https://www.example/newsletter', 'external-page.open', null],
    ] as const) {
      const { page } = await render(<ExternalPageScreen />, {
        api: fakeApi(),
        path,
        route: ':page',
        portal: external(),
      });
      const name = path.slice(1);
      expect(page.querySelector('iframe')).toBeNull();
      expect(page.querySelector('h1')?.textContent).toBe(name);
      const open = byText(page, 'a', fill(en[key], { name }))!;
      expect([open.getAttribute('href'), open.getAttribute('target')]).toEqual([url, target]);
      cleanUp();
    }
  });
});

describe('a visitor without a session (§2: a missing user sends to login unless the portal is embedded)', () => {
  const embedded = (isEmbedded: boolean) =>
    portal({ embedding: { isEmbedded, showLangSelector: true, hideNavigation: false, parentOrigins: [] } });

  async function anonymousAt(path: string, isEmbedded: boolean, locale: Locale = 'en-GB', timedOut = false) {
    const rendered = await render(
      <AccessGate access="login">
        <p>the account</p>
      </AccessGate>,
      { api: fakeApi(), path, route: 'subscriptions/:id', portal: embedded(isEmbedded), locale },
    );
    await act(async () => rendered.store.set(authStateAtom, { sessionHasTimedOut: timedOut }));
    // The embedded sign-in notice and the redirect to the login load when needed (engine/app/access.tsx).
    await settleUntil(
      () =>
        rendered.page.querySelector('h1') !== null || rendered.router.state.location.pathname === '/login',
    );
    return rendered;
  }

  it('stays on the embedded page asked for and offers to log in there, in German too', async () => {
    const { page, router } = await anonymousAt('/subscriptions/123?view=x', true, 'de-DE');
    expect(router.state.location.pathname).toBe('/subscriptions/123');
    expect(page.textContent).not.toContain('the account');
    expect(page.querySelector('h1')?.textContent).toBe(de['shell.embeddedSignInTitle']);
    const wayIn = byText(page, 'a', de['shell.embeddedSignInButton'])!;
    expect(wayIn.getAttribute('href')).toMatch(/^\/login\?/);
    // The way in comes back to this page, its query kept.
    expect(requestedDestination(`?${wayIn.getAttribute('href')!.split('?')[1]}`)).toBe(
      '/subscriptions/123?view=x',
    );
  });

  it('says the session expired after a timeout', async () => {
    const { page } = await anonymousAt('/subscriptions/123', true, 'en-GB', true);
    expect(page.querySelector('[role="alert"]')?.textContent).toBe(en['shell.sessionExpired']);
    expect(byText(page, 'a', en['shell.embeddedSignInButton'])).toBeDefined();
  });

  it('says why after a log-out in the frame deleted the account or left the club, and the sign-in does not say it again', async () => {
    for (const [query, text] of [
      ['deleted=1', de['shell.embeddedAccountDeleted']],
      ['left-club=1', de['shell.embeddedLeftClub']],
    ] as const) {
      const { page } = await anonymousAt(`/subscriptions/123?${query}&view=x`, true, 'de-DE');
      expect(page.querySelector('[role="status"]')?.textContent).toBe(text);
      const wayIn = byText(page, 'a', de['shell.embeddedSignInButton'])!;
      expect(wayIn.getAttribute('href')).not.toContain(query);
      expect(requestedDestination(`?${wayIn.getAttribute('href')!.split('?')[1]}`)).toBe(
        '/subscriptions/123?view=x',
      );
      cleanUp();
    }
  });

  it('sends a visitor of a portal that is not embedded to /login', async () => {
    const { router } = await anonymousAt('/subscriptions/123?view=x', false);
    expect(router.state.location.pathname).toBe('/login');
    expect(requestedDestination(router.state.location.search)).toBe('/subscriptions/123?view=x');
  });

  it("opens the publisher's site from the logo as the whole page when embedded, in place otherwise", async () => {
    for (const isEmbedded of [true, false]) {
      const tenant = {
        logoTargetUrl: 'https://www.publisher.example/',
        embedding: { isEmbedded, showLangSelector: true, hideNavigation: false, parentOrigins: [] },
      };
      const { page } = await render(<Header />, { api: fakeApi(), path: '/faq', portal: portal(tenant) });
      const logo = page.querySelector('a.portal-logo')!;
      expect([logo.getAttribute('href'), logo.getAttribute('target')]).toEqual([
        'https://www.publisher.example/',
        isEmbedded ? '_top' : null,
      ]);
      cleanUp();
    }
  });
});

describe('the smaller items', () => {
  it('never offers "Send an e-card" on a subscription page (§6 "e-card: never by this rule set")', async () => {
    const tenant = { features: ['e-card', 'contact-form'], buttons: { hiddenActions: [] } } as never;
    const ids = (await subscriptionActions(tenant, makeSubscription(), { tenant } as never)).map(
      (action) => action.id,
    );
    expect(ids).not.toContain('e-card');
    expect(ids).toContain('contact');
  });

  it("gives the tenant's contact phone when the voucher codes are exhausted (§8)", async () => {
    const offer = {
      product: { title: 'TechnikWelt Pro', images: [], url: 'https://pro.example/' },
      voucherCode: null,
    };
    const { page } = await render(<CrossSelling offer={offer} />, {
      api: fakeApi(),
      path: '/x',
      route: 'x',
      portal: portal({
        contact: {
          phone: '+49 89 1234 567',
          fallbackPhone: '+49 30 123',
          fallbackEmail: 'help@acme.example',
        },
      }),
    });
    expect(page.textContent).toContain(en['account.crossSelling.vouchersExhausted']);
    const phone = byText(page, 'a', fill(en['shell.fallbackPhone'], { phone: '+49 89 1234 567' }))!;
    expect(phone.getAttribute('href')).toBe('tel:+49891234567');
  });

  it('asks before "Cancel" leaves the address form with unsaved changes', async () => {
    const subscription = makeSubscription();
    const S = `/subscriptions/${subscription.id}`;
    const partner: SubscriptionPartner = {
      bpNumber: '0012345678',
      roles: ['AG', 'WE'],
      address: {
        salutationCode: '0001',
        firstName: 'Anna',
        lastName1: 'Schmidt',
        company1: null,
        street: 'Lindenstraße',
        streetNumber: '12',
        zipcode: '10969',
        city: 'Berlin',
        countryCode: 'DE',
      },
      company2: null,
      jobTitle: null,
      department: null,
      emailAddress: 'anna@example.org',
      phoneNumber: null,
      dateOfBirth: null,
      futureAddresses: [],
      editable: true,
      addressVersion: '0123456789abcdef',
      nextPhysicalIssue: null,
    };
    const api = fakeApi({
      [S]: subscription,
      [`${S}/business-partners`]: [partner],
      [`${S}/supported-countries?role=WE`]: ['DE'],
    });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { page, router } = await render(<AddressChangeScreen />, {
      api,
      path: `${S}/business-partners/0012345678`,
      route: 'subscriptions/:id/business-partners/:bpNumber',
      portal: config(),
      locale: 'de-DE',
    });
    const cancel = () => byText(page, 'button', 'Abbrechen');

    await type(labelled<HTMLInputElement>(page, 'Ort *'), 'Potsdam');
    await click(cancel());
    expect(confirm).toHaveBeenCalledWith('Ungespeicherte Änderungen verwerfen?');
    expect(router.state.location.pathname).toBe(`${S}/business-partners/0012345678`);

    confirm.mockReturnValue(true);
    await click(cancel());
    expect(router.state.location.pathname).toBe(`${S}/addresses`);
  });
});
