import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { signInByMagicLink } from './support';

/**
 * Going live (docs/going-live.md "3. Import"): a subscriber who exists only in the publisher's
 * order system is brought in with `portal import` (into the running portal's database), asks for a
 * login link with the address on record, opens it from the mailbox, and finds the imported
 * subscription — after a reload too. The first link creates the account; no account existed before.
 */
const GERMAN = {
  emailLabel: 'E-Mail-Adresse',
  sendLink: 'Anmeldelink senden',
  linkSent: /Bitte prüfen Sie Ihr Postfach/,
};

const email = 'neu.importiert@stadtkurier.example';
const records = {
  'business-partners.ndjson': [
    {
      version: 1,
      bpNumber: '0099000001',
      salutationCode: '0002',
      firstName: 'Jonas',
      lastName1: 'Import',
      street: 'Ladestraße',
      streetNumber: '5',
      zipcode: '10115',
      city: 'Berlin',
      countryCode: 'DE',
      emailAddress: email,
    },
  ],
  'subscriptions.ndjson': [
    {
      version: 1,
      id: '1014999000001',
      orderNumber: '4999000001',
      publication: 'SKT',
      orderStatus: 'A',
      mixType: 'PR',
      custOrderDate: '2026-01-05',
      validFrom: '2026-01-15',
      details: {
        displayName: 'Stadtkurier Wochenende – Importiert',
        typeKey: 'PRINT',
        mixTypeDetails: { mixTypeDesc: 'Print', mediumType: null, pdfDownload: false, complaintIssues: 3 },
        isCancelable: true,
        paymentMethod: 'E',
        billingFrequency: '01',
      },
      roles: [
        { bpNumber: '0099000001', role: 'AG' },
        { bpNumber: '0099000001', role: 'WE' },
        { bpNumber: '0099000001', role: 'RE' },
      ],
    },
  ],
};

test('a subscriber brought in by portal import signs in with the address on record and sees the subscription', async ({
  page,
}, testInfo) => {
  test.skip(
    testInfo.project.name !== 'desktop',
    'one import is enough; the phone layout of the orders page has its own journeys',
  );
  const folder = mkdtempSync(path.join(tmpdir(), 'portal-e2e-import-'));
  for (const [file, lines] of Object.entries(records))
    writeFileSync(path.join(folder, file), lines.map((line) => JSON.stringify(line)).join('\n') + '\n');

  const output = execFileSync('node', ['cli/bin.mjs', 'import', 'stadtkurier', folder], {
    env: { ...process.env, PORTAL_DATA_DIR: process.env.E2E_DATA_DIR },
    encoding: 'utf8',
  });
  expect(output).toMatch(/business-partners\.ndjson\s+1\s+1\s+0\s+0\s+0/);
  expect(output).toMatch(/subscriptions\.ndjson\s+1\s+1\s+0\s+0\s+0/);

  await signInByMagicLink(page, 'stadtkurier', email, GERMAN);
  await expect(page.getByRole('heading', { level: 1, name: 'Meine Bestellungen' })).toBeVisible();
  const card = page.locator('.subscription-card', { hasText: 'Stadtkurier Wochenende – Importiert' });
  await expect(card).toBeVisible();
  await page.reload();
  await expect(card).toBeVisible();
  await expect(card).toContainText('4999000001');
});
