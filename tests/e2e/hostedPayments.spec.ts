/**
 * A renewal paid by card through each hosted provider (docs/architecture.md "Payments"), in Chromium as a
 * subscriber pays: the popup opens the portal's checkout URL, lands on the provider's page (here the
 * local stand-in of Stripe Checkout or of Mollie's checkout, the official SDKs pointed at them), the
 * card is paid there, the provider reports to the portal's webhook and sends the popup back to the
 * portal's return page, which tells the opener; the screen shows the renewal, and a reload still does.
 *
 * Its own server: `portal start` on the built portals with two demo tenants' files switched to a
 * hosted provider (PORTAL_TENANTS_DIR), on a fresh embedded database. Desktop only: the phone project
 * walks the same popup flow in the sandbox journeys, and one server per provider run is enough.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { formatDate } from '../../engine/domain/dates';
import { signInByMagicLink, subscriptionsOfSession } from './support';
import {
  startMollieStandin,
  startStripeStandin,
  type MollieStandin,
  type StripeStandin,
} from '../support/paymentStandins';

const port = Number(process.env.E2E_PORT ?? 4321) + 17;
const origin = `http://127.0.0.1:${port}`;
const WEBHOOK_SECRET = 'whsec_ZTJlLWhvc3RlZC1wYXltZW50cy1zZWNyZXQ=';
const DEMO_EMAIL = 'demo@portal.example';
const LOGIN = {
  'en-GB': { emailLabel: 'E-mail address', sendLink: 'Send login link', linkSent: /Please check your inbox/ },
  'de-DE': {
    emailLabel: 'E-Mail-Adresse',
    sendLink: 'Anmeldelink senden',
    linkSent: /Bitte prüfen Sie Ihr Postfach/,
  },
};

let portal: ChildProcess | undefined;
let stripe: StripeStandin;
let mollie: MollieStandin;

test.use({ baseURL: origin });

/** The demo tenant's file with a hosted provider, in a folder of its own. */
function tenantWith(dir: string, id: string, payments: Record<string, unknown>) {
  const file = JSON.parse(readFileSync(`tenants/${id}.json`, 'utf8'));
  writeFileSync(path.join(dir, `${id}.json`), JSON.stringify({ ...file, payments }, null, 2));
}

// eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a hook asks for from its first parameter: none here
test.beforeAll(async ({}, testInfo) => {
  if (testInfo.project.name !== 'desktop') return;
  test.setTimeout(240_000);
  stripe = await startStripeStandin();
  stripe.setWebhook(`${origin}/t/northern-review/api/payments/stripe/webhook`, WEBHOOK_SECRET);
  mollie = await startMollieStandin();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-e2e-hosted-'));
  const tenantsDir = path.join(dataDir, 'tenants');
  mkdirSync(tenantsDir);
  tenantWith(tenantsDir, 'northern-review', {
    provider: 'stripe',
    stripe: { secretKeyEnv: 'E2E_STRIPE_KEY', webhookSecretEnv: 'E2E_STRIPE_WHSEC' },
  });
  tenantWith(tenantsDir, 'technikwelt', { provider: 'mollie', mollie: { apiKeyEnv: 'E2E_MOLLIE_KEY' } });
  const distDir = path.join(process.env.E2E_DATA_DIR!, 'dist');
  portal = spawn('node', ['cli/bin.mjs', 'start', '--skip-build', '--port', String(port)], {
    env: {
      ...process.env,
      PORTAL_DATA_DIR: dataDir,
      PORTAL_DIST_DIR: distDir,
      PORTAL_TENANTS_DIR: tenantsDir,
      PORTAL_SIGNIN_LIMIT_PER_CLIENT: '100000',
      PORTAL_SIGNIN_LIMIT_PER_ADDRESS: '80',
      E2E_STRIPE_KEY: 'sk_test_e2eHostedPayments',
      E2E_STRIPE_WHSEC: WEBHOOK_SECRET,
      E2E_MOLLIE_KEY: 'test_e2eHostedPayments',
      PORTAL_STRIPE_API_URL: stripe.url,
      PORTAL_MOLLIE_API_URL: mollie.apiEndpoint,
      // The Mollie SDK speaks only TLS, with its own roots: the stand-in's certificate is made at start.
      NODE_TLS_REJECT_UNAUTHORIZED: '0',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  portal.stderr!.on('data', (chunk) => (stderr = (stderr + String(chunk)).slice(-4000)));
  await expect
    .poll(
      async () => {
        if (portal?.exitCode !== null) throw new Error(`portal start exited:\n${stderr}`);
        return fetch(`${origin}/readyz`).then(
          (r) => r.status,
          () => 0,
        );
      },
      { timeout: 200_000, intervals: [500] },
    )
    .toBe(200);
});

test.afterAll(async () => {
  if (portal && portal.exitCode === null) {
    const exited = new Promise((resolve) => portal!.once('exit', resolve));
    portal.kill('SIGTERM');
    await exited;
  }
  await stripe?.close();
  await mollie?.close();
});

// eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a hook asks for from its first parameter: none here
test.beforeEach(async ({}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'one server per provider run: desktop only');
});

interface ApiSubscription {
  id: string;
  displayName: string;
  publication: string;
  orderStatus: string;
  isRenewal: boolean;
  roles: string[];
  salesDocumentType: string | null;
  validToOnSaleDate: string | null;
  renewal: { autoRenewal: boolean; expiryIssueNr: string | null } | null;
}

async function renewable(page: Page, tenant: string): Promise<ApiSubscription> {
  const all = (await subscriptionsOfSession(page, tenant)) as unknown as ApiSubscription[];
  const target = all.find(
    (s) =>
      s.isRenewal &&
      s.orderStatus === 'A' &&
      s.roles.includes('AG') &&
      s.salesDocumentType !== 'WBZA' &&
      !s.renewal?.autoRenewal &&
      s.renewal?.expiryIssueNr,
  );
  expect(target, 'a renewable subscription not renewed yet').toBeDefined();
  return target!;
}

/** Opens the renewal, picks the card-paid bundle and submits: the popup it opens. */
async function startRenewal(page: Page, tenant: string, target: ApiSubscription, submit: RegExp) {
  await page.goto(`/t/${tenant}/subscriptions/${target.id}/renewal`);
  const bundle = page.locator(`input[type="radio"][value="${target.publication}-RENEW-BUNDLE"]`);
  await bundle.check();
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: submit }).click();
  return popupOpened;
}

