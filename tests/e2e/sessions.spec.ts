import { expect, test, type Page } from '@playwright/test';
import { signInByMagicLink, screenHeading } from './support';

/**
 * One session per tenant (docs/architecture.md "Sessions"): a tenant's session never reaches
 * another tenant on the same origin, survives a reload whatever the sign-in, follows a portal link
 * into a new tab and ends in every tab at log-out.
 */
const GERMAN = {
  emailLabel: 'E-Mail-Adresse',
  sendLink: 'Anmeldelink senden',
  linkSent: /Bitte prüfen Sie Ihr Postfach/,
};
// README "Demo tenants"; not james.whitfield, whose password signIn.spec.ts resets.
const DEMO_PASSWORD = 'Lesen2026';

async function signInWithPassword(page: Page, email: string) {
  await page.goto('/t/northern-review/login');
  const form = page.getByRole('form', { name: 'Log in with your password' });
  await form.getByLabel('E-mail address').fill(email);
  await form.getByLabel('Password').fill(DEMO_PASSWORD);
  await form.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/t\/northern-review\/orders$/);
  await expect(page.locator('.subscription-card').first()).toBeVisible();
}

test("signed in to technikwelt, stadtkurier's public FAQ in the same tab is not told the session expired", async ({
  page,
}) => {
  await signInByMagicLink(page, 'technikwelt', 'anna.schmidt@technikwelt.example', GERMAN);
  await expect(page.locator('.subscription-card').first()).toBeVisible();

  const kurierCalls: Array<{ url: string; token: string | undefined }> = [];
  page.on('request', (request) => {
    if (request.url().includes('/t/stadtkurier/api/'))
      kurierCalls.push({ url: request.url(), token: request.headers()['x-auth-token'] });
  });
  const refused: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 401) refused.push(response.url());
  });
  await page.goto('/t/stadtkurier/faq');
  await expect(screenHeading(page)).toBeVisible();
  await expect(page.locator('details, .faq-entry').first()).toBeVisible();
  await expect(page.getByText('Ihre Sitzung ist abgelaufen', { exact: false })).toHaveCount(0);
  expect(kurierCalls.length).toBeGreaterThan(0);
  expect(kurierCalls.filter((call) => call.token)).toEqual([]);
  expect(refused).toEqual([]);

  // And technikwelt's session is still there when the subscriber comes back.
  await page.goto('/t/technikwelt/orders');
  await expect(page).toHaveURL(/\/t\/technikwelt\/orders$/);
  await expect(page.locator('.subscription-card').first()).toBeVisible();
});

test('a password sign-in survives a reload', async ({ page }) => {
  await signInWithPassword(page, 'olivia.turner@northern-review.example');
  await page.reload();
  await expect(page).toHaveURL(/\/t\/northern-review\/orders$/);
  await expect(page.locator('.subscription-card').first()).toBeVisible();
});

test('a portal link opened in a new tab is signed in', async ({ page, context }) => {
  await signInWithPassword(page, 'demo@portal.example');
  const manage = page.locator('.subscription-card a[href*="/subscriptions/"]').first();
  const href = await manage.getAttribute('href');
  expect(href).toMatch(/\/t\/northern-review\/subscriptions\/[^/]+$/);

  // As a middle-click does: a fresh tab of the same browser with nothing in its session storage.
  const second = await context.newPage();
  await second.goto(href!);
  await expect(second).toHaveURL(new RegExp(`${href!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  await expect(second.getByRole('form', { name: 'Log in with your password' })).toHaveCount(0);
  await expect(screenHeading(second)).toBeVisible();
  await second.goto('/t/northern-review/orders');
  await expect(second.locator('.subscription-card').first()).toBeVisible();
});

test('log-out in one tab ends the session in the other tab', async ({ page, context }) => {
  await signInWithPassword(page, 'priya.patel@northern-review.example');
  const second = await context.newPage();
  await second.goto('/t/northern-review/orders');
  await expect(second.locator('.subscription-card').first()).toBeVisible();

  await page.getByText('Account', { exact: true }).click();
  await page.getByRole('button', { name: 'Log out' }).click();
  // Embedded: the tab stays on its page, which says how to log in (portal-core.md §2).
  await expect(page.getByRole('heading', { level: 1, name: 'Please log in' })).toBeVisible();

  // The other tab's next navigation finds no session (northern-review is embedded: the page says how
  // to log in, portal-core.md §2), and a reload does not bring the session back.
  const loggedOut = (tab: typeof page) =>
    expect(tab.getByRole('heading', { level: 1, name: 'Please log in' })).toBeVisible();
  await second.goto('/t/northern-review/orders');
  await loggedOut(second);
  await second.reload();
  await loggedOut(second);
  const third = await context.newPage();
  await third.goto('/t/northern-review/orders');
  await loggedOut(third);
});

test('in /preview, signing in inside one frame leaves the other frames as they were', async ({ page }) => {
  await page.goto('/preview?tenants=stadtkurier,northern-review&route=/faq');
  const review = page.frame({ url: /\/t\/northern-review\// })!;
  const kurier = page.frame({ url: /\/t\/stadtkurier\// })!;
  await expect(kurier.locator('h1')).toBeVisible();
  const origin = new URL(page.url()).origin;
  await review.goto(`${origin}/t/northern-review/login`);
  const form = review.getByRole('form', { name: 'Log in with your password' });
  await form.getByLabel('E-mail address').fill('olivia.turner@northern-review.example');
  await form.getByLabel('Password').fill(DEMO_PASSWORD);
  await form.getByRole('button', { name: 'Log in' }).click();
  await expect(review.locator('.subscription-card').first()).toBeVisible();

  await kurier.goto(`${origin}/t/stadtkurier/faq`);
  await expect(kurier.locator('h1')).toBeVisible();
  await expect(kurier.getByText('Ihre Sitzung ist abgelaufen', { exact: false })).toHaveCount(0);
  await review.goto(`${origin}/t/northern-review/orders`);
  await expect(review.locator('.subscription-card').first()).toBeVisible();
});
