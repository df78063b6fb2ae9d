/**
 * The shell states and the smaller items of the shell, as a subscriber meets them: a closed
 * announcement stays closed after a reload (portal-core.md §2 "Announcement banner"); the green
 * 'new' badge on Orders after linking a subscription stays until the orders page has been seen
 * (§2 "Menu items", §4); the path of an external link that is not shown inside the portal gets no
 * frame (§2 catch-all); an anonymous visitor of the embedded tenant stays on the page asked for
 * (§2 "Access rules"); and the smaller items: one word for signing in per language, the order
 * attributes block, a refused registration or forgot-password address, the phone when voucher
 * codes are exhausted (§8), no e-card button on a subscription (§6), the confirming button last in
 * the licence dialog, and the unsaved-changes question on the address form's cancel.
 *
 * Desktop (1280 px) runs in English, phone (360 px) in German; screenshots land in the test output
 * folder (or E2E_SHOTS_DIR) for a person to look at.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import { buildDemoData } from '../../server/seed/demoData';
import {
  linkIn,
  MAGIC_LINK_SUBJECT,
  signInByMagicLink,
  subscriptionsOfSession,
  waitForMail,
  screenHeading,
} from './support';

type Locale = 'de-DE' | 'en-GB';
const TEXT_FILES = [
  'core',
  'account',
  'features/orders',
  'features/subscription',
  'features/link-subscription',
  'features/external-page',
  'features/login',
  'features/multi-user-licenses',
  'features/address-change',
  'features/opt-in-widget',
  'features/faq',
];
const TEXTS = TEXT_FILES.map(
  (dir) =>
    JSON.parse(readFileSync(`engine/${dir}/texts.json`, 'utf8')) as Record<Locale, Record<string, string>>,
);
const tenantFile = (id: string) => JSON.parse(readFileSync(`tenants/${id}.json`, 'utf8'));

/** The base text, with a tenant's override when it has one. */
function texts(locale: Locale, tenant?: string) {
  const overrides: Record<string, string> = tenant ? (tenantFile(tenant).texts?.[locale] ?? {}) : {};
  return (key: string, vars: Record<string, string | number> = {}) => {
    const text = overrides[key] ?? TEXTS.find((table) => table[locale][key] !== undefined)?.[locale][key];
    if (text === undefined) throw new Error(`no text ${key}`);
    return text.replace(/\{\{(\w+)\}\}/g, (_, name) => String(vars[name] ?? ''));
  };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A form field by its label; required labels end in an aria-hidden " *". */
const field = (scope: Page | Locator, label: string) =>
  scope.getByLabel(new RegExp(`^${escapeRegExp(label)}( \\*)?$`));

const GERMAN_LOGIN = {
  emailLabel: 'E-Mail-Adresse',
  sendLink: 'Anmeldelink senden',
  linkSent: /Bitte prüfen Sie Ihr Postfach/,
};
const ENGLISH_LOGIN = {
  emailLabel: 'E-mail address',
  sendLink: 'Send login link',
  linkSent: /Please check your inbox/,
};
const DEMO_EMAIL = 'demo@portal.example';

/** Desktop in English, phone in German. */
const localeOf = (testInfo: TestInfo): Locale => (testInfo.project.name === 'phone' ? 'de-DE' : 'en-GB');
const langOf = (testInfo: TestInfo) => (localeOf(testInfo) === 'de-DE' ? 'de' : 'en');
const isPhone = (testInfo: TestInfo) => testInfo.project.name === 'phone';

const snapshot = (page: Page, testInfo: TestInfo, name: string) =>
  page.screenshot({
    path: process.env.E2E_SHOTS_DIR
      ? `${process.env.E2E_SHOTS_DIR}/${testInfo.project.name}-${name}.png`
      : testInfo.outputPath(`${name}.png`),
    fullPage: true,
  });

async function noHorizontalOverflow(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, 'page wider than the viewport').toBeLessThanOrEqual(clientWidth);
}

/** A GET of the tenant's API with the page's own session. */
async function apiGet<T>(page: Page, tenantId: string, path: string): Promise<T> {
  return page.evaluate(
    async ({ id, path }) => {
      const auth = JSON.parse(sessionStorage.getItem(`portal.authState.${id}`) ?? '{}');
      const response = await fetch(`/t/${id}/api${path}`, {
        headers: { 'x-auth-token': auth.accessToken, 'accept-language': document.documentElement.lang },
      });
      return response.json();
    },
    { id: tenantId, path },
  );
}

