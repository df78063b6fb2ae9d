import { createServer, type Server } from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { linkIn, waitForMail } from './support';

const DEMO_PASSWORD = 'Lesen2026';

async function openPasswordForm(page: Page, tenant: string, lang?: 'de' | 'en') {
  await page.goto(`/t/${tenant}/login${lang ? `?lang=${lang}` : ''}`);
}

test.describe('password sign-in', () => {
  test('refuses a wrong password with a clear message, then signs in (English)', async ({ page }) => {
    await openPasswordForm(page, 'northern-review');
    const form = page.getByRole('form', { name: 'Log in with your password' });
    await form.getByLabel('E-mail address').fill('olivia.turner@northern-review.example');
    await form.getByLabel('Password').fill('NotMyPassword1');
    await form.getByRole('button', { name: 'Log in' }).click();
    await expect(form.getByText('The e-mail address or the password is wrong.')).toBeVisible();
    await form.getByLabel('Password').fill(DEMO_PASSWORD);
    await form.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/t\/northern-review\/orders$/);
    await expect(page.getByRole('heading', { level: 1, name: 'My orders' })).toBeVisible();
  });

  test('checks the fields before sending, in German', async ({ page }) => {
    await openPasswordForm(page, 'northern-review', 'de');
    const form = page.getByRole('form', { name: 'Anmelden mit Passwort' });
    await form.getByRole('button', { name: 'Anmelden' }).click();
    await expect(form.getByText('Bitte geben Sie Ihre E-Mail-Adresse ein.')).toBeVisible();
    await expect(form.getByText('Bitte geben Sie Ihr Passwort ein.')).toBeVisible();
    await form.getByLabel('E-Mail-Adresse').fill('priya.patel@northern-review.example');
    await form.getByLabel('Passwort').fill(DEMO_PASSWORD);
    await form.getByRole('button', { name: 'Anmelden' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Meine Bestellungen' })).toBeVisible();
  });

  test('creates an account through the confirmation e-mail', async ({ page }) => {
    const email = `reader-${Date.now()}-${test.info().project.name}@northern-review.example`;
    await openPasswordForm(page, 'northern-review');
    await page.getByRole('button', { name: 'Create an account' }).click();
    const form = page.getByRole('form', { name: 'Create an account' });
    await form.getByLabel('Display name').fill('New Reader');
    await form.getByLabel('E-mail address').fill(email);
    await form.getByRole('textbox', { name: 'Password', exact: true }).fill('short');
    await form.getByLabel('Repeat the password').fill('short');
    await form.getByRole('button', { name: 'Create account' }).click();
    await expect(
      form.getByText('The password needs 8 to 20 characters', { exact: false }).first(),
    ).toBeVisible();
    await form.getByRole('textbox', { name: 'Password', exact: true }).fill('Reader2026');
    await form.getByLabel('Repeat the password').fill('Reader2026');
    // Not a second earlier: mails leave through a queue, so an earlier journey's mail may be written just before.
    const since = new Date().toISOString();
    await form.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('We have sent a confirmation link to')).toBeVisible();
    const mail = await waitForMail(page.request, 'northern-review', email, since);
    expect(mail.text).toContain('The link asks for the password you chose when you registered');
    await page.goto(linkIn(mail.text));
    // The link asks for the password chosen: a wrong one keeps the form, the right one signs in.
    const confirm = page.getByRole('form', { name: 'Confirm your account' });
    await confirm.getByLabel('Password').fill('Reader2025');
    await confirm.getByRole('button', { name: 'Confirm account' }).click();
    await expect(confirm.getByText('This is not the password you chose when you registered.')).toBeVisible();
    await confirm.getByLabel('Password').fill('Reader2026');
    await confirm.getByRole('button', { name: 'Confirm account' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'My orders' })).toBeVisible();
    await expect(page.getByText('There are no subscriptions or orders on your account yet.')).toBeVisible();
  });

  test('resets a forgotten password by e-mail link', async ({ page }) => {
    const email = 'james.whitfield@northern-review.example';
    const newPassword = `Neu${Date.now() % 100000}x${test.info().project.name.length}`;
    await openPasswordForm(page, 'northern-review');
    await page.getByRole('button', { name: 'Forgotten your password?' }).click();
    const dialog = page.getByRole('dialog', { name: 'Forgotten password' });
    await dialog.getByLabel('E-mail address').fill(`  ${email} `);
    // Not a second earlier: mails leave through a queue, so an earlier journey's mail may be written just before.
    const since = new Date().toISOString();
    await dialog.getByRole('button', { name: 'Send link' }).click();
    await expect(dialog.getByText('we have sent a reset link there')).toBeVisible();
    const mail = await waitForMail(page.request, 'northern-review', email, since);
    await page.goto(linkIn(mail.text));
    const form = page.getByRole('form', { name: 'Set a new password' });
    await form.getByLabel('New password').fill(newPassword);
    await form.getByLabel('Repeat the password').fill(newPassword);
    await form.getByRole('button', { name: 'Save password' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'My orders' })).toBeVisible();
  });
});