test('northern-review (en): a renewal paid by card on Stripe Checkout, then a reload', async ({ page }) => {
  await signInByMagicLink(page, 'northern-review', DEMO_EMAIL, LOGIN['en-GB']);
  const target = await renewable(page, 'northern-review');
  const popup = await startRenewal(page, 'northern-review', target, /renew/i);
  // The portal's checkout URL sent the popup on to Stripe's hosted page.
  await expect(popup).toHaveURL(new RegExp(`^${stripe.url}/c/pay/cs_test_`));
  await expect(popup.getByRole('heading', { level: 1 })).toContainText('Pay');
  await popup.getByLabel('Card number').fill('4242 4242 4242 4242');
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Pay', exact: true }).click();
  // Back on the portal's return page, which tells the opener and closes.
  await expect(popup.getByRole('status')).toHaveText('Payment successful. This window closes now.');
  await closed;
  expect(stripe.deliveries.map((d) => [d.type, d.status])).toContainEqual([
    'checkout.session.completed',
    200,
  ]);
  const success = page.getByRole('dialog');
  await expect(success).toContainText(target.displayName);
  await success.getByRole('button', { name: 'Close' }).first().click();

  await page.reload();
  const renewed = (await subscriptionsOfSession(page, 'northern-review')) as unknown as ApiSubscription[];
  const after = renewed.find((s) => s.id === target.id)!;
  expect(after.renewal?.expiryIssueNr).toBeNull();
  expect(after.validToOnSaleDate! > target.validToOnSaleDate!).toBe(true);
  await page.goto(`/t/northern-review/subscriptions/${target.id}`);
  await expect(page.locator('.details-block')).toContainText(formatDate(after.validToOnSaleDate, 'en-GB'));
});

test('technikwelt (de): a renewal paid by card on Mollie’s checkout, then a reload', async ({ page }) => {
  await signInByMagicLink(page, 'technikwelt', DEMO_EMAIL, LOGIN['de-DE']);
  const target = await renewable(page, 'technikwelt');
  const popup = await startRenewal(page, 'technikwelt', target, /verlängern/i);
  await expect(popup).toHaveURL(new RegExp(`^${mollie.url}/checkout/tr_`));
  const created = [...mollie.payments.values()].at(-1)!;
  expect(created).toMatchObject({ method: 'creditcard', locale: 'de_DE' });
  await popup.getByLabel('Paid').check();
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Continue' }).click();
  await expect(popup.getByRole('status')).toHaveText('Zahlung erfolgreich. Dieses Fenster schließt sich.');
  await closed;
  expect(mollie.deliveries.at(-1)).toMatchObject({ paymentId: created.id, status: 200 });
  const success = page.getByRole('dialog');
  await expect(success).toContainText(target.displayName);

  await page.reload();
  const renewed = (await subscriptionsOfSession(page, 'technikwelt')) as unknown as ApiSubscription[];
  const after = renewed.find((s) => s.id === target.id)!;
  expect(after.validToOnSaleDate! > target.validToOnSaleDate!).toBe(true);
  await page.goto(`/t/technikwelt/subscriptions/${target.id}`);
  await expect(page.locator('.details-block')).toContainText(formatDate(after.validToOnSaleDate, 'de-DE'));
});
