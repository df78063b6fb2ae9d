/**
 * A "logged in only" session (portal-core.md §4; docs/subscribers.md "Subscribers"): the renewal
 * screen's anonymous login by order number and last name mails a sign-in link; the session it opens
 * speaks for that one subscription. Its screens make only the calls the session may make
 * (engine/domain/sessionScope.ts): /orders shows the subscription without the red "single purchases
 * could not be loaded", offers no "add a subscription", the subscription page no button to a screen
 * of the account, and the account's own screens a notice instead of a refusal. No call any screen
 * makes is answered with a 4xx, before and after a reload.
 *
 * technikwelt in English at 1280 px (desktop) and in German at 360 px (phone); each project signs in
 * for one of Anna Schmidt's subscriptions (she has purchase and pending orders, which a full session
 * would list) and only looks, so the runs do not depend on each other.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { buildDemoData } from '../../server/seed/demoData';
import { linkIn, screenTexts, waitForMail, screenHeading } from './support';

type Locale = 'de-DE' | 'en-GB';
const TEXT_FILES = [
  'core/texts.json',
  'account/texts.json',
  'features/orders/texts.json',
  'features/subscription/texts.json',
  'features/renewal/texts.json',
];
/** The screens' own texts, so a journey reads what the subscriber reads. */
const texts = screenTexts(TEXT_FILES);

const TENANT = 'technikwelt';
/** The partner sign-in mail (server/mail/authMails.ts partnerSignIn), in either language. */
const PARTNER_SIGN_IN_SUBJECT = /Anmeldung zu Ihrem Abonnement bei|Log in to your subscription at /;

/** Anna Schmidt's own subscriptions the orders page lists with a "Manage" button: active, not a bundle component. */
function target(testInfo: TestInfo) {
  const data = buildDemoData(JSON.parse(readFileSync(`tenants/${TENANT}.json`, 'utf8')), new Date());
  const email = data.logins[0].email;
  const candidates = data.subscriptions.flatMap((s) => {
    const ag = data.subscriptionRoles.find((role) => role.subscription_id === s.id && role.role === 'AG');
    const partner = data.businessPartners.find((bp) => bp.bp_number === ag?.bp_number);
    const fits =
      partner?.email_address === email &&
      s.order_status === 'A' &&
      s.details.renewal?.renewalBundleComponent !== 'S';
    return fits
      ? [{ id: s.id, orderNumber: s.order_number, lastName: partner.last_name1!, email, details: s.details }]
      : [];
  });
  expect(candidates.length).toBeGreaterThanOrEqual(2);
  return candidates[testInfo.project.name === 'phone' ? 1 : 0];
}

/** Every answer of the tenant's API with a 4xx or 5xx status, from now on. */
function watchRefusals(page: Page): string[] {
  const refused: string[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith(`/t/${TENANT}/api/`) && response.status() >= 400) {
      refused.push(`${response.status()} ${response.request().method()} ${url.pathname}${url.search}`);
    }
  });
  return refused;
}

/** What the orders page of the partial session shows: its one subscription, no error, no refused control. */
async function expectPartialOrdersPage(page: Page, locale: Locale, title: string) {
  const t = texts(locale);
  await expect(page.getByRole('heading', { level: 1, name: t('orders.heading') })).toBeVisible();
  const cards = page.locator('.subscription-card');
  await expect(cards).toHaveCount(1);
  await expect(cards.getByRole('heading', { name: title })).toBeVisible();
  await expect(page.getByText(t('shell.partialSessionHint'))).toBeVisible();
  await expect(page.getByText(t('orders.purchaseOrdersError'))).toHaveCount(0);
  await expect(page.getByText(t('orders.loadingError'))).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('link', { name: t('orders.linkSubscription') })).toHaveCount(0);
  await expect(page.locator('a[href$="/link-subscription"]')).toHaveCount(0);
  // §4 "no sidebar".
  await expect(page.getByRole('navigation', { name: t('shell.menuTitle') })).toHaveCount(0);
}

test('a session from the renewal login by order number shows its subscription on /orders without an error or a refused control, and no call is refused', async ({
  page,
}, testInfo) => {
  const locale: Locale = testInfo.project.name === 'phone' ? 'de-DE' : 'en-GB';
  const t = texts(locale);
  const sub = target(testInfo);
  const title = (sub.details.translations?.[locale]?.displayName ?? sub.details.displayName)!;
  const shot = (name: string) =>
    page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });

  await page.goto(`/t/${TENANT}/renewal?lang=${locale === 'de-DE' ? 'de' : 'en'}`);
  await page.getByLabel(t('account.entry.orderNumber')).fill(sub.orderNumber);
  await page.getByLabel(t('account.entry.lastName')).fill(sub.lastName);
  // Not a second earlier: mails leave through a queue, so an earlier journey's mail may be written just before.
  const since = new Date().toISOString();
  await page.getByRole('button', { name: t('account.entry.submit') }).click();
  const mail = await waitForMail(page.request, TENANT, sub.email, since, PARTNER_SIGN_IN_SUBJECT);

  // From the link on, every call a screen makes must be answered without a refusal.
  const refused = watchRefusals(page);
  const purchaseOrderCalls: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/(purchase-orders|pending-orders|publications|business-partners|e-cards)/.test(request.url()))
      purchaseOrderCalls.push(request.url());
  });
  await page.goto(linkIn(mail.text));
  await expect(page).toHaveURL(
    new RegExp(`/t/${TENANT}/subscriptions/${sub.id}/renewal\\?returnTo=renewal$`),
  );
  await expect(screenHeading(page)).toBeVisible();

  await page.goto(`/t/${TENANT}/orders`);
  await expectPartialOrdersPage(page, locale, title);
  await shot('orders');
  // The session and its scope survive a reload (session storage, engine/core/tenantSession.ts).
  await page.reload();
  await expectPartialOrdersPage(page, locale, title);
  await shot('orders-reloaded');

  // The subscription page: its own calls only, and no button to a screen of the account.
  await page.getByRole('link', { name: t('account.manageNamed', { title }) }).click();
  await expect(page).toHaveURL(new RegExp(`/t/${TENANT}/subscriptions/${sub.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole('heading', { name: t('subscription.actionsHeading') })).toBeVisible();
  await expect(
    page.locator('a[href*="/e-card"], a[href$="/link-subscription"], a[href$="/business-partners"]'),
  ).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await shot('subscription');

  // The account's screens, typed in: a notice that leads back to the subscription, no refused call.
  for (const path of ['link-subscription', 'business-partners', 'e-card']) {
    await page.goto(`/t/${TENANT}/${path}`);
    await expect(page.getByRole('heading', { level: 1, name: t('shell.partialSessionTitle') })).toBeVisible();
  }
  await shot('account-screen-notice');
  await page.getByRole('link', { name: t('shell.partialSessionToSubscription') }).click();
  await expect(page).toHaveURL(new RegExp(`/t/${TENANT}/subscriptions/${sub.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();

  expect(purchaseOrderCalls).toEqual([]);
  expect(refused).toEqual([]);
});
