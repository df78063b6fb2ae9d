import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { signInByMagicLink, subscriptionsOfSession, waitForMail } from './support';

/**
 * The change feed (issue 25): a subscriber changes a cost centre; the order system, with a key
 * made by `portal keys create`, finds the change in the feed and rejects it with a reason in both
 * languages; the subscriber gets the e-mail and sees the notice on the orders page, in German and,
 * after switching, in English.
 */
const TENANT = 'technikwelt';
const EMAIL = 'lena.wagner@technikwelt.example';
const GERMAN_LOGIN = {
  emailLabel: 'E-Mail-Adresse',
  sendLink: 'Anmeldelink senden',
  linkSent: /Bitte prüfen Sie Ihr Postfach/,
};
const REASON = {
  'de-DE': 'Kostenstellen vergibt Ihre Buchhaltung; bitte wenden Sie sich an sie.',
  'en-GB': 'Cost centres are assigned by your accounts department; please ask them.',
};

test('a change rejected through the feed reaches its subscriber by e-mail and on the orders page', async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'one journey is enough; the notice is a plain alert');
  const created = execFileSync('node', ['cli/bin.mjs', 'keys', 'create', TENANT, '--scope', 'read,write'], {
    env: { ...process.env, PORTAL_DATA_DIR: process.env.E2E_DATA_DIR },
    encoding: 'utf8',
  });
  const key = /pk_technikwelt_[A-Za-z0-9_-]{43}/.exec(created)![0];
  const operator = { authorization: `Bearer ${key}` };

  await signInByMagicLink(page, TENANT, EMAIL, GERMAN_LOGIN);
  const all = (await subscriptionsOfSession(page, TENANT)) as unknown as Array<{
    id: string;
    roles: string[];
  }>;
  const subscription = all.find((s) => s.roles.includes('AG'))!;
  const value = `KST-${Date.now() % 100000}`;
  const status = await page.evaluate(
    async ({ tenant, id, value }) => {
      const auth = JSON.parse(sessionStorage.getItem(`portal.authState.${tenant}`) ?? '{}');
      const xsrf = /(?:^|; )XSRF-TOKEN=([^;]+)/.exec(document.cookie)?.[1] ?? '';
      const response = await fetch(`/t/${tenant}/api/subscriptions/${id}/attributes`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-auth-token': auth.accessToken,
          'x-xsrf-token': xsrf,
        },
        body: JSON.stringify({ type: 'KOSTENSTELLE', value }),
      });
      return response.status;
    },
    { tenant: TENANT, id: subscription.id, value },
  );
  expect(status).toBe(200);

  let eventId = '';
  await expect
    .poll(async () => {
      const answer = await page.request.get(`/t/${TENANT}/operator/v1/changes?status=pending&limit=500`, {
        headers: operator,
      });
      const feed = (await answer.json()) as {
        changes: Array<{ event: { id: string; type: string; data: { value?: string } } }>;
      };
      eventId =
        feed.changes.find((c) => c.event.type === 'order_attribute.changed' && c.event.data.value === value)
          ?.event.id ?? '';
      return eventId;
    })
    .not.toBe('');

  const since = new Date().toISOString();
  const rejected = await page.request.post(`/t/${TENANT}/operator/v1/changes/${eventId}/acknowledgement`, {
    headers: operator,
    data: { status: 'rejected', reason: REASON },
  });
  expect(rejected.status()).toBe(201);
  const mail = await waitForMail(
    page.request,
    TENANT,
    EMAIL,
    since,
    /Ihre Änderung konnte nicht übernommen werden/,
  );
  expect(mail.text).toContain('Ihre Änderung der Auftragsangaben vom');
  expect(mail.text).toContain(REASON['de-DE']);

  await page.goto(`/t/${TENANT}/orders`);
  const notice = page.locator('.rejected-changes .alert');
  await expect(notice).toHaveCount(1);
  await expect(notice).toContainText('Ihre Änderung der Auftragsangaben vom');
  await expect(notice).toContainText(REASON['de-DE']);
  await page.screenshot({ path: testInfo.outputPath('rejected-change-de.png') });
  await page.goto(`/t/${TENANT}/orders?lang=en`);
  await expect(notice).toContainText('Your change of order details on');
  await expect(notice).toContainText(REASON['en-GB']);
  await page.screenshot({ path: testInfo.outputPath('rejected-change-en.png') });
});