/** Creates an account through the login page's form and signs in with the e-mailed confirmation link. */
async function registerAccount(page: Page, tenant: string, email: string, locale: Locale) {
  const t = texts(locale, tenant);
  await page.goto(`/t/${tenant}/login?lang=${locale === 'de-DE' ? 'de' : 'en'}`);
  await page
    .getByRole('button', { name: t('login.createAccount') })
    .first()
    .click();
  const form = page.getByRole('form', { name: t('login.createAccountTitle') });
  await field(form, t('login.displayNameLabel')).fill('Badge journey');
  await field(form, t('login.emailLabel')).fill(email);
  await field(form, t('login.passwordLabel')).fill('Lesen2026x');
  await field(form, t('login.passwordConfirmLabel')).fill('Lesen2026x');
  const since = new Date().toISOString();
  await form.getByRole('button', { name: t('login.createAccountSubmit') }).click();
  await expect(page.getByText(t('login.registrationSentTitle'))).toBeVisible();
  const mail = await waitForMail(
    page.request,
    tenant,
    email,
    since,
    /Bitte bestätigen Sie Ihr Konto|Please confirm your account/,
  );
  await page.goto(linkIn(mail.text));
  // The link asks for the password chosen at registration (server/auth/commands/registration.ts).
  const confirm = page.getByRole('form', { name: t('login.confirmTitle') });
  await field(confirm, t('login.passwordLabel')).fill('Lesen2026x');
  await confirm.getByRole('button', { name: t('login.confirmButton') }).click();
  await expect(page).toHaveURL(new RegExp(`/t/${tenant}/orders`));
}

test.describe('announcement banner', () => {
  test('a closed announcement stays closed after a reload and on other pages; another announcement shows again', async ({
    page,
  }, testInfo) => {
    const locale = localeOf(testInfo);
    const t = texts(locale);
    const announcement = tenantFile('technikwelt').announcement.html[locale] as string;
    const words = announcement.replace(/<[^>]+>/g, '').slice(0, 30);
    await page.goto(`/t/technikwelt/faq?lang=${langOf(testInfo)}`);
    const banner = page.locator('.announcement');
    await expect(banner).toContainText(words);
    await snapshot(page, testInfo, 'banner-open');
    await banner.getByRole('button', { name: t('shell.closeBanner') }).click();
    await expect(banner).toHaveCount(0);

    await page.reload();
    await expect(screenHeading(page)).toBeVisible();
    await expect(page.locator('.announcement')).toHaveCount(0);
    await page.goto('/t/technikwelt/contact');
    await expect(screenHeading(page)).toBeVisible();
    await expect(page.locator('.announcement')).toHaveCount(0);
    await snapshot(page, testInfo, 'banner-closed-after-reload');

    // An announcement closed earlier is not this one: a new text of the tenant shows again.
    await page.evaluate(() => localStorage.setItem('portal.announcementClosed.technikwelt', '00000000'));
    await page.reload();
    await expect(page.locator('.announcement')).toContainText(words);
  });
});