test('signs in through the OpenID provider (OAuth tenant)', async ({ page }) => {
  await page.goto('/t/technikwelt/login');
  await page.getByRole('link', { name: 'Mit Single Sign-on anmelden' }).click();
  await expect(page).toHaveURL(/127\.0\.0\.1:4455\/interaction\//);
  await page.locator('input[name=login]').fill('max.mueller@technikwelt.example');
  await page.locator('input[name=password]').fill('anything');
  await page.locator('button[type=submit]').click();
  // The provider asks to confirm the scopes once.
  if (page.url().includes(':4455/interaction/')) await page.locator('button[type=submit]').click();
  await expect(page).toHaveURL(/\/t\/technikwelt\/orders$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Meine Bestellungen' })).toBeVisible();
  await expect(page.locator('.subscription-card')).not.toHaveCount(0);
});

test('tells the visitor when too many login links were asked for', async ({ page }) => {
  const email = `flood-${Date.now()}-${test.info().project.name}@stadtkurier.example`;
  await page.goto('/t/stadtkurier/login');
  // Spend the end-to-end server's requests per address (PORTAL_SIGNIN_LIMIT_PER_ADDRESS in
  // playwright.config.ts): every one is accepted until the limit, then refused with 429.
  const statuses = await page.evaluate(async (address) => {
    const xsrf = document.cookie
      .split('; ')
      .find((c) => c.startsWith('XSRF-TOKEN='))!
      .slice('XSRF-TOKEN='.length);
    const results: number[] = [];
    for (let i = 0; i < 500 && results.at(-1) !== 429; i++) {
      const response = await fetch('/t/stadtkurier/api/login/magic-link', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-xsrf-token': xsrf },
        body: JSON.stringify({ email: address }),
      });
      results.push(response.status);
    }
    return results;
  }, email);
  expect(statuses.at(-1)).toBe(429);
  expect(statuses.slice(0, -1).every((status) => status === 202)).toBe(true);
  const form = page.locator('form', { has: page.getByRole('button', { name: 'Anmeldelink senden' }) });
  await form.getByLabel('E-Mail-Adresse').fill(email);
  await form.getByRole('button', { name: 'Anmeldelink senden' }).click();
  // The 429 points to the links already sent, then says when to try again, in the screen's
  // language (docs/architecture.md "Sign-in safety").
  await expect(
    form.getByText(
      /^Es wurden gerade viele Anmeldelinks angefordert\. Ein Link aus den letzten 15 Minuten, den Sie noch nicht benutzt haben, funktioniert: Sehen Sie in Ihrem Postfach nach\. Bitte versuchen Sie es in \d+ Minuten? erneut\.$/,
    ),
  ).toBeVisible();
});

test.describe('embedded in a publisher page', () => {
  // northern-review allows http://localhost:4400 as its parent (tenants/northern-review.json).
  let host: Server;
  test.beforeAll(async () => {
    host = createServer((_req, res) => {
      const port = process.env.E2E_PORT ?? '4321';
      res.setHeader('content-type', 'text/html');
      res.end(`<!doctype html><html><body><h1>The Northern Review — members</h1>
<script>window.portalMessages = []; addEventListener('message', (e) => window.portalMessages.push({ origin: e.origin, data: e.data }));</script>
<iframe id="portal" title="portal" src="http://localhost:${port}/t/northern-review/login" style="width:100%;height:700px"></iframe></body></html>`);
    });
    await new Promise<void>((resolve) => host.listen(4400, '127.0.0.1', () => resolve()));
  });
  test.afterAll(async () => new Promise<void>((resolve) => host.close(() => resolve())));

  test('a session timeout posts sessionTimedOut to the embedding page and shows the notice in the frame', async ({
    page,
    request,
  }) => {
    await page.goto('http://localhost:4400/');
    const frame = page.frameLocator('#portal');
    const email = 'priya.patel@northern-review.example';
    const form = frame.locator('form', { has: frame.getByRole('button', { name: 'Send login link' }) });
    // Not a second earlier: mails leave through a queue, so an earlier journey's mail may be written just before.
    const since = new Date().toISOString();
    await form.getByLabel('E-mail address').fill(email);
    await form.getByRole('button', { name: 'Send login link' }).click();
    await expect(frame.getByText('Please check your inbox')).toBeVisible();
    const mail = await waitForMail(request, 'northern-review', email, since);
    const portal = page.frame({ url: /\/t\/northern-review\// })!;
    await portal.goto(linkIn(mail.text).replace('127.0.0.1', 'localhost'));
    await expect(frame.getByRole('heading', { level: 1, name: 'My orders' })).toBeVisible();
    await expect(frame.locator('.subscription-card').first()).toBeVisible();

    // The server ends the session (as the idle timeout does); the next call answers 401.
    expect(
      await portal.evaluate(async () => {
        const auth = JSON.parse(sessionStorage.getItem('portal.authState.northern-review') ?? '{}');
        const xsrf = document.cookie
          .split('; ')
          .find((c) => c.startsWith('XSRF-TOKEN='))!
          .slice('XSRF-TOKEN='.length);
        return (
          await fetch('/t/northern-review/api/logout', {
            method: 'POST',
            headers: { 'x-auth-token': auth.accessToken, 'x-xsrf-token': xsrf },
          })
        ).status;
      }),
    ).toBe(204);
    await portal.goto(portal.url());
    await expect(
      frame.getByText('Your session has expired. Please reload the page or log in again.'),
    ).toBeVisible();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { portalMessages: unknown[] }).portalMessages))
      .toContainEqual({
        origin: `http://localhost:${process.env.E2E_PORT ?? '4321'}`,
        data: 'sessionTimedOut',
      });
    // Told once, though every call the page had in flight answered 401.
    await page.waitForTimeout(1000);
    const told = await page.evaluate(
      () =>
        (window as unknown as { portalMessages: { data: unknown }[] }).portalMessages.filter(
          (message) => message.data === 'sessionTimedOut',
        ).length,
    );
    expect(told).toBe(1);
  });
});

