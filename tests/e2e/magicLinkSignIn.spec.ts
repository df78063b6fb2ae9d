import { expect, test, type Page } from '@playwright/test';
import { signInByMagicLink, subscriptionsOfSession } from './support';

/** Every subscription card on the orders page names one of the user's own subscriptions (the filter may hide some). */
async function expectOnlyOwnSubscriptionCards(page: Page, own: Array<{ displayName: string }>) {
  const titles = page.locator('.subscription-card h3');
  await expect(titles.first()).toBeVisible();
  const names = new Set(own.map((subscription) => subscription.displayName));
  for (const title of await titles.allTextContents()) expect(names.has(title.trim())).toBe(true);
}

const GERMAN = {
  emailLabel: 'E-Mail-Adresse',
  sendLink: 'Anmeldelink senden',
  linkSent: /Bitte prüfen Sie Ihr Postfach/,
};
const ENGLISH = {
  emailLabel: 'E-mail address',
  sendLink: 'Send login link',
  linkSent: /Please check your inbox/,
};

// The same address has an account in both tenants, with different subscriptions (demo data).
const SHARED_EMAIL = 'demo@portal.example';

test.describe('magic-link sign-in shows the subscriber their own subscriptions', () => {
  test('stadtkurier (German only, by default), and still German with ?lang=en', async ({ page }) => {
    await signInByMagicLink(page, 'stadtkurier', SHARED_EMAIL, GERMAN);
    await expect(page.getByRole('heading', { level: 1, name: 'Meine Bestellungen' })).toBeVisible();
    const subscriptions = await subscriptionsOfSession(page, 'stadtkurier');
    expect(subscriptions.length).toBeGreaterThan(0);
    await expectOnlyOwnSubscriptionCards(page, subscriptions);

    // stadtkurier offers only German: no language button, and ?lang=en cannot mix English screens
    // into its German texts (docs/operators.md "Languages: one at a time").
    await expect(page.getByRole('button', { name: 'Switch to English' })).toHaveCount(0);
    await page.goto('/t/stadtkurier/orders?lang=en');
    await expect(page.getByRole('heading', { level: 1, name: 'Meine Bestellungen' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
  });

  test('northern-review (English by default), then German with the flag button, with other data than stadtkurier', async ({
    page,
  }) => {
    await signInByMagicLink(page, 'northern-review', SHARED_EMAIL, ENGLISH);
    await expect(page.getByRole('heading', { level: 1, name: 'My orders' })).toBeVisible();
    const review = await subscriptionsOfSession(page, 'northern-review');
    expect(review.length).toBeGreaterThan(0);
    await expectOnlyOwnSubscriptionCards(page, review);

    await page.getByRole('button', { name: 'Auf Deutsch wechseln' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Meine Bestellungen' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
    await page.goto('/t/northern-review/orders?lang=en');
    await expect(page.getByRole('heading', { level: 1, name: 'My orders' })).toBeVisible();

    // Same e-mail, other tenant: none of stadtkurier's subscriptions appear here.
    const reviewIds = new Set(review.map((s) => s.id));
    const page2 = await page.context().newPage();
    await signInByMagicLink(page2, 'stadtkurier', SHARED_EMAIL, GERMAN);
    const kurier = await subscriptionsOfSession(page2, 'stadtkurier');
    expect(kurier.some((s) => reviewIds.has(s.id))).toBe(false);
  });

  test('a session of one tenant is worthless on another', async ({ page }) => {
    await signInByMagicLink(page, 'stadtkurier', SHARED_EMAIL, GERMAN);
    const status = await page.evaluate(async () => {
      const auth = JSON.parse(sessionStorage.getItem('portal.authState.stadtkurier') ?? '{}');
      const response = await fetch('/t/northern-review/api/subscriptions', {
        headers: { 'x-auth-token': auth.accessToken },
      });
      return response.status;
    });
    expect(status).toBe(401);
  });

  test('an expired or reused link is refused with a clear message', async ({ page }) => {
    await page.goto('/t/stadtkurier/login?p=not-a-real-token-at-all-000000');
    await expect(page.getByText('Dieser Link ist ungültig oder abgelaufen.', { exact: false })).toBeVisible();
  });
});

test.describe('shell', () => {
  test('an unknown path says Page not found, in the tenant language', async ({ page }) => {
    await page.goto('/t/northern-review/no-such-page');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await page.goto('/t/stadtkurier/no-such-page');
    await expect(page.getByRole('heading', { name: 'Seite nicht gefunden' })).toBeVisible();
  });

  test('an unknown /api path is a JSON 404', async ({ request }) => {
    const response = await request.get('/t/stadtkurier/api/nothing-here');
    expect(response.status()).toBe(404);
    expect(await response.json()).toEqual({
      error: { code: 'not_found', message: expect.stringContaining('/api/nothing-here') },
    });
  });

  test('the header logo links to the tenant target and the footer is hidden when embedded', async ({
    page,
  }) => {
    await page.goto('/t/northern-review/login');
    await expect(page.locator('footer')).toHaveCount(0);
    await page.goto('/t/stadtkurier/login');
    await expect(page.locator('footer')).toBeVisible();
  });
});
