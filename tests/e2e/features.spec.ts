import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { signInByMagicLink } from './support';

const tenantFile = (id: string) => JSON.parse(readFileSync(`tenants/${id}.json`, 'utf8'));
const ENGLISH = {
  emailLabel: 'E-mail address',
  sendLink: 'Send login link',
  linkSent: /Please check your inbox/,
};

test('a feature the tenant switched off shows the notice with its fallback e-mail and phone', async ({
  page,
}) => {
  const stadtkurier = tenantFile('stadtkurier');
  expect(stadtkurier.features).not.toContain('membership');
  await page.goto('/t/stadtkurier/memberships');
  await expect(page.getByRole('heading', { name: 'Diese Funktion ist nicht verfügbar' })).toBeVisible();
  await expect(page.getByText(stadtkurier.contact.fallbackEmail)).toBeVisible();
  await expect(page.getByText(stadtkurier.contact.fallbackPhone)).toBeVisible();
});

test('the menu is built from the enabled features and leads to them', async ({ page, isMobile }) => {
  await signInByMagicLink(page, 'northern-review', 'priya.patel@northern-review.example', ENGLISH);
  const menu = page.getByRole('navigation', { name: 'Menu' });
  if (isMobile) {
    // On phones the menu hides behind a toggle labelled with the current screen's title.
    await menu.getByRole('button', { name: 'Orders' }).click();
  }
  await menu.getByRole('link', { name: 'Memberships' }).click();
  await expect(page).toHaveURL(/\/t\/northern-review\/memberships$/);
  await expect(page.getByRole('heading', { level: 1, name: 'My memberships' })).toBeVisible();
  await expect(page.locator('.subscription-card')).not.toHaveCount(0);
  if (isMobile) await expect(menu.getByRole('button', { name: 'Memberships' })).toBeVisible();
});

test('log-out from the account menu ends the session; the embedded page then says how to log in', async ({
  page,
}) => {
  await signInByMagicLink(page, 'northern-review', 'olivia.turner@northern-review.example', ENGLISH);
  await page.getByText('Account', { exact: true }).click();
  await expect(page.getByText('olivia.turner@northern-review.example')).toBeVisible();
  await page.getByRole('button', { name: 'Log out' }).click();
  // northern-review is embedded: the log-out loads the page again, which without a session says how
  // to log in (portal-core.md §2: a missing user goes to login unless the portal is embedded).
  await expect(page.getByRole('heading', { level: 1, name: 'Please log in' })).toBeVisible();
  await expect(page).toHaveURL(/\/t\/northern-review\/orders$/);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Please log in' })).toBeVisible();
  await expect(page).toHaveURL(/\/t\/northern-review\/orders$/);
});

/** Ends the page's session on the server, as the idle timeout would; the tab keeps its token. */
async function endSessionOnServer(page: import('@playwright/test').Page, tenantId: string) {
  const status = await page.evaluate(async (id) => {
    const auth = JSON.parse(sessionStorage.getItem(`portal.authState.${id}`) ?? '{}');
    const xsrf = document.cookie
      .split('; ')
      .find((c) => c.startsWith('XSRF-TOKEN='))!
      .slice('XSRF-TOKEN='.length);
    const response = await fetch(`/t/${id}/api/logout`, {
      method: 'POST',
      headers: { 'x-auth-token': auth.accessToken, 'x-xsrf-token': xsrf },
    });
    return response.status;
  }, tenantId);
  expect(status).toBe(204);
}

const GERMAN = {
  emailLabel: 'E-Mail-Adresse',
  sendLink: 'Anmeldelink senden',
  linkSent: /Bitte prüfen Sie Ihr Postfach/,
};

test('a 401 from the API logs the user out and shows the session-expired text on the login page', async ({
  page,
}) => {
  await signInByMagicLink(page, 'stadtkurier', 'max.mueller@stadtkurier.example', GERMAN);
  await expect(page.locator('.subscription-card').first()).toBeVisible();
  await endSessionOnServer(page, 'stadtkurier');
  await page.reload();
  await expect(page).toHaveURL(/\/t\/stadtkurier\/login$/);
  await expect(
    page.getByText(
      'Ihre Sitzung ist abgelaufen. Bitte laden Sie die Seite neu oder melden Sie sich erneut an.',
    ),
  ).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('portal.authState.stadtkurier'))).toBeNull();
});

test('an embedded portal stays on its page after a 401 and shows the session-expired text there', async ({
  page,
}) => {
  await signInByMagicLink(page, 'northern-review', 'james.whitfield@northern-review.example', ENGLISH);
  await expect(page.locator('.subscription-card').first()).toBeVisible();
  await endSessionOnServer(page, 'northern-review');
  await page.reload();
  await expect(
    page.getByText('Your session has expired. Please reload the page or log in again.'),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/t\/northern-review\/orders$/);
});
