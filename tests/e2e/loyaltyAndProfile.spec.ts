/**
 * The SSO profile page and the loyalty programme (account-flows.md §2 "SSO profile", "Loyalty
 * programme", §4 "Reward claim", "SSO delete", "Loyalty opt-out"; portal-core.md §1 host-frame
 * events), in German (technikwelt) and British English (northern-review, embedded in a publisher
 * page on its allowed parent origin http://localhost:4400), on desktop and phone.
 *
 * Each journey signs in with an account only it uses, one per browser project
 * (server/seed/entities/loyalty.ts JOURNEY_ACCOUNTS), so changing the address, deleting the account
 * or leaving the club never touches the demo logins other journeys rely on.
 */
import { createServer, type Server } from 'node:http';
import { expect, test, type Frame, type FrameLocator, type Page } from '@playwright/test';
import { linkIn, MAGIC_LINK_SUBJECT, openPhoneMenu, signInByMagicLink, waitForMail } from './support';

const GERMAN_LOGIN = {
  emailLabel: 'E-Mail-Adresse',
  sendLink: 'Anmeldelink senden',
  linkSent: /Bitte prüfen Sie Ihr Postfach/,
};
const port = process.env.E2E_PORT ?? '4321';
const account = (journey: string, project: string) => `${journey}-${project}@portal.example`;

async function noHorizontalOverflow(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, 'page wider than the viewport').toBeLessThanOrEqual(clientWidth);
}

