/**
 * Sign-in keeps the destination (portal-core.md §2 "Login": "After login the user goes to
 * the subscription if query subscriptionId is present, else to the originally requested path
 * without the p query, else to orders"). A subscriber who opens "your subscription" from an e-mail
 * lands on it after signing in, whichever way they sign in: with a password, a login link (the
 * link carries the page, even into another browser), single sign-on (the OAuth state keeps it), a
 * token in the URL (`?p=`), the kicker account, a partial login's sign-in link or `subscriptionId`.
 * Only pages of the same portal are destinations (engine/domain/returnTo.ts).
 *
 * Both projects run every journey: German at 360 px (phone), English at 1280 px (desktop).
 * technikwelt (German by default) sends anonymous visitors to its login; its password form is the
 * kicker account's (§7 kicker-auth), its single sign-on the demo OpenID provider `npm start` runs
 * on 127.0.0.1:4455 (any e-mail and password). northern-review (English by default) signs in with
 * its own password (README "Demo tenants": Lesen2026).
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { buildDemoData } from '../../server/seed/demoData';
import { requestedDestination } from '../../engine/domain/returnTo';
import { linkIn, MAGIC_LINK_SUBJECT, waitForMail, screenHeading } from './support';

type Locale = 'de-DE' | 'en-GB';
const TEXT_FILES = ['features/login/texts.json', 'features/orders/texts.json', 'account/texts.json'];
const TEXTS = TEXT_FILES.map(
  (file) => JSON.parse(readFileSync(`engine/${file}`, 'utf8')) as Record<Locale, Record<string, string>>,
);
const DEMO_PASSWORD = 'Lesen2026';

function texts(locale: Locale) {
  return (key: string) => {
    const table = TEXTS.find((t) => t[locale][key] !== undefined);
    if (!table) throw new Error(`no text ${key}`);
    return table[locale][key];
  };
}

const localeOf = (testInfo: TestInfo): Locale => (testInfo.project.name === 'phone' ? 'de-DE' : 'en-GB');
const langOf = (locale: Locale) => (locale === 'de-DE' ? 'de' : 'en');
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An active subscription (not a bundle component) of a demo login, from the seed the server ran. */
function subscriptionOf(tenant: string, email: string, index = 0): { id: string } {
  const data = buildDemoData(JSON.parse(readFileSync(`tenants/${tenant}.json`, 'utf8')), new Date());
  const partners = new Set(
    data.userBusinessPartners.filter((link) => link.email === email).map((link) => link.bp_number),
  );
  const own = data.subscriptions.filter(
    (s) =>
      s.order_status === 'A' &&
      !s.details.renewal?.renewalBundleComponent &&
      data.subscriptionRoles.some((role) => role.subscription_id === s.id && partners.has(role.bp_number)),
  );
  expect(own.length).toBeGreaterThan(index);
  return { id: own[index].id };
}

/** The page of that subscription is open at exactly `path` (the query kept, no p, no lang). */
async function expectOnPage(page: Page, tenant: string, path: string) {
  await expect(page).toHaveURL(new RegExp(`/t/${tenant}${escape(path)}$`));
  await expect(page.locator('#subscription-title')).toBeVisible();
}

/**
 * An anonymous visit of a deep link ends on the login, with the page's query kept (portal-core.md
 * §2) and its path as returnTo: together the page it leads back to, without lang.
 */
async function openAnonymously(page: Page, tenant: string, path: string, lang: string) {
  await page.goto(`/t/${tenant}${path}${path.includes('?') ? '&' : '?'}lang=${lang}`);
  await expect(page).toHaveURL(new RegExp(`/t/${tenant}/login\\?`));
  const login = new URL(page.url());
  for (const [key, value] of new URLSearchParams(path.split('?')[1] ?? ''))
    expect(login.searchParams.get(key)).toBe(value);
  expect(login.searchParams.get('returnTo')).toBe(path.split('?')[0]);
  expect(requestedDestination(login.search)).toBe(path);
  await expect(page.locator('#login-title')).toBeVisible();
}

async function signInWithPassword(
  page: Page,
  locale: Locale,
  email: string,
  titleKey = 'login.passwordTitle',
) {
  const t = texts(locale);
  const form = page.getByRole('form', { name: t(titleKey) });
  await form.getByLabel(t('login.emailLabel')).fill(email);
  await form.getByLabel(t('login.passwordLabel')).fill(DEMO_PASSWORD);
  await form.getByRole('button', { name: t('login.submitPassword') }).click();
}

/** Asks for a login link on the open login page; the link from the outbox. */
async function requestLoginLink(page: Page, tenant: string, locale: Locale, email: string): Promise<string> {
  const t = texts(locale);
  const since = new Date().toISOString();
  const form = page.locator('form', { has: page.getByRole('button', { name: t('login.sendLink') }) });
  await form.getByLabel(t('login.emailLabel')).fill(email);
  await form.getByRole('button', { name: t('login.sendLink') }).click();
  await expect(page.getByRole('heading', { name: t('login.linkSentTitle') })).toBeVisible();
  const mail = await waitForMail(page.request, tenant, email, since, MAGIC_LINK_SUBJECT);
  return linkIn(mail.text);
}

