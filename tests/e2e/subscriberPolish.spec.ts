/**
 * The polish a paying subscriber sees (docs/architecture.md "Quality bars the design must make
 * easy") — nothing overflows at 360 px, the tab title names the page in the user's language, the
 * menu marks where one is, a way to sign in for anonymous visitors, a textarea that is a box on the
 * pill-shaped Nordic theme, UK addresses in UK order and one clear primary action on the
 * subscription page. Both projects (1280 and 360 px) run every journey; the assertions hold at
 * either width.
 */
import { expect, test, type Page } from '@playwright/test';
import { screenTexts, signInByMagicLink } from './support';

const TEXT_FILES = [
  'core/texts.json',
  'account/texts.json',
  'features/orders/texts.json',
  'features/subscription/texts.json',
  'features/faq/texts.json',
  'features/contact/texts.json',
  'features/cancellation/texts.json',
];
/** The screens' own texts, so a journey reads what the subscriber reads. */
const texts = screenTexts(TEXT_FILES);

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
const DEMO = 'demo@portal.example';

async function expectNoHorizontalOverflow(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, 'page wider than the viewport').toBeLessThanOrEqual(clientWidth);
}

async function openFirstSubscription(page: Page) {
  await page
    .locator('section[aria-labelledby="subscriptions-title"] .subscription-card a.button')
    .first()
    .click();
  await expect(page).toHaveURL(/\/subscriptions\/[^/]+$/);
  await expect(page.locator('#subscription-title')).toBeVisible();
}

test('an anonymous visitor finds a sign-in link in the header, and none on the login page itself', async ({
  page,
}) => {
  const t = texts('de-DE');
  await page.goto('/t/stadtkurier/faq');
  const signIn = page.getByRole('banner').getByRole('link', { name: t('shell.signIn'), exact: true });
  await expect(signIn).toBeVisible();
  await signIn.click();
  await expect(page).toHaveURL(/\/t\/stadtkurier\/login/);
  await expect(
    page.getByRole('banner').getByRole('link', { name: t('shell.signIn'), exact: true }),
  ).toHaveCount(0);
});

test('the tab title names the page, then the portal, in the language of the screen', async ({ page }) => {
  await page.goto('/t/gartenfreunde/faq?lang=en');
  await expect(page).toHaveTitle(`${texts('en-GB')('faq.title')} – Gartenfreunde`);
  await page.goto('/t/gartenfreunde/contact?lang=de');
  await expect(page).toHaveTitle(`${texts('de-DE')('contact.heading')} – Gartenfreunde`);
});

test('the contact message box is a box, not a pill, on the Nordic theme, and the page fits the screen', async ({
  page,
}) => {
  const t = texts('de-DE');
  await page.goto('/t/gartenfreunde/contact?lang=de');
  await expect(page.getByRole('heading', { level: 1, name: t('contact.heading') })).toBeVisible();
  // The message field appears once a topic is chosen.
  await page.locator('select').first().selectOption({ index: 1 });
  const message = page.getByLabel(t('contact.message'));
  await expect(message).toBeVisible();
  const radius = await message.evaluate((element) =>
    parseFloat(getComputedStyle(element).borderTopLeftRadius),
  );
  expect(radius).toBeLessThanOrEqual(20);
  await expectNoHorizontalOverflow(page);
});

test('orders and a subscription fit the screen, the menu marks the orders item on the detail page, and one action is primary', async ({
  page,
}) => {
  const t = texts('de-DE');
  // A persona few journeys sign in as: the suite's sign-ins per address are limited.
  await signInByMagicLink(page, 'stadtkurier', 'max.mueller@stadtkurier.example', GERMAN_LOGIN);
  await page.goto('/t/stadtkurier/orders');
  await expect(page.getByRole('heading', { level: 1, name: t('orders.heading') })).toBeVisible();
  await expect(page).toHaveTitle(`${t('orders.heading')} – Stadtkurier`);
  await expectNoHorizontalOverflow(page);
  // An order number keeps one line ("48164841 / 28" once broke at 360 px).
  const orderNumber = page.locator('.subscription-card .facts dd').first();
  const lineHeight = await orderNumber.evaluate((element) =>
    parseFloat(getComputedStyle(element).lineHeight),
  );
  expect((await orderNumber.boundingBox())!.height).toBeLessThan(lineHeight * 1.5);

  await openFirstSubscription(page);
  const title = (await page.locator('#subscription-title').textContent())!.trim();
  await expect(page).toHaveTitle(`${title} – Stadtkurier`);
  await expectNoHorizontalOverflow(page);
  const menu = page.getByRole('navigation', { name: t('shell.menuTitle') });
  await expect(menu.locator('a[aria-current="page"]')).toHaveText(t('orders.menuTitle'));

  const actions = page.locator('section.action-buttons');
  await expect(actions.locator('.button:not(.button-secondary)')).toHaveCount(1);
  await expect(actions.getByRole('link', { name: t('cancellation.action'), exact: true })).toBeVisible();
});

test('a UK subscription shows its address in UK order and the English page fits the screen', async ({
  page,
}) => {
  const t = texts('en-GB');
  await signInByMagicLink(page, 'northern-review', DEMO, ENGLISH_LOGIN);
  await page.goto('/t/northern-review/orders?lang=en');
  await expectNoHorizontalOverflow(page);
  await openFirstSubscription(page);
  await expectNoHorizontalOverflow(page);
  const deliveredTo = page
    .locator('.details-block .fact', { hasText: t('subscription.goodsRecipient') })
    .locator('dd');
  // "27 Castle Street, Edinburgh, EH2 3DN": the postcode last, not "EH2 3DN Edinburgh" (an earlier
  // journey may have changed the street to an address line, which this block does not show).
  await expect(deliveredTo).toHaveText(/, [^,\d]+, [A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/);
});
