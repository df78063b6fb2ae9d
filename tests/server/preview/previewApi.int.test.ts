/**
 * The QA preview's dev-only routes (docs/operators.md "The preview page"): the sign-in of demo logins that the
 * /preview frames and `portal preview --shots` use, its refusals, and its absence from an app made
 * for production (`portal serve`).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { createMailer } from '../../../server/mail/mailer';
import { seedDemoData, SHARED_DEMO_EMAIL } from '../../../server/seed';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import type { Database } from '../../../server/db/database';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { fillScreenPath, missingReason, type DemoIds } from '../../../server/preview/previewScreens';
import { can } from '../../../engine/domain/capabilities';
import type { Subscription } from '../../../schemas/generated/subscription';

function tenant(id: string, features: string[], demo = true): ServerTenant {
  return makeServerTenant({
    id,
    demo,
    name: `Verlag ${id}`,
    hosts: [`${id}.test`],
    defaultLocale: 'de-DE',
    locales: ['de-DE', 'en-GB'],
    features,
    embedding: { isEmbedded: false, parentOrigins: [] },
    login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
  });
}

const first = tenant(uniqueTenantId('preview'), ['holiday-redirect', 'opt-ins']);
const second = tenant(uniqueTenantId('preview-b'), []);
const flows = tenant(uniqueTenantId('preview-flows'), [
  'multi-user-licenses',
  'renewal',
  'loyalty-programme',
]);
const unseeded = tenant(uniqueTenantId('preview-none'), []);
// A publisher's tenant whose database holds an account at a demo address (left from a demo phase,
// or registered): the preview signs it in only where every tenant was seeded (`portal preview`).
const publisher = tenant(uniqueTenantId('preview-pub'), [], false);
let db: Database;
const servers: Array<() => Promise<void>> = [];
let demoUrl: string;
let productionUrl: string;
let everyTenantUrl: string;

async function serve(devPages: boolean, demoDataInEveryTenant = false): Promise<string> {
  const outboxDir = mkdtempSync(path.join(tmpdir(), 'portal-preview-outbox-'));
  const { app } = createApp({
    db,
    tenants: [first, second, flows, unseeded, publisher],
    demoDataInEveryTenant,
    mailer: createMailer({ outboxDir }),
    distDir: outboxDir,
    devPages,
    outboxViewerDir: devPages ? outboxDir : undefined,
  });
  const { baseUrl, close } = await listen(app);
  servers.push(close);
  return baseUrl;
}

function signIn(base: string, body: unknown, contentType = 'application/json') {
  return fetch(`${base}/preview/api/sign-in`, {
    method: 'POST',
    headers: { 'content-type': contentType, accept: 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

beforeAll(async () => {
  db = await getTestDatabase();
  await seedDemoData(db, [first, second, flows, publisher]);
  demoUrl = await serve(true);
  productionUrl = await serve(false);
  everyTenantUrl = await serve(true, true);
});

afterAll(async () => {
  for (const close of servers) await close();
});

describe('POST /preview/api/sign-in', () => {
  it('answers a single-use login link that opens a session of that demo login in that tenant only', async () => {
    const answer = await signIn(demoUrl, { tenant: first.id, email: SHARED_DEMO_EMAIL, lang: 'en' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toContain('no-store');
    const body = (await answer.json()) as {
      link: string;
      email: string;
      ids: Record<string, string | undefined>;
    };
    expect(body.email).toBe(SHARED_DEMO_EMAIL);
    expect(body.link).toMatch(new RegExp(`^/t/${first.id}/login\\?p=[^&]+&lang=en$`));
    const token = new URL(body.link, demoUrl).searchParams.get('p')!;

    // Spent the way the portal's login screen spends it: POST /login/token.
    const client = browserLikeClient(demoUrl, `/t/${first.id}/api`);
    await client.get('/faq');
    const login = await client.post('/login/token', { token });
    expect(login.status).toBe(200);
    expect(login.body.user.email).toBe(SHARED_DEMO_EMAIL);
    client.setAccessToken(login.body.accessToken);
    const subscriptions = await client.get<Array<{ id: string }>>('/subscriptions');
    expect(subscriptions.status).toBe(200);
    // The ids the route picker fills are the user's own.
    expect(subscriptions.body.map((s) => s.id)).toContain(body.ids.id);

    expect((await client.post('/login/token', { token })).status).toBeGreaterThanOrEqual(400);
    const elsewhere = browserLikeClient(demoUrl, `/t/${second.id}/api`);
    await elsewhere.get('/faq');
    const foreign = await signIn(demoUrl, { tenant: first.id, email: SHARED_DEMO_EMAIL });
    const foreignToken = new URL(((await foreign.json()) as { link: string }).link, demoUrl).searchParams.get(
      'p',
    )!;
    expect((await elsewhere.post('/login/token', { token: foreignToken })).status).toBeGreaterThanOrEqual(
      400,
    );
  });

  it('fills a flow screen with a subscription its own rule allows, and a reward page with a reward', async () => {
    const answer = await signIn(demoUrl, { tenant: flows.id, email: SHARED_DEMO_EMAIL, lang: 'en' });
    const body = (await answer.json()) as { link: string; ids: DemoIds };
    const client = browserLikeClient(demoUrl, `/t/${flows.id}/api`);
    await client.get('/faq');
    const token = new URL(body.link, demoUrl).searchParams.get('p')!;
    client.setAccessToken((await client.post('/login/token', { token })).body.accessToken);
    const licensed = fillScreenPath('subscriptions/:id/licenses', body.ids, 'subscription-licenses')!;
    // The first active subscription has no licences; the screen gets the multi-licence.
    expect((await client.get(`/subscriptions/${body.ids.id}/licenses`)).status).toBe(403);
    expect(licensed).not.toBe(`subscriptions/${body.ids.id}/licenses`);
    expect((await client.get(`/${licensed}`)).status).toBe(200);
    const renewable = fillScreenPath('subscriptions/:id/renewal', body.ids, 'subscription-renewal')!;
    // The renewal screen's subscription is one the renewal rule allows (its page shows the button).
    const id = renewable.split('/')[1];
    const subscription = (await client.get<Subscription>(`/subscriptions/${id}`)).body;
    expect(can('renewal', subscription, { tenant: flows })).toBe(true);
    expect(body.ids.rewardId).toBeDefined();
    // The reward's page finds it among the tiers the programme answers.
    const tiers = (await client.get<any>('/loyalty-programme/tiers')).body.tiers as Array<{
      rewards: Array<{ id: string }>;
    }>;
    expect(tiers.flatMap((tier) => tier.rewards.map((reward) => reward.id))).toContain(body.ids.rewardId);
    // A screen that opens from a mailed invitation says so, not "has no licenseId".
    expect(
      fillScreenPath('subscriptions/:id/licenses/:licenseId/accept', body.ids, 'accept-license'),
    ).toBeUndefined();
    expect(
      missingReason('subscriptions/:id/licenses/:licenseId/accept', body.ids, 'accept-license', 'demo'),
    ).toContain('mailed invitation link');
  });

  it('refuses an address that is not one of the tenant demo logins, even one with an account elsewhere', async () => {
    const answer = await signIn(demoUrl, { tenant: first.id, email: 'someone@else.example' });
    expect(answer.status).toBe(403);
    const body = (await answer.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('not_a_demo_login');
    expect(body.error.message).toContain(SHARED_DEMO_EMAIL);
  });

  it('says so when the demo data of the tenant is not seeded, and refuses unknown tenants and bad bodies', async () => {
    expect((await signIn(demoUrl, { tenant: unseeded.id, email: SHARED_DEMO_EMAIL })).status).toBe(409);
    const unknown = await signIn(demoUrl, { tenant: 'no-such-tenant', email: SHARED_DEMO_EMAIL });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('unknown_tenant');
    const invalid = await signIn(demoUrl, { tenant: 7, email: '', lang: 'fr' });
    expect(invalid.status).toBe(400);
    expect(
      ((await invalid.json()) as { error: { details: Array<{ field: string }> } }).error.details.map(
        (d) => d.field,
      ),
    ).toEqual(['tenant', 'email', 'lang']);
    // A form post (what another site could send without a preflight) is not accepted.
    expect(
      (
        await signIn(
          demoUrl,
          `tenant=${first.id}&email=${SHARED_DEMO_EMAIL}`,
          'application/x-www-form-urlencoded',
        )
      ).status,
    ).toBe(415);
  });
});

describe('a tenant that is no demo', () => {
  it('is signed in by no preview but the one whose database seeds every tenant (portal preview)', async () => {
    const refused = await signIn(demoUrl, { tenant: publisher.id, email: SHARED_DEMO_EMAIL });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('not_a_demo_tenant');
    const catalogue = (await (await fetch(`${demoUrl}/preview/api/catalogue`)).json()) as Array<{
      id: string;
      logins: unknown[];
    }>;
    expect(catalogue.find((t) => t.id === publisher.id)!.logins).toEqual([]);
    const page = await (
      await fetch(`${demoUrl}/preview?tenants=${publisher.id}&user=${encodeURIComponent(SHARED_DEMO_EMAIL)}`)
    ).text();
    expect(page).toContain('data-user=""');
    expect(page).not.toContain(`<option value="${SHARED_DEMO_EMAIL}"`);
    // A signed-in screen says why nobody is there to choose, and where a preview has someone.
    const subscription = await (
      await fetch(`${demoUrl}/preview?tenants=${publisher.id}&route=subscription`)
    ).text();
    expect(subscription).toContain(`${publisher.id} has no demo logins on this server`);
    expect(subscription).toContain(`portal preview ${publisher.id}`);
    expect(subscription).not.toContain('choose a demo login');

    const seededEverywhere = await signIn(everyTenantUrl, { tenant: publisher.id, email: SHARED_DEMO_EMAIL });
    expect(seededEverywhere.status).toBe(200);
  });
});

describe('GET /preview/api/catalogue', () => {
  it('lists each tenant with the screens its features serve and its demo logins', async () => {
    const answer = await fetch(`${demoUrl}/preview/api/catalogue`);
    const catalogue = (await answer.json()) as Array<{
      id: string;
      screens: Array<{ id: string }>;
      logins: Array<{ email: string }>;
    }>;
    const withHoliday = catalogue.find((t) => t.id === first.id)!;
    const bare = catalogue.find((t) => t.id === second.id)!;
    expect(withHoliday.screens.map((s) => s.id)).toContain('holiday-service');
    expect(bare.screens.map((s) => s.id)).not.toContain('holiday-service');
    expect(bare.screens.map((s) => s.id)).toContain('orders');
    expect(withHoliday.logins.map((l) => l.email)).toContain(SHARED_DEMO_EMAIL);
  });
});

describe('the preview page', () => {
  it('shows the chosen tenants, a frame per tenant waiting to sign in as the chosen demo login, and the feature matrix', async () => {
    const answer = await fetch(
      `${demoUrl}/preview?tenants=${first.id},${second.id}&route=holiday-service&width=768&user=${encodeURIComponent(SHARED_DEMO_EMAIL)}`,
    );
    const html = await answer.text();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(html.match(/<section class="tenant"/g)).toHaveLength(2);
    expect(html).toContain(`data-user="${SHARED_DEMO_EMAIL}"`);
    expect(html).toContain('data-path="/subscriptions/:id/holiday-service"');
    expect(html).toContain(`No enabled feature of ${second.id} serves holiday-service`);
    expect(html).toContain('<caption>Feature matrix');
    expect(html).toContain('<option value="768" selected>');
  });
});

describe('in production (portal serve, no devPages)', () => {
  it('has no preview page, no preview script and no preview sign-in', async () => {
    expect((await fetch(`${productionUrl}/preview`)).status).toBe(404);
    expect((await fetch(`${productionUrl}/preview/preview.js`)).status).toBe(404);
    expect((await fetch(`${productionUrl}/preview/api/catalogue`)).status).toBe(404);
    const answer = await signIn(productionUrl, { tenant: first.id, email: SHARED_DEMO_EMAIL });
    expect(answer.status).toBe(404);
    expect(await answer.text()).not.toContain('/login?p=');
  });
});