test('SSO profile: a new e-mail address counts once the link mailed to it is opened (German)', async ({
  page,
  isMobile,
}, testInfo) => {
  const email = account('profile', testInfo.project.name);
  const newEmail = `neu-${email}`;
  await signInByMagicLink(page, 'technikwelt', email, GERMAN_LOGIN);
  // The menu item (portal-core.md §2 "account details"); on phones the sidebar opens behind its
  // toggle first, which may draw after the page (isVisible does not wait).
  if (isMobile) await openPhoneMenu(page);
  await page.locator('#sidebar-items').getByRole('link', { name: 'Kontodaten' }).click();
  await expect(page).toHaveURL(/\/t\/technikwelt\/sso-profile$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Kontodaten' })).toBeVisible();
  await expect(page.getByTestId('sso-current-email')).toHaveText(email);

  const form = page.locator('form', { has: page.getByRole('heading', { name: 'E-Mail-Adresse ändern' }) });
  await form.getByLabel('Neue E-Mail-Adresse').fill(email.toUpperCase());
  await form.getByRole('button', { name: 'Bestätigungslink senden' }).click();
  await expect(form.getByText('Das ist bereits Ihre Anmeldeadresse.')).toBeVisible();
  const since = new Date().toISOString();
  await form.getByLabel('Neue E-Mail-Adresse').fill(newEmail);
  await form.getByRole('button', { name: 'Bestätigungslink senden' }).click();
  await expect(
    form.getByText(`Wir haben einen Bestätigungslink an ${newEmail} geschickt.`, { exact: false }),
  ).toBeVisible();
  await expect(page.getByText(`Wartet auf Bestätigung: ${newEmail}`)).toBeVisible();
  await expect(page.getByTestId('sso-current-email')).toHaveText(email);
  await noHorizontalOverflow(page);
  await page.screenshot({ path: testInfo.outputPath('sso-profile.png'), fullPage: true });

  const mail = await waitForMail(page.request, 'technikwelt', newEmail, since, /neue E-Mail-Adresse/);
  await page.goto(linkIn(mail.text));
  await expect(page.getByText(`Ihre E-Mail-Adresse ist jetzt ${newEmail}.`)).toBeVisible();
  await expect(page.getByTestId('sso-current-email')).toHaveText(newEmail);
  await expect(page).toHaveURL(/\/sso-profile(\?lang=de)?$/);
  const notice = await waitForMail(page.request, 'technikwelt', email, since, /Anmeldeadresse .* geändert/);
  expect(notice.text).not.toContain(newEmail);
  // The new address signs in now; the account menu names it, after a reload too (the tab's kept session).
  await page.reload();
  await expect(page.getByTestId('sso-current-email')).toHaveText(newEmail);
  await page.locator('.account-menu summary').click();
  await expect(page.locator('.account-menu .account-email')).toHaveText(newEmail);
});

test('Loyalty: join the club, claim a code and copy it, see it in the history (German)', async ({
  page,
  context,
}, testInfo) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: `http://127.0.0.1:${port}`,
  });
  const email = account('club', testInfo.project.name);
  await signInByMagicLink(page, 'technikwelt', email, GERMAN_LOGIN);
  // The club's pages need the opt-in: a club page leads to the landing first, and joining goes
  // on to the page asked for.
  await page.goto('/t/technikwelt/loyalty-programme/favorites');
  await expect(page).toHaveURL(/\/loyalty-programme\/optin$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Willkommen im Kundenclub' })).toBeVisible();
  await page.getByRole('button', { name: 'Jetzt Mitglied werden' }).click();
  await expect(page).toHaveURL(/\/loyalty-programme\/favorites$/);
  await page.goto('/t/technikwelt/loyalty-programme');
  await expect(page).toHaveURL(/\/loyalty-programme\/rewards$/);
  await expect(page.getByText('Sie sind seit 0 Monaten Abonnent.')).toBeVisible();

  const starter = page.getByTestId('tier-STARTER');
  await expect(starter.locator('.loyalty-reward')).toHaveCount(8);
  await starter.getByRole('button', { name: 'Alle 10 Prämien anzeigen' }).click();
  await expect(starter.locator('.loyalty-reward')).toHaveCount(10);
  // A reward not claimable online says so on its card, without a claim button (§4 "Reward claim").
  const bag = starter.locator('.loyalty-reward', { hasText: 'Stoffbeutel' });
  await expect(bag.getByText('Nicht online einlösbar')).toBeVisible();
  await expect(bag.getByRole('button', { name: /^Einlösen/ })).toHaveCount(0);
  await starter.getByRole('button', { name: 'Weniger anzeigen' }).click();
  await expect(starter.locator('.loyalty-reward')).toHaveCount(8);
  // Two columns on the phone, four on the desktop (§2).
  const columns = await starter
    .locator('.loyalty-grid')
    .evaluate((grid) => getComputedStyle(grid).gridTemplateColumns.split(' ').length);
  expect(columns).toBe(testInfo.project.name === 'phone' ? 2 : 4);
  await expect(page.getByTestId('tier-GOLD').getByText('Noch nicht erreicht').first()).toBeVisible();
  await noHorizontalOverflow(page);
  await page.screenshot({ path: testInfo.outputPath('loyalty-rewards.png'), fullPage: true });

  await starter.getByRole('button', { name: 'Einlösen: E-Book zum Kennenlernen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ihr Gutscheincode' });
  const code = (await dialog.getByTestId('loyalty-code').textContent())!;
  expect(code).toMatch(/^STA-[0-9A-Z]{7}$/);
  await dialog.getByRole('button', { name: 'Code kopieren' }).click();
  await expect(dialog.getByText('Kopiert!')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
  await expect(dialog.getByText('Kopiert!')).toBeHidden({ timeout: 3000 });
  await page.screenshot({ path: testInfo.outputPath('loyalty-code.png') });
  await dialog.getByRole('button', { name: 'Schließen' }).click();
  await expect(
    starter.locator('.loyalty-reward', { hasText: 'E-Book zum Kennenlernen' }).getByText('Eingelöst'),
  ).toBeVisible();

  // The reward page tells why it cannot be claimed again; a reward of an unreached tier is not available.
  await starter.getByRole('link', { name: 'E-Book zum Kennenlernen' }).click();
  await expect(page.getByText('Sie haben diese Prämie bereits eingelöst.')).toBeVisible();
  // With the code it gave, after a reload too.
  await page.reload();
  await expect(page.getByText('Sie haben diese Prämie bereits eingelöst.')).toBeVisible();
  await expect(page.getByTestId('loyalty-code')).toHaveText(code);
  await page.goto('/t/technikwelt/loyalty-programme/rewards/gold-weekend');
  await expect(
    page.getByText('Diese Prämie gehört zu einer Stufe, die Sie noch nicht erreicht haben.'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Als Favorit merken' }).click();
  await page
    .getByRole('navigation', { name: 'Bereiche des Kundenclubs' })
    .getByRole('link', { name: 'Favoriten' })
    .click();
  await expect(page.getByRole('link', { name: 'Wochenendreise' })).toBeVisible();

  await page
    .getByRole('navigation', { name: 'Bereiche des Kundenclubs' })
    .getByRole('link', { name: 'Eingelöste Prämien' })
    .click();
  const row = page.getByRole('row', { name: /E-Book zum Kennenlernen/ });
  await expect(row).toContainText(code);
  await noHorizontalOverflow(page);
  await page.screenshot({ path: testInfo.outputPath('loyalty-history.png'), fullPage: true });
});

test.describe('embedded in a publisher page (English)', () => {
  // northern-review allows http://localhost:4400 as its parent (tenants/northern-review.json).
  let host: Server;
  test.beforeAll(async () => {
    host = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://localhost').searchParams.get('path') ?? 'login';
      res.setHeader('content-type', 'text/html');
      res.end(`<!doctype html><html><head><meta charset="utf-8"></head><body><h1>The Northern Review — members</h1>
<script>window.portalMessages = []; addEventListener('message', (e) => window.portalMessages.push({ origin: e.origin, data: e.data }));</script>
<iframe id="portal" title="portal" allow="clipboard-read; clipboard-write" src="http://localhost:${port}/t/northern-review/${path}" style="width:100%;height:1400px"></iframe></body></html>`);
    });
    await new Promise<void>((resolve) => host.listen(4400, '127.0.0.1', () => resolve()));
  });
  test.afterAll(async () => new Promise<void>((resolve) => host.close(() => resolve())));

  /** Signs in inside the frame by magic link and lands on the page first asked for. */
  async function signInFramed(
    page: Page,
    email: string,
    path: string,
  ): Promise<{ frame: FrameLocator; portal: Frame }> {
    await page.goto(`http://localhost:4400/?path=${encodeURIComponent(path)}`);
    const frame = page.frameLocator('#portal');
    // Embedded, a page of the account shows how to log in instead of moving to /login (portal-core.md §2).
    if (path !== 'login') await frame.getByRole('link', { name: 'Log in here' }).click();
    const form = frame.locator('form', { has: frame.getByRole('button', { name: 'Send login link' }) });
    const since = new Date().toISOString();
    await form.getByLabel('E-mail address').fill(email);
    await form.getByRole('button', { name: 'Send login link' }).click();
    await expect(frame.getByText('Please check your inbox')).toBeVisible();
    const mail = await waitForMail(page.request, 'northern-review', email, since, MAGIC_LINK_SUBJECT);
    const portal = page.frame({ url: /\/t\/northern-review\// })!;
    await portal.goto(linkIn(mail.text).replace('127.0.0.1', 'localhost'));
    // The link's token is exchanged for a session on the login page; then the portal moves on.
    await expect.poll(() => portal.url(), { timeout: 15_000 }).not.toMatch(/\/login/);
    return { frame, portal };
  }

  const messages = (page: Page) =>
    page.evaluate(() => (window as unknown as { portalMessages: unknown[] }).portalMessages);

  test('SSO profile: deleting the account posts accountDeleted to the embedding page and logs out', async ({
    page,
  }, testInfo) => {
    const email = account('leaving', testInfo.project.name);
    const { frame, portal } = await signInFramed(page, email, 'sso-profile');
    await portal.goto(`http://localhost:${port}/t/northern-review/sso-profile`);
    await expect(frame.getByRole('heading', { level: 1, name: 'Account details' })).toBeVisible();
    await expect(
      frame
        .getByRole('heading', { name: 'Change password' })
        .or(frame.getByRole('heading', { name: 'Set a password' })),
    ).toBeVisible();
    await frame.getByRole('button', { name: 'Delete account …' }).click();
    const dialog = frame.getByRole('dialog', { name: 'Really delete your account?' });
    await dialog.getByLabel('E-mail address of your account').fill('someone.else@portal.example');
    await dialog.getByRole('button', { name: 'Delete account for good' }).click();
    await expect(dialog.getByText('The e-mail address does not match your account.')).toBeVisible();
    await dialog.getByLabel('E-mail address of your account').fill(email);
    await page.screenshot({ path: testInfo.outputPath('sso-delete-dialog.png') });
    await dialog.getByRole('button', { name: 'Delete account for good' }).click();

    await expect
      .poll(() => messages(page))
      .toContainEqual({ origin: `http://localhost:${port}`, data: 'accountDeleted' });
    expect(await messages(page)).not.toContainEqual(expect.objectContaining({ data: 'sessionTimedOut' }));
    // §2: no login page in the frame; the page loaded again without a session says why it shows.
    await expect(frame.getByRole('heading', { level: 1, name: 'Please log in' })).toBeVisible();
    await expect(frame.getByText('Your account has been deleted.')).toBeVisible();
    expect(portal.url()).toMatch(/\/t\/northern-review\/sso-profile\?deleted=1$/);
    expect(
      await portal.evaluate(() => sessionStorage.getItem('portal.authState.northern-review')),
    ).toBeNull();
    await waitForMail(
      page.request,
      'northern-review',
      email,
      new Date(Date.now() - 60_000).toISOString(),
      /has been deleted/,
    );
  });

  test('Loyalty: join, claim, then leaving the club posts loyaltyOptionDisabled and logs out', async ({
    page,
    context,
  }, testInfo) => {
    // The publisher's frame delegates the clipboard (allow="clipboard-write"); the browser grants it.
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const email = account('club', testInfo.project.name);
    const { frame, portal } = await signInFramed(page, email, 'loyalty-programme');
    await portal.goto(`http://localhost:${port}/t/northern-review/loyalty-programme`);
    await expect(
      frame.getByRole('heading', { level: 1, name: 'Welcome to the customer club' }),
    ).toBeVisible();
    await frame.getByRole('button', { name: 'Join the club' }).click();
    await expect(frame.getByText('You have subscribed for 0 months.')).toBeVisible();
    await frame.getByRole('link', { name: 'Coffee voucher' }).click();
    await expect(frame.getByRole('heading', { level: 2, name: 'Coffee voucher' })).toBeVisible();
    await frame.getByRole('button', { name: 'Claim', exact: true }).click();
    const code = frame.getByTestId('loyalty-code');
    await expect(code).toHaveText(/^COF|^STA-/);
    await frame.getByRole('button', { name: 'Copy code' }).click();
    await expect(frame.getByText('Copied!')).toBeVisible();
    await expect(frame.getByText('Copied!')).toBeHidden({ timeout: 3000 });
    await page.screenshot({ path: testInfo.outputPath('loyalty-reward-en.png'), fullPage: true });

    await frame.getByRole('button', { name: 'Leave the customer club' }).click();
    await frame
      .getByRole('dialog', { name: 'Leave the customer club?' })
      .getByRole('button', { name: 'Leave the club' })
      .click();
    await expect
      .poll(() => messages(page))
      .toContainEqual({ origin: `http://localhost:${port}`, data: 'loyaltyOptionDisabled' });
    // Signed out (account-flows.md §4 "Loyalty opt-out"); the frame stays on its page and says why (§2).
    await expect(frame.getByRole('heading', { level: 1, name: 'Please log in' })).toBeVisible();
    await expect(frame.getByText('You have left the customer club and have been signed out.')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('loyalty-left-embedded.png') });
    // Logging in again in the frame does not repeat the notice.
    await frame.getByRole('link', { name: 'Log in here' }).click();
    await expect(frame.getByRole('button', { name: 'Send login link' })).toBeVisible();
    await expect(frame.getByText('You have left the customer club')).toHaveCount(0);
  });
});