test('kicker-auth: the kickeruser cookie signs the visitor in again in a new tab, until log-out', async ({
  page,
  context,
}) => {
  await page.goto('/t/gartenfreunde/login');
  const form = page.getByRole('form', { name: 'Log in with your account' });
  await form.getByLabel('E-mail address').fill('olivia.turner@gartenfreunde.example');
  await form.getByLabel('Password').fill(DEMO_PASSWORD);
  await form.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'My orders' })).toBeVisible();
  expect((await context.cookies()).find((cookie) => cookie.name === 'kickeruser')?.value).toMatch(
    /^ssoid%3D/,
  );

  // With the first tab closed no tab of the tenant can hand the session over
  // (docs/architecture.md "Sessions"); the SSO cookie brings the visitor back in.
  await page.close();
  const second = await context.newPage();
  await second.goto('/t/gartenfreunde/orders');
  await expect(second.getByRole('heading', { level: 1, name: 'My orders' })).toBeVisible();

  await second.getByText('Account', { exact: true }).click();
  await second.getByRole('button', { name: 'Log out' }).click();
  await expect(second).toHaveURL(/\/t\/gartenfreunde\/login$/);
  expect((await context.cookies()).find((cookie) => cookie.name === 'kickeruser')).toBeUndefined();
  const third = await context.newPage();
  await third.goto('/t/gartenfreunde/orders');
  await expect(third).toHaveURL(/\/t\/gartenfreunde\/login$/);
  await expect(third.getByRole('form', { name: 'Log in with your account' })).toBeVisible();
});
