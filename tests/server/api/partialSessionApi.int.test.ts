/**
 * A "logged in only" session (portal-core.md §4: signed in through an anonymous flow's link, for one
 * subscription) against the server: the login answer names its subscription, the server
 * refuses exactly the calls engine/domain/sessionScope.ts `mayCall` refuses (the rule the screens
 * ask), and the calls the orders page makes for such a session are all answered without a 4xx.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { seedDemoData } from '../../../server/seed';
import { buildDemoData } from '../../../server/seed/demoData';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { createTestOutbox, firstLink } from '../../support/outbox';
import { mayCall, sessionScope } from '../../../engine/domain/sessionScope';

const tenant: ServerTenant = makeServerTenant({
  id: uniqueTenantId('partial-session'),
  name: 'Verlag Teilsitzung',
  hosts: ['partial-session.test'],
  defaultLocale: 'de-DE',
  features: [
    'manual-registration',
    'payment-history',
    'issue-history',
    'purchase-order-download',
    'pending-orders',
    'renewal',
    'e-card',
  ],
  embedding: { isEmbedded: false, parentOrigins: [] },
  login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
  // The demo's digital publication (server/seed/catalogue.ts: the tenant id's letters + "D").
  publicationBlacklists: { renewal: ['PAD'] },
});

const outbox = createTestOutbox('portal-partial-outbox-');
const clock = new Date();
let baseUrl: string;
let close: () => Promise<void>;
let logins: Awaited<ReturnType<typeof seedDemoData>>;

async function lastLinkTo(email: string): Promise<string> {
  return firstLink((await outbox.mails(email)).at(-1)!.text).searchParams.get('p')!;
}

beforeAll(async () => {
  const db = await getTestDatabase();
  logins = await seedDemoData(db, [tenant], { today: clock });
  const { app } = createApp({
    db,
    tenants: [tenant],
    distDir: path.join(outbox.dir, 'no-dist'),
    mailer: outbox.mailer,
    now: () => clock,
  });
  ({ baseUrl, close } = await listen(app));
});

afterAll(async () => close?.());

/** The renewal/upgrade login by order number and last name, then its mailed link (account-flows.md §2). */
async function partialSession() {
  const data = buildDemoData(tenant as Parameters<typeof buildDemoData>[0], clock);
  const sub = data.subscriptions[0];
  const ag = data.subscriptionRoles.find((role) => role.subscription_id === sub.id && role.role === 'AG')!;
  const partner = data.businessPartners.find((bp) => bp.bp_number === ag.bp_number)!;
  const other = data.subscriptions.find((s) => s.id !== sub.id)!;
  const client = browserLikeClient(baseUrl, `/t/${tenant.id}/api`);
  await client.get('/subscriptions');
  const ask = await client.post('/login/order-number', {
    orderNumber: sub.order_number,
    lastName: partner.last_name1 ?? partner.company1,
    flow: 'renewal',
  });
  expect(ask.body.error.details.status).toBe('confirm_email');
  const recipient =
    data.userBusinessPartners.find((link) => link.bp_number === partner.bp_number)?.email ??
    partner.email_address!;
  const login = await client.post('/login/token', { token: await lastLinkTo(recipient) });
  expect(login.status).toBe(200);
  client.setAccessToken(login.body.accessToken);
  return { client, login: login.body, subscriptionId: sub.id, otherId: other.id };
}

