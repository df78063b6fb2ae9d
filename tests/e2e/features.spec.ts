import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { signInByMagicLink } from './support';

const tenantFile = (id: string) => JSON.parse(readFileSync(`tenants/${id}.json`, 'utf8'));
const ENGLISH = { emailLabel: 'E-mail address', sendLink: 'Send login link', linkSent: /Please check your inbox/ };

test('a feature the tenant switched off shows the notice with its fallback e-mail and phone', async ({ page }) => {
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

test('log-out from the account menu ends the session and returns to login', async ({ page }) => {
  await signInByMagicLink(page, 'northern-review', 'olivia.turner@northern-review.example', ENGLISH);
  await page.getByText('Account').click();
  await expect(page.getByText('olivia.turner@northern-review.example')).toBeVisible();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/t\/northern-review\/login$/);
  await page.goto('/t/northern-review/orders');
  await expect(page).toHaveURL(/\/t\/northern-review\/login$/);
});
