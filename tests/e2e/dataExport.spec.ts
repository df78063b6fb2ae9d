/**
 * "Download my data" (docs/subscribers.md "Download my data: on `/sso-profile`, else on
 * `/business-partners`") as a subscriber does it, in German on technikwelt: the button on the
 * account details page, "we are preparing your data", the daily limit saying when to try again, the
 * mailed link (which, opened without the account's session, leads to the login), and the ZIP it
 * downloads: the README in German, the account, and the invoices as PDFs.
 *
 * Each browser project asks with its own demo persona (one export per account and day): the
 * desktop journey as Max Müller, the phone journey as Anna Schmidt; both pay subscriptions, so
 * both exports hold invoices.
 */
import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { expect, test } from '@playwright/test';
import { linkIn, openPhoneMenu, signInByMagicLink, waitForMail } from './support';

const GERMAN_LOGIN = {
  emailLabel: 'E-Mail-Adresse',
  sendLink: 'Anmeldelink senden',
  linkSent: /Bitte prüfen Sie Ihr Postfach/,
};
const accountOf = (project: string) =>
  project === 'phone' ? 'anna.schmidt@technikwelt.example' : 'max.mueller@technikwelt.example';

test('Download my data: ask on the account page, open the mailed link, get the ZIP (German)', async ({
  page,
  browser,
  isMobile,
}, testInfo) => {
  const email = accountOf(testInfo.project.name);
  await signInByMagicLink(page, 'technikwelt', email, GERMAN_LOGIN);
  // Where a subscriber looks for the account's settings: "Kontodaten" in the menu.
  // On phones the menu is behind its toggle, which may draw after the page (isVisible does not wait).
  if (isMobile) await openPhoneMenu(page);
  await page.locator('#sidebar-items').getByRole('link', { name: 'Kontodaten' }).click();
  await expect(page).toHaveURL(/\/t\/technikwelt\/sso-profile$/);

  const section = page.getByRole('group', { name: 'Meine Daten herunterladen' });
  await expect(section).toBeVisible();
  const since = new Date().toISOString();
  await section.getByRole('button', { name: 'Meine Daten anfordern' }).click();
  await expect(section.getByText(/Wir stellen Ihre Daten zusammen/)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('data-export-requested.png'), fullPage: true });

  // One export a day: a second request says when to try again, in German.
  await section.getByRole('button', { name: 'Meine Daten anfordern' }).click();
  await expect(
    section.getByText(
      'Sie haben Ihre Daten heute bereits angefordert. Bitte versuchen Sie es in 24 Stunden erneut.',
    ),
  ).toBeVisible();

  const mail = await waitForMail(page.request, 'technikwelt', email, since, /Ihre Daten bei .* bereit/);
  const link = linkIn(mail.text);
  expect(link).toMatch(/\/t\/technikwelt\/sso-profile\?dataExport=[A-Za-z0-9_-]{40,}&lang=de$/);

  // The link forwarded to someone without the account's session: it leads to the login, nothing else.
  const stranger = await browser.newContext();
  const strangerPage = await stranger.newPage();
  await strangerPage.goto(link);
  await expect(strangerPage).toHaveURL(/\/t\/technikwelt\/login/);
  await stranger.close();

  await page.goto(link);
  await expect(section.getByText(/Ihre Daten stehen bereit/)).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    section.getByRole('button', { name: 'ZIP-Datei herunterladen' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^technikwelt-data-\d{4}-\d{2}-\d{2}\.zip$/);
  const saved = testInfo.outputPath('data-export.zip');
  await download.saveAs(saved);
  await expect(section.getByText('Der Download hat begonnen.')).toBeVisible();
  await expect(page).toHaveURL(/\/sso-profile(\?lang=de)?$/);

  const files = unzipSync(new Uint8Array(readFileSync(saved)));
  expect(strFromU8(files['README.txt'])).toContain('Ihre Daten bei TechnikWelt');
  expect(JSON.parse(strFromU8(files['account.json'])).email).toBe(email);
  const payments = JSON.parse(strFromU8(files['payments.json']));
  const invoice = payments.paymentHistory.find((p: { invoiceFile: string | null }) => p.invoiceFile);
  expect(invoice, 'an invoice in payments.json').toBeDefined();
  expect(strFromU8(files[invoice.invoiceFile].slice(0, 5))).toBe('%PDF-');
  const events = JSON.parse(strFromU8(files['account-events.json'])) as Array<{ type: string }>;
  expect(events.map((event) => event.type)).toContain('data_export.requested');
});