/** The partner sign-in mail of a partial login (server/mail/authMails.ts partnerSignIn), in either language. */
const PARTNER_SIGN_IN_SUBJECT = /Anmeldung zu Ihrem Abonnement bei|Log in to your subscription at /;

const shot = (page: Page, testInfo: TestInfo, name: string) =>
  page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });

test.describe('technikwelt: an anonymous deep link leads to the login and back to the page', () => {
  const TENANT = 'technikwelt';

  test('through the kicker account’s password form', async ({ page }, testInfo) => {
    const locale = localeOf(testInfo);
    const target = subscriptionOf(TENANT, 'anna.schmidt@technikwelt.example');
    const deepLink = `/subscriptions/${target.id}?view=x`;
    await openAnonymously(page, TENANT, deepLink, langOf(locale));
    await shot(page, testInfo, 'kicker-login');
    await signInWithPassword(page, locale, 'anna.schmidt@technikwelt.example', 'login.kickerTitle');
    await expectOnPage(page, TENANT, deepLink);
    await shot(page, testInfo, 'kicker-landed');
    // Signed in, the login itself sends on to where a sign-in goes: subscriptionId, then returnTo.
    await page.goto(`/t/${TENANT}/login?subscriptionId=${target.id}`);
    await expectOnPage(page, TENANT, `/subscriptions/${target.id}`);
    await page.goto(`/t/${TENANT}/login`);
    await expect(page).toHaveURL(new RegExp(`/t/${TENANT}/orders$`));
  });

  test('through a login link, opened in another browser', async ({ page, browser, baseURL }, testInfo) => {
    const locale = localeOf(testInfo);
    const email = 'lena.wagner@technikwelt.example';
    const target = subscriptionOf(TENANT, email);
    const deepLink = `/subscriptions/${target.id}?view=x`;
    await openAnonymously(page, TENANT, deepLink, langOf(locale));
    const link = await requestLoginLink(page, TENANT, locale, email);
    expect(new URL(link).searchParams.get('returnTo')).toBe(deepLink);
    await shot(page, testInfo, 'magic-link-sent');

    // The destination travels in the link, not in this browser's state.
    const other = await browser.newContext({ viewport: page.viewportSize(), baseURL });
    const elsewhere = await other.newPage();
    await elsewhere.goto(link);
    await expectOnPage(elsewhere, TENANT, deepLink);
    await expect(elsewhere.locator('html')).toHaveAttribute('lang', locale);
    await shot(elsewhere, testInfo, 'magic-link-landed');
    await other.close();
  });

  test('through a token in the URL (?p=) on the deep link itself', async ({
    page,
    browser,
    baseURL,
  }, testInfo) => {
    const locale = localeOf(testInfo);
    const email = 'lena.wagner@technikwelt.example';
    const target = subscriptionOf(TENANT, email, 1);
    await page.goto(`/t/${TENANT}/login?lang=${langOf(locale)}`);
    const token = new URL(await requestLoginLink(page, TENANT, locale, email)).searchParams.get('p')!;

    const other = await browser.newContext({ viewport: page.viewportSize(), baseURL });
    const visitor = await other.newPage();
    const withToken = `/t/${TENANT}/subscriptions/${target.id}?view=x&p=${encodeURIComponent(token)}&lang=${langOf(locale)}`;
    await visitor.goto(withToken);
    await expectOnPage(visitor, TENANT, `/subscriptions/${target.id}?view=x`);
    // The mailed link's address again (a host page reloaded with its frame at it): the token is
    // spent, the visitor is signed in, and goes on to the page rather than to "this link is invalid".
    const returnTo = encodeURIComponent(`/subscriptions/${target.id}?view=x`);
    await visitor.goto(`/t/${TENANT}/login?p=${encodeURIComponent(token)}&returnTo=${returnTo}`);
    await expectOnPage(visitor, TENANT, `/subscriptions/${target.id}?view=x`);
    await expect(visitor.getByText(texts(locale)('login.tokenInvalid'))).toHaveCount(0);
    await other.close();
  });

  test('through single sign-on: the OAuth state keeps the page', async ({ page }, testInfo) => {
    const locale = localeOf(testInfo);
    const t = texts(locale);
    const target = subscriptionOf(TENANT, 'max.mueller@technikwelt.example');
    const deepLink = `/subscriptions/${target.id}?view=x`;
    await openAnonymously(page, TENANT, deepLink, langOf(locale));
    const sso = page.getByRole('link', { name: t('login.ssoButton') });
    expect(new URL((await sso.getAttribute('href'))!, page.url()).searchParams.get('returnTo')).toBe(
      deepLink,
    );
    await sso.click();
    await expect(page).toHaveURL(/127\.0\.0\.1:4455\/interaction\//);
    await page.locator('input[name=login]').fill('max.mueller@technikwelt.example');
    await page.locator('input[name=password]').fill('anything');
    await page.locator('button[type=submit]').click();
    // The provider asks to confirm the scopes once.
    if (page.url().includes(':4455/interaction/')) await page.locator('button[type=submit]').click();
    await expectOnPage(page, TENANT, deepLink);
    await expect(page.locator('html')).toHaveAttribute('lang', locale);
    await shot(page, testInfo, 'sso-landed');
  });

  test('through a partial login: the renewal’s order-number link opens that subscription’s renewal', async ({
    page,
  }, testInfo) => {
    const locale = localeOf(testInfo);
    const t = texts(locale);
    const data = buildDemoData(JSON.parse(readFileSync(`tenants/${TENANT}.json`, 'utf8')), new Date());
    const email = data.logins[0].email;
    // A subscription whose ordering party has the login's address on record: the link goes there.
    const target = data.subscriptions
      .filter((s) => s.order_status === 'A' && !s.details.renewal?.renewalBundleComponent)
      .flatMap((s) => {
        const ag = data.subscriptionRoles.find((role) => role.subscription_id === s.id && role.role === 'AG');
        const partner = data.businessPartners.find((bp) => bp.bp_number === ag?.bp_number);
        return partner?.email_address === email
          ? [{ id: s.id, orderNumber: s.order_number, lastName: partner.last_name1! }]
          : [];
      })[0];
    expect(target).toBeDefined();
    await page.goto(`/t/${TENANT}/renewal?lang=${langOf(locale)}`);
    await page.getByLabel(t('account.entry.orderNumber')).fill(target.orderNumber);
    await page.getByLabel(t('account.entry.lastName')).fill(target.lastName);
    const since = new Date().toISOString();
    await page.getByRole('button', { name: t('account.entry.submit') }).click();
    const mail = await waitForMail(page.request, TENANT, email, since, PARTNER_SIGN_IN_SUBJECT);
    await page.goto(linkIn(mail.text));
    await expect(page).toHaveURL(
      new RegExp(`/t/${TENANT}/subscriptions/${target.id}/renewal\\?returnTo=renewal$`),
    );
    await expect(screenHeading(page)).toBeVisible();
    await shot(page, testInfo, 'partial-login-landed');
  });

  test('only to pages of this portal: another origin or another tenant leads to orders', async ({
    page,
    browser,
    baseURL,
  }, testInfo) => {
    const locale = localeOf(testInfo);
    const t = texts(locale);
    for (const returnTo of [
      '//evil.example/phish',
      'https://evil.example/',
      '/\\evil.example',
      '/t/stadtkurier/orders',
    ]) {
      const context = await browser.newContext({ viewport: page.viewportSize(), baseURL });
      const visitor = await context.newPage();
      await visitor.goto(
        `/t/${TENANT}/login?lang=${langOf(locale)}&returnTo=${encodeURIComponent(returnTo)}`,
      );
      const sso = visitor.getByRole('link', { name: t('login.ssoButton') });
      expect(await sso.getAttribute('href')).toBe(`/t/${TENANT}/sso/authorize`);
      await signInWithPassword(visitor, locale, 'anna.schmidt@technikwelt.example', 'login.kickerTitle');
      await expect(visitor).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/t/${TENANT}/orders$`));
      await expect(visitor.getByRole('heading', { level: 1, name: t('orders.heading') })).toBeVisible();
      await context.close();
    }
  });
});

test.describe('northern-review: its password sign-in leads to the page the login was asked for', () => {
  const TENANT = 'northern-review';
  const EMAIL = 'priya.patel@northern-review.example';

  test('the page and its query handed over as returnTo', async ({ page }, testInfo) => {
    const locale = localeOf(testInfo);
    const target = subscriptionOf(TENANT, EMAIL);
    const deepLink = `/subscriptions/${target.id}?view=x`;
    await page.goto(`/t/${TENANT}/login?lang=${langOf(locale)}&returnTo=${encodeURIComponent(deepLink)}`);
    await expect(page.locator('#login-title')).toBeVisible();
    await shot(page, testInfo, 'password-login');
    await signInWithPassword(page, locale, EMAIL);
    await expectOnPage(page, TENANT, deepLink);
    await expect(page.locator('html')).toHaveAttribute('lang', locale);
    await shot(page, testInfo, 'password-landed');
  });

  test('subscriptionId leads to that subscription', async ({ page }, testInfo) => {
    const locale = localeOf(testInfo);
    const target = subscriptionOf(TENANT, EMAIL, 1);
    await page.goto(`/t/${TENANT}/login?lang=${langOf(locale)}&subscriptionId=${target.id}`);
    await signInWithPassword(page, locale, EMAIL);
    await expectOnPage(page, TENANT, `/subscriptions/${target.id}`);
  });

  test('a login link asked for with subscriptionId leads there too', async ({ page }, testInfo) => {
    const locale = localeOf(testInfo);
    const target = subscriptionOf(TENANT, EMAIL, 2);
    await page.goto(`/t/${TENANT}/login?lang=${langOf(locale)}&subscriptionId=${target.id}`);
    const link = await requestLoginLink(page, TENANT, locale, EMAIL);
    expect(new URL(link).searchParams.get('returnTo')).toBe(`/subscriptions/${target.id}`);
    await page.goto(link);
    await expectOnPage(page, TENANT, `/subscriptions/${target.id}`);
  });
});