describe('the renewal and upgrade login by order number (account-flows.md §5)', () => {
  it('takes only an order number of 10 digits starting with 4 for a renewal, before any lookup', async () => {
    const client = browserLikeClient(baseUrl, `/t/${tenant.id}/api`);
    await client.get('/subscriptions');
    for (const [flow, orderNumber] of [
      ['renewal', '12345678'],
      ['renewal', '5123456789'],
      ['renewal', '412345678'],
    ]) {
      const refused = await client.post('/login/order-number', { orderNumber, lastName: 'Muster', flow });
      expect(refused.status, `${flow} ${orderNumber}`).toBe(400);
      expect(refused.body.error).toMatchObject({
        code: 'validation_failed',
        details: [{ field: '/orderNumber', message: 'must be 10 digits starting with 4' }],
      });
    }
    // Without a flow (the other order-number sign-ins), 8 to 10 digits as before: looked up.
    const looked = await client.post('/login/order-number', { orderNumber: '12345678', lastName: 'Muster' });
    expect(looked.body.error.details.status).toBe('not_found');
  });

  it('mails no link for a flow the subscription’s publication is blacklisted for, and names no publication', async () => {
    const data = buildDemoData(tenant as Parameters<typeof buildDemoData>[0], clock);
    const digital = data.subscriptions.find(
      (s) => s.publication === 'PAD' && /^4\d{9}$/.test(s.order_number),
    )!;
    const ag = data.subscriptionRoles.find((r) => r.subscription_id === digital.id && r.role === 'AG')!;
    const partner = data.businessPartners.find((bp) => bp.bp_number === ag.bp_number)!;
    const recipient = partner.email_address!;
    const client = browserLikeClient(baseUrl, `/t/${tenant.id}/api`);
    await client.get('/subscriptions');
    const mailsBefore = (await outbox.mails(recipient)).length;
    const refused = await client.post('/login/order-number', {
      orderNumber: digital.order_number,
      lastName: partner.last_name1 ?? partner.company1,
      flow: 'renewal',
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('feature_disabled');
    expect(refused.body.error.message).not.toContain('PAD');
    expect((await outbox.mails(recipient)).length).toBe(mailsBefore);
    // Without a flow (the sign-in to the subscription itself) the same order number still gets its link.
    const plain = await client.post('/login/order-number', {
      orderNumber: digital.order_number,
      lastName: partner.last_name1 ?? partner.company1,
    });
    expect(plain.body.error.details.status).toBe('confirm_email');
  });
});

describe('a "logged in only" session (portal-core.md §4)', () => {
  it('is named by the login answer: its login source and its one subscription; an account session names none', async () => {
    const { login, subscriptionId } = await partialSession();
    expect(login).toMatchObject({ loginSource: 'order-number', subscriptionId });
    expect(sessionScope(login)).toEqual({ kind: 'subscription', subscriptionId });

    const email = logins.find((l) => l.tenantId === tenant.id)!.email;
    const client = browserLikeClient(baseUrl, `/t/${tenant.id}/api`);
    await client.get('/subscriptions');
    expect((await client.post('/login/magic-link', { email })).status).toBe(202);
    const full = await client.post('/login/token', { token: await lastLinkTo(email) });
    expect(full.status).toBe(200);
    expect(full.body.subscriptionId).toBeUndefined();
    expect(sessionScope(full.body)).toEqual({ kind: 'account' });
  });

  it('is refused by the server exactly the calls the screens’ rule (sessionScope.ts mayCall) refuses', async () => {
    const { client, login, subscriptionId, otherId } = await partialSession();
    const scope = sessionScope(login);
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/subscriptions'],
      ['GET', `/subscriptions/${subscriptionId}`],
      ['GET', `/subscriptions/${subscriptionId}/payment-history?page=0`],
      ['GET', `/subscriptions/${subscriptionId}/delivered-issues?page=0`],
      ['GET', `/subscriptions/${subscriptionId}/recommendations?source=renewal`],
      ['GET', `/subscriptions/${otherId}`],
      ['GET', `/subscriptions/${otherId}/payment-history?page=0`],
      ['POST', '/subscriptions', { orderNumber: '4123456789', zipcode: '1', preferredRole: 'AG' }],
      ['POST', '/subscriptions/acceptAllRecommendations', { selectedRecommendations: [] }],
      ['GET', '/purchase-orders'],
      ['GET', '/pending-orders'],
      ['GET', '/publications'],
      ['GET', '/business-partners'],
      ['GET', '/e-cards'],
    ];
    for (const [method, apiPath, body] of calls) {
      const answer = method === 'GET' ? await client.get(apiPath) : await client.post(apiPath, body);
      const refused = answer.status === 403 && answer.body?.error?.code === 'partial_login';
      expect({ call: `${method} ${apiPath}`, refused }).toEqual({
        call: `${method} ${apiPath}`,
        refused: !mayCall(scope, method, apiPath),
      });
    }
  });

  it('gets an answer without a 4xx to every call the orders page makes for it', async () => {
    const { client, login } = await partialSession();
    const scope = sessionScope(login);
    // engine/features/orders/OrdersScreen.tsx with engine/account/ordersData.ts: the list always,
    // purchase and pending orders only where the rule lets the session ask.
    const ordersPage = ['/subscriptions', '/purchase-orders', '/pending-orders'].filter((apiPath) =>
      mayCall(scope, 'GET', apiPath),
    );
    expect(ordersPage).toEqual(['/subscriptions']);
    for (const apiPath of ordersPage) expect((await client.get(apiPath)).status).toBe(200);
    const list = await client.get<Array<{ id: string }>>('/subscriptions');
    expect(list.body.map((s) => s.id)).toEqual([login.subscriptionId]);
  });
});
