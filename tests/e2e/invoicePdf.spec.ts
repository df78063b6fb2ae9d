/**
 * Journey: a subscriber downloads an invoice PDF on technikwelt in English, then in German after
 * switching the language (docs/invoices.md "Invoices and documents"). The file is read back as a
 * PDF reader does: it names the publisher with VAT id from the tenant file and speaks the screen's
 * language.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { buildDemoData } from '../../server/seed/demoData';
import { signInByMagicLink } from './support';
import { pdfText } from '../server/documents/pdfText';

const TENANT = 'technikwelt';
const tenantFile = JSON.parse(readFileSync(`tenants/${TENANT}.json`, 'utf8'));
const GERMAN_LOGIN = {
  emailLabel: 'E-Mail-Adresse',
  sendLink: 'Anmeldelink senden',
  linkSent: /Bitte prüfen Sie Ihr Postfach/,
};
const SUBSCRIPTION_TEXTS = JSON.parse(
  readFileSync('engine/features/subscription/texts.json', 'utf8'),
) as Record<'de-DE' | 'en-GB', Record<string, string>>;

async function downloadFirstInvoice(
  page: Page,
  locale: 'de-DE' | 'en-GB',
): Promise<{ invoiceNumber: string; text: string; fileName: string }> {
  const words = SUBSCRIPTION_TEXTS[locale];
  await page.getByText(words['subscription.paymentsHeading'], { exact: true }).click();
  const button = page
    .getByRole('button', {
      name: new RegExp(words['subscription.downloadInvoice'].replace('{{number}}', '\\d{10}')),
    })
    .first();
  await expect(button).toBeVisible();
  const invoiceNumber = ((await button.textContent()) ?? '').replace(/\D/g, '');
  const downloading = page.waitForEvent('download');
  await button.click();
  const download = await downloading;
  const bytes = readFileSync((await download.path())!);
  return { invoiceNumber, text: (await pdfText(bytes)).text, fileName: download.suggestedFilename() };
}

test('downloads an invoice PDF in the language of the screen, with the publisher and VAT id of the tenant file', async ({
  page,
}) => {
  const data = buildDemoData(tenantFile, new Date());
  // The main persona's first subscription: print, auto-renewal, paid by them, with invoices.
  const subscription = data.subscriptions[0];
  await signInByMagicLink(page, TENANT, data.logins[0].email, GERMAN_LOGIN);

  await page.goto(`/t/${TENANT}/subscriptions/${subscription.id}?lang=en`);
  const english = await downloadFirstInvoice(page, 'en-GB');
  expect(english.fileName).toBe(`DOC-${english.invoiceNumber}.pdf`);
  expect(english.text).toContain(`Invoice number ${english.invoiceNumber}`);
  expect(english.text).toContain(tenantFile.invoice.publisher.name);
  expect(english.text).toContain(`VAT no. ${tenantFile.invoice.publisher.vatId}`);
  expect(english.text).toContain('VAT 7%');
  expect(english.text).toMatch(/Page 1 of 1/);

  await page.goto(`/t/${TENANT}/subscriptions/${subscription.id}?lang=de`);
  const german = await downloadFirstInvoice(page, 'de-DE');
  expect(german.text).toContain(`Rechnungsnummer ${german.invoiceNumber}`);
  expect(german.text).toContain(`USt-IdNr. ${tenantFile.invoice.publisher.vatId}`);
  expect(german.text).toContain('Umsatzsteuer 7 %');
  expect(german.text).toContain('Seite 1 von 1');
});