test.describe("the 'new' badge after linking", () => {
  test('shows after the link, on the orders page and after a reload, until the user has seen the orders and moves on', async ({
    page,
  }, testInfo) => {
    const locale = localeOf(testInfo);
    const t = texts(locale);
    // Phone: stadtkurier in German; desktop: technikwelt in English. Each links a cancelled (AK)
    // subscription of a person with an address on record, the third from the end of those (the
    // link journeys of ordersAndSubscription.spec.ts take the last two), through the mailed link.
    const tenant = isPhone(testInfo) ? 'stadtkurier' : 'technikwelt';
    const settings = tenantFile(tenant);
    const data = buildDemoData(settings, new Date());
    const linkedBps = new Set(data.userBusinessPartners.map((link) => link.bp_number));
    const partnerOf = (id: string) =>
      data.businessPartners.find(
        (bp) =>
          bp.bp_number ===
          data.subscriptionRoles.find((r) => r.subscription_id === id && r.role === 'AG')!.bp_number,
      )!;
    const withAddress = data.subscriptions.filter(
      (s) =>
        s.order_status === 'AK' &&
        !linkedBps.has(partnerOf(s.id).bp_number) &&
        partnerOf(s.id).email_address !== null &&
        partnerOf(s.id).company1 === null,
    );
    const target = withAddress[withAddress.length - 3];
    expect(target, 'an unlinked cancelled subscription').toBeDefined();

    // An account no other journey uses: a new one on technikwelt (create account, then the
    // confirmation link), a seeded one on stadtkurier, which offers no registration.
    if (tenant === 'technikwelt')
      await registerAccount(page, tenant, `badge.${testInfo.project.name}.${Date.now()}@example.org`, locale);
    else await signInByMagicLink(page, tenant, 'anna.schmidt@stadtkurier.example', GERMAN_LOGIN);
    await page.goto(`/t/${tenant}/link-subscription?lang=${langOf(testInfo)}`);
    await expect(page.getByRole('heading', { level: 1, name: t('link-subscription.heading') })).toBeVisible();
    if (settings.hasMultipleAvsClients)
      await page
        .getByRole('combobox', { name: t('link-subscription.publication') })
        .selectOption(target.publication);
    await page.getByRole('textbox', { name: t('link-subscription.orderNumber') }).fill(target.order_number);
    await page
      .getByRole('textbox', { name: t('link-subscription.zipcode') })
      .fill(partnerOf(target.id).zipcode);
    await page.getByLabel(t('link-subscription.giftNo'), { exact: true }).check();
    const since = new Date().toISOString();
    await page.getByRole('button', { name: t('link-subscription.submit') }).click();
    // Another address on record: a link goes there; opening it and confirming links the subscription.
    await page
      .getByRole('dialog')
      .getByRole('button', { name: t('link-subscription.confirmClose') })
      .click();
    const onRecord = partnerOf(target.id).email_address!;
    await page.goto(linkIn((await waitForMail(page.request, tenant, onRecord, since)).text));
    await page.getByRole('button', { name: t('link-subscription.confirmLink.submit') }).click();
    const success = page.locator('.link-confirm .alert');
    await expect(success).toBeVisible();

    const menu = page.getByRole('navigation', { name: t('shell.menuTitle') });
    // Collapsed on the phone, the menu's toggle carries the badge; on the desktop the orders item does.
    const badge = isPhone(testInfo)
      ? menu.locator('.sidebar-toggle .menu-badge')
      : menu.getByRole('link', { name: `${t('orders.menuTitle')} ${t('account.newBadge')}` });
    await expect(badge).toBeVisible();
    await success.getByRole('button', { name: t('link-subscription.toOrders') }).click();
    await expect(page).toHaveURL(new RegExp(`/t/${tenant}/orders`));
    const card = page.locator('.subscription-card', { hasText: target.order_number });
    await expect(card).toBeVisible();
    // Seen only now: the badge is still there, and the new subscription's card says so too.
    await expect(badge).toBeVisible();
    await expect(card.locator('.badge', { hasText: new RegExp(`^${t('account.newBadge')}$`) })).toBeVisible();
    await noHorizontalOverflow(page);
    await snapshot(page, testInfo, 'badge-orders');
    if (isPhone(testInfo)) {
      await menu.locator('.sidebar-toggle').click();
      await expect(menu.locator('.sidebar-items .menu-badge')).toBeVisible();
      await snapshot(page, testInfo, 'badge-menu-open');
      await menu.locator('.sidebar-toggle').click();
    }

    await page.reload();
    await expect(card).toBeVisible();
    await expect(badge).toBeVisible();

    // Moving on from the orders page (to the new subscription) is having seen it.
    await card.getByRole('link', { name: t('account.manage') }).click();
    await expect(page).toHaveURL(/\/subscriptions\//);
    await expect(page.locator('.menu-badge')).toHaveCount(0);
    await page.goto(`/t/${tenant}/orders`);
    await expect(card).toBeVisible();
    await expect(page.locator('.menu-badge')).toHaveCount(0);
    await expect(card.locator('.badge', { hasText: new RegExp(`^${t('account.newBadge')}$`) })).toHaveCount(
      0,
    );
  });
});

test.describe('external navigation links at their path', () => {
  test('/Shop and /Newsletter (not shown inside the portal) open as their menu links do instead of a broken frame; /E-Paper is framed', async ({
    page,
  }, testInfo) => {
    const locale = localeOf(testInfo);
    const t = texts(locale);
    const links = tenantFile('technikwelt').externalNavigationLinks as Array<{
      text: Record<Locale, string>;
      url: string;
      showInIframe?: boolean;
      openInNewTab?: boolean;
    }>;
    await signInByMagicLink(page, 'technikwelt', DEMO_EMAIL, GERMAN_LOGIN);
    for (const path of ['Shop', 'Newsletter']) {
      const link = links.find((l) => l.text[locale] === path)!;
      await page.goto(`/t/technikwelt/${path}?lang=${langOf(testInfo)}`);
      await expect(page.getByRole('heading', { level: 1, name: path })).toBeVisible();
      await expect(page.locator('iframe')).toHaveCount(0);
      // In a new tab only where the tenant opens the link in one, as the menu does.
      const newTab = Boolean(link.openInNewTab);
      await expect(
        page.getByText(
          t(newTab ? 'external-page.outsideText' : 'external-page.outsideTextHere', { name: path }),
        ),
      ).toBeVisible();
      const open = page.getByRole('main').getByRole('link', {
        name: t(newTab ? 'external-page.openInNewTab' : 'external-page.open', { name: path }),
      });
      await expect(open).toHaveAttribute('href', link.url);
      if (newTab) await expect(open).toHaveAttribute('target', '_blank');
      else await expect(open).not.toHaveAttribute('target', /.*/);
      await noHorizontalOverflow(page);
      await snapshot(page, testInfo, `external-${path}`);
    }
    // Anonymous visitors and other languages' paths alike: a typed /Shop never frames the shop.
    await page.goto('/t/technikwelt/E-Paper');
    await expect(page.locator('iframe.external-frame')).toHaveCount(1);
  });
});

test.describe('the embedded tenant without a session', () => {
  test('an anonymous visitor stays on the page asked for, is told how to log in, and logging in there comes back to it', async ({
    page,
  }, testInfo) => {
    const locale = localeOf(testInfo);
    const t = texts(locale);
    await page.goto(`/t/northern-review/business-partners?lang=${langOf(testInfo)}`);
    await expect(page.getByRole('heading', { level: 1, name: t('shell.embeddedSignInTitle') })).toBeVisible();
    await expect(page).toHaveURL(/\/t\/northern-review\/business-partners$/);
    await expect(
      page.getByText(t('shell.embeddedSignInText', { name: 'The Northern Review' })),
    ).toBeVisible();
    await noHorizontalOverflow(page);
    await snapshot(page, testInfo, 'embedded-anonymous');

    // The way in is the visitor's choice, and the login comes back to this page.
    await page
      .getByRole('main')
      .getByRole('link', { name: t('shell.embeddedSignInButton') })
      .click();
    await expect(page).toHaveURL(/\/t\/northern-review\/login\?/);
    const login = locale === 'de-DE' ? GERMAN_LOGIN : ENGLISH_LOGIN;
    const form = page.locator('form', { has: page.getByRole('button', { name: login.sendLink }) });
    const email = 'priya.patel@northern-review.example';
    const since = new Date().toISOString();
    await form.getByLabel(login.emailLabel).fill(email);
    await form.getByRole('button', { name: login.sendLink }).click();
    await expect(page.getByText(login.linkSent)).toBeVisible();
    const mail = await waitForMail(page.request, 'northern-review', email, since, MAGIC_LINK_SUBJECT);
    await page.goto(linkIn(mail.text));
    await expect(page).toHaveURL(/\/t\/northern-review\/business-partners$/);
    await expect(page.getByRole('heading', { level: 1, name: t('shell.embeddedSignInTitle') })).toHaveCount(
      0,
    );
  });

  test('a host page that signs its visitor in with ?p= still goes through the login', async ({ page }) => {
    // A spent or made-up token: the login page answers it, rather than the notice hiding it.
    await page.goto('/t/northern-review/orders?p=not-a-real-token');
    await expect(page).toHaveURL(/\/t\/northern-review\/login\?/);
  });
});

test.describe('the smaller items', () => {
  test('one word for logging in per language, on the login page and on a public page', async ({
    page,
  }, testInfo) => {
    const locale = localeOf(testInfo);
    for (const tenant of ['technikwelt', 'northern-review']) {
      if (!tenantFile(tenant).locales.includes(locale)) continue;
      for (const path of ['login', 'faq']) {
        await page.goto(`/t/${tenant}/${path}?lang=${langOf(testInfo)}`);
        await expect(screenHeading(page)).toBeVisible();
        const text = await page.locator('body').innerText();
        if (locale === 'en-GB') {
          expect(text, `${tenant}/${path}`).not.toMatch(/\bsign(ed|s)?[ -]in\b/i);
          expect(text, `${tenant}/${path}`).toMatch(/\blog in\b/i);
        } else {
          expect(text, `${tenant}/${path}`).not.toMatch(/einlogg|eingeloggt|\blogin\b|\blog in\b/i);
          expect(text, `${tenant}/${path}`).toMatch(/anmelden/i);
        }
      }
    }
  });

  test('the order attributes: "Add cost centre" in English, the value on its label’s line; no e-card button on a subscription', async ({
    page,
  }, testInfo) => {
    const locale = localeOf(testInfo);
    const t = texts(locale);
    await signInByMagicLink(page, 'technikwelt', DEMO_EMAIL, GERMAN_LOGIN);
    const all = (await subscriptionsOfSession(page, 'technikwelt')) as unknown as Array<{
      id: string;
      roles: string[];
      orderAttributes: Array<{ type: string }>;
    }>;
    const s = all.find(
      (x) => x.roles.includes('AG') && !x.orderAttributes.some((a) => a.type === 'KOSTENSTELLE'),
    )!;
    await page.goto(`/t/technikwelt/subscriptions/${s.id}?lang=${langOf(testInfo)}`);
    const block = page.locator('.order-attributes');
    const add = block.getByRole('button', {
      name: locale === 'en-GB' ? 'Add cost centre' : 'Kostenstelle hinzufügen',
      exact: true,
    });
    await expect(add).toBeVisible();
    if (!isPhone(testInfo)) {
      // Label and value share one line: their text tops are level (the button's 44 px box does not push the value down).
      const tops = await block.locator('dl').evaluate((dl) => {
        const dt = dl.querySelector('dt')!;
        const dd = dl.querySelector('dd')!;
        const range = document.createRange();
        range.selectNodeContents(dd.querySelector('.muted') ?? dd);
        return { label: dt.getBoundingClientRect().top, value: range.getBoundingClientRect().top };
      });
      // Within 4 px: the label's and the muted value's fonts place their first line a pixel or
      // three apart, by the font build Chromium finds (3 px with Debian 12's current packages).
      expect(Math.abs(tops.label - tops.value)).toBeLessThanOrEqual(4);
    }
    await block.screenshot({ path: testInfo.outputPath('order-attributes.png') });
    // portal-core.md §6 "e-card: never by this rule set": no e-card button on the page.
    const actions = page.getByRole('region', { name: t('subscription.actionsHeading') });
    await expect(actions).toBeVisible();
    await expect(
      actions.getByRole('link', { name: locale === 'en-GB' ? 'Send an e-card' : 'E-Card verschicken' }),
    ).toHaveCount(0);
    await noHorizontalOverflow(page);
  });

  test('a registration or forgot-password address the server refuses shows its reason at the field, not "login failed"', async ({
    page,
  }, testInfo) => {
    const locale = localeOf(testInfo);
    const t = texts(locale, 'northern-review');
    const refused = `müller.${testInfo.project.name}@example.org`;
    await page.goto(`/t/northern-review/login?lang=${langOf(testInfo)}`);
    await page.getByRole('button', { name: t('login.createAccount') }).click();
    const register = page.getByRole('form', { name: t('login.createAccountTitle') });
    await field(register, t('login.displayNameLabel')).fill('Max');
    await field(register, t('login.emailLabel')).fill(refused);
    await field(register, t('login.passwordLabel')).fill('Lesen2026x');
    await field(register, t('login.passwordConfirmLabel')).fill('Lesen2026x');
    await register.getByRole('button', { name: t('login.createAccountSubmit') }).click();
    await expect(register.getByText(t('login.emailRefused'))).toBeVisible();
    await expect(field(register, t('login.emailLabel'))).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(t('login.error'))).toHaveCount(0);
    await noHorizontalOverflow(page);
    await snapshot(page, testInfo, 'registration-refused');

    await register.getByRole('button', { name: t('login.backToLogin') }).click();
    await page.getByRole('button', { name: t('login.forgotPassword') }).click();
    const forgot = page.getByRole('dialog', { name: t('login.forgotTitle') });
    await field(forgot, t('login.emailLabel')).fill(refused);
    await forgot.getByRole('button', { name: t('login.sendResetLink') }).click();
    await expect(forgot.getByText(t('login.emailRefused'))).toBeVisible();
    await expect(page.getByText(t('login.error'))).toHaveCount(0);
    await snapshot(page, testInfo, 'forgot-refused');
  });

  test("exhausted voucher codes give the tenant's contact phone", async ({ page }, testInfo) => {
    const locale = localeOf(testInfo);
    const t = texts(locale);
    const phone = tenantFile('technikwelt').contact.phone as string;
    await page.goto(`/t/technikwelt/opt-in-widget?provider=sommerfest&lang=${langOf(testInfo)}`);
    // Said before anyone types: no form to fill in for nothing.
    await expect(page.getByText(t('opt-in-widget.exhausted'))).toBeVisible();
    await expect(page.getByRole('button', { name: t('opt-in-widget.submit') })).toHaveCount(0);
    const call = page.getByRole('link', { name: t('shell.fallbackPhone', { phone }) });
    await expect(call).toHaveAttribute('href', `tel:${phone.replace(/[^+\d]/g, '')}`);
    await noHorizontalOverflow(page);
    await snapshot(page, testInfo, 'voucher-exhausted');
  });

  test('the licence delete dialog puts the confirming button last, like every other dialog', async ({
    page,
  }, testInfo) => {
    const locale = localeOf(testInfo);
    const t = texts(locale);
    await signInByMagicLink(page, 'technikwelt', DEMO_EMAIL, GERMAN_LOGIN);
    const all = (await subscriptionsOfSession(page, 'technikwelt')) as unknown as Array<{
      id: string;
      isMultiLicense: boolean;
      roles: string[];
    }>;
    const s = all.find((x) => x.isMultiLicense && x.roles.includes('AG'))!;
    await page.goto(`/t/technikwelt/subscriptions/${s.id}/licenses?lang=${langOf(testInfo)}`);
    await expect(
      page.getByRole('heading', { level: 1, name: t('multi-user-licenses.heading') }),
    ).toBeVisible();
    await page
      .getByRole('button', { name: t('multi-user-licenses.delete'), exact: true })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: t('multi-user-licenses.deleteTitle') });
    await expect(dialog).toBeVisible();
    expect(await dialog.locator('.dialog-actions button').allTextContents()).toEqual([
      t('multi-user-licenses.cancel'),
      t('multi-user-licenses.delete'),
    ]);
    await snapshot(page, testInfo, 'licence-delete-dialog');
    await dialog.getByRole('button', { name: t('multi-user-licenses.cancel') }).click();
    await expect(dialog).toHaveCount(0);
  });

  test('"Cancel" on the address form asks before unsaved changes are dropped', async ({ page }, testInfo) => {
    const locale = localeOf(testInfo);
    const t = texts(locale);
    await signInByMagicLink(page, 'technikwelt', DEMO_EMAIL, GERMAN_LOGIN);
    let found: { id: string; bpNumber: string } | undefined;
    for (const s of (await subscriptionsOfSession(page, 'technikwelt')) as unknown as Array<{ id: string }>) {
      const partners = await apiGet<Array<{ bpNumber: string; editable: boolean }> | { error: unknown }>(
        page,
        'technikwelt',
        `/subscriptions/${s.id}/business-partners`,
      );
      const editable = Array.isArray(partners) ? partners.find((p) => p.editable) : undefined;
      if (editable) {
        found = { id: s.id, bpNumber: editable.bpNumber };
        break;
      }
    }
    expect(found, 'an editable partner').toBeDefined();
    await page.goto(
      `/t/technikwelt/subscriptions/${found!.id}/business-partners/${found!.bpNumber}?lang=${langOf(testInfo)}`,
    );
    await expect(
      page.getByRole('heading', { level: 1, name: t('address-change.editHeading') }),
    ).toBeVisible();
    const address = page.getByRole('group', { name: t('address-change.addressLegend') });
    await field(address, t('account.address.city')).fill('Hannover-Linden');

    const questions: string[] = [];
    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('button', { name: t('address-change.cancel'), exact: true }).click();
    await expect.poll(() => questions).toEqual([t('address-change.unsavedConfirm')]);
    await expect(page).toHaveURL(/\/business-partners\//);
    await expect(field(address, t('account.address.city'))).toHaveValue('Hannover-Linden');

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: t('address-change.cancel'), exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/subscriptions/${found!.id}/addresses`));
  });
});
