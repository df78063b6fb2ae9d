import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { seedDemoData } from '../../../server/seed';
import { createUser } from '../../../server/store/userStore';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { createTestOutbox, signInByMagicLink } from '../../support/outbox';

function serverTenant(id: string, overrides: Partial<ServerTenant> = {}): ServerTenant {
  return makeServerTenant({
    id,
    name: `Tenant ${id}`,
    hosts: [`${id}.test`],
    defaultLocale: 'de-DE',
    features: [],
    embedding: { isEmbedded: false, parentOrigins: [] },
    login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
    ...overrides,
  });
}

const outbox = createTestOutbox('portal-outbox-');
const tenantA = serverTenant(uniqueTenantId('api-a'));
const tenantB = serverTenant(uniqueTenantId('api-b'), { defaultLocale: 'en-GB' });
let clock = new Date();
let baseUrl: string;
let close: () => Promise<void>;
let emailA: string;
let otherEmailA: string;

/** Also checks that the request mails the address once. */
async function signIn(tenant: ServerTenant, email: string) {
  return signInByMagicLink(outbox, { baseUrl, tenantId: tenant.id, email, oneMail: true });
}

beforeAll(async () => {
  const db = await getTestDatabase();
  const logins = await seedDemoData(db, [tenantA, tenantB]);
  const ofA = logins.filter((login) => login.tenantId === tenantA.id);
  emailA = ofA[0].email;
  otherEmailA = ofA[1].email;
  // The same address in tenant B, with no subscriptions there.
  await createUser(db, tenantB.id, { email: emailA });
  const { app } = createApp({
    db,
    tenants: [tenantA, tenantB],
    distDir: path.join(outbox.dir, 'no-dist'),
    mailer: outbox.mailer,
    now: () => clock,
    signInLimits: { windowSeconds: 900, perAddress: 50, perClient: 100_000 },
  });
  ({ baseUrl, close } = await listen(app));
});

afterAll(async () => close?.());

describe('magic-link sign-in', () => {
  it('mails a single-use link that logs in with source "token" and lists the user own subscriptions', async () => {
    const { client, token, login } = await signIn(tenantA, emailA);
    expect(login).toMatchObject({ loginSource: 'token', user: { email: emailA } });
    const list = await client.get('/subscriptions');
    expect(list.status).toBe(200);
    expect(list.body.length).toBeGreaterThan(0);
    const again = await client.post('/login/token', { token });
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe('invalid_token');
  });

  it('answers the same for an unknown address and sends nothing', async () => {
    const client = browserLikeClient(baseUrl, `/t/${tenantA.id}/api`);
    await client.get('/subscriptions');
    const response = await client.post('/login/magic-link', { email: 'nobody@nowhere.example' });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ status: 'sent' });
    expect(await outbox.mails('nobody@nowhere.example')).toHaveLength(0);
  });

  it('writes the e-mail in the tenant language', async () => {
    await signIn(tenantA, otherEmailA);
    expect((await outbox.mails(otherEmailA)).at(-1)?.text).toContain('mit diesem Link melden Sie sich');
  });

  it('refuses a malformed e-mail with validation_failed naming the field', async () => {
    const client = browserLikeClient(baseUrl, `/t/${tenantA.id}/api`);
    await client.get('/subscriptions');
    const response = await client.post('/login/magic-link', { email: 'not-an-email', extra: 1 });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.error.details).toEqual(
      expect.arrayContaining([
        { field: '/extra', message: 'is not allowed' },
        expect.objectContaining({ field: '/email' }),
      ]),
    );
  });

  it('refuses malformed JSON with a 400, not a crash', async () => {
    const client = browserLikeClient(baseUrl, `/t/${tenantA.id}/api`);
    await client.get('/subscriptions');
    const response = await client.post('/login/magic-link', '{"email": ', {
      'content-type': 'application/json',
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('malformed_request');
    expect(response.body.error.message).toBe('The request body is not valid JSON.');
    // Valid JSON, but no object: said as such.
    for (const body of ['null', '42', '"demo@example.com"']) {
      const single = await client.post('/login/magic-link', body, { 'content-type': 'application/json' });
      expect([single.status, single.body.error.code, single.body.error.message]).toEqual([
        400,
        'malformed_request',
        'The request body must be a JSON object, not a single value.',
      ]);
    }
  });

  it('refuses a body in another media type with 415, and takes a call without a body', async () => {
    const client = browserLikeClient(baseUrl, `/t/${tenantA.id}/api`);
    await client.get('/subscriptions');
    const form = await client.post('/login/magic-link', 'email=someone%40example.com', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(415);
    expect(form.body.error.code).toBe('unsupported_media_type');
    const none = await client.post('/login/magic-link');
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe('validation_failed');
  });

  it('refuses a body sent as UTF-8 that is not, rather than reading its bytes as U+FFFD', async () => {
    const client = browserLikeClient(baseUrl, `/t/${tenantA.id}/api`);
    await client.get('/subscriptions');
    // "Müller" in Latin-1: the ü is the byte 0xFC, which UTF-8 has no place for.
    const latin1 = Buffer.from('{"email": "m\u00fcller@example.com"}', 'latin1');
    const response = await client.post('/login/magic-link', latin1, {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'malformed_request',
      message: 'The request body is not valid UTF-8.',
    });
    // The same address in UTF-8 is read, and judged as an address: the field is named.
    const utf8 = await client.post('/login/magic-link', Buffer.from('{"email": "müller@example.com"}'), {
      'content-type': 'application/json',
    });
    expect(utf8.body.error).toMatchObject({ code: 'validation_failed', details: [{ field: '/email' }] });
  });

  it('refuses a body in another charset than UTF-8, which the checks after it would not read', async () => {
    const client = browserLikeClient(baseUrl, `/t/${tenantA.id}/api`);
    await client.get('/subscriptions');
    const body = '{"email": "someone@example.com", "email": "other@example.com"}';
    const utf7 = '{"email": "someone+AEA-example.com"}';
    for (const [charset, bytes] of [
      ['utf-16le', Buffer.from(body, 'utf16le')],
      ['utf-32le', Buffer.from([...body].flatMap((c) => [c.charCodeAt(0), 0, 0, 0]))],
      ['utf-7', Buffer.from(utf7)],
      ['latin1', Buffer.from(body, 'latin1')],
      ['"UTF-16LE"', Buffer.from(body, 'utf16le')],
      // Named twice: body-parser would read the first, a proxy may read the last.
      ['utf-8; charset=utf-16le', Buffer.from('{"email": "someone@example.com"}')],
    ] as const) {
      const response = await client.post('/login/magic-link', bytes, {
        'content-type': `application/json; charset=${charset}`,
      });
      expect(response.status, charset).toBe(415);
      expect(response.body.error, charset).toMatchObject({
        code: 'unsupported_media_type',
        message: 'Send the body in UTF-8.',
      });
    }
  });

  it('refuses a body that names a key twice, rather than acting on the last one', async () => {
    const client = browserLikeClient(baseUrl, `/t/${tenantA.id}/api`);
    await client.get('/subscriptions');
    const response = await client.post(
      '/login/magic-link',
      '{"email": "someone@example.com", "e\\u006dail": "other@example.com"}',
      { 'content-type': 'application/json' },
    );
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'malformed_request',
      message: 'The request body names the key "email" twice in one object.',
    });
    // The same key in two objects, or twice in an array, is no duplicate.
    const nested = await client.post(
      '/login/magic-link',
      '{"email": "someone@example.com", "x": [{"a": 1}, {"a": 2}]}',
      {
        'content-type': 'application/json',
      },
    );
    expect(nested.body.error?.code).not.toBe('malformed_request');
  });
});

describe('sessions and access', () => {
  it('refuses unsafe requests without the XSRF header', async () => {
    const client = browserLikeClient(baseUrl, `/t/${tenantA.id}/api`);
    const response = await client.post('/login/magic-link', { email: emailA });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('xsrf_failed');
  });

  it('answers 401 without a session', async () => {
    const client = browserLikeClient(baseUrl, `/t/${tenantA.id}/api`);
    expect((await client.get('/subscriptions')).status).toBe(401);
    client.setAccessToken('forged-token');
    expect((await client.get('/subscriptions')).status).toBe(401);
  });

  it('makes a session of one tenant worthless on another, by prefix and by host', async () => {
    const { client } = await signIn(tenantA, emailA);
    const onB = browserLikeClient(baseUrl, `/t/${tenantB.id}/api`);
    onB.setAccessToken(client.accessToken);
    expect((await onB.get('/subscriptions')).status).toBe(401);
    const byHost = browserLikeClient(baseUrl, '/api', { host: `${tenantB.id}.test` });
    byHost.setAccessToken(client.accessToken);
    expect((await byHost.get('/subscriptions')).status).toBe(401);
    const ownHost = browserLikeClient(baseUrl, '/api', { host: `${tenantA.id}.test` });
    ownHost.setAccessToken(client.accessToken);
    expect((await ownHost.get('/subscriptions')).status).toBe(200);
  });

  it('shows the same e-mail in another tenant only that tenant data', async () => {
    const { client } = await signIn(tenantB, emailA);
    const list = await client.get('/subscriptions');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
  });

  it('does not let a user read another user subscription: 404', async () => {
    const first = await signIn(tenantA, emailA);
    const second = await signIn(tenantA, otherEmailA);
    const own = new Set((await first.client.get('/subscriptions')).body.map((s: { id: string }) => s.id));
    const foreign = (await second.client.get('/subscriptions')).body.find(
      (s: { id: string }) => !own.has(s.id),
    );
    expect(foreign).toBeDefined();
    const response = await first.client.get(`/subscriptions/${foreign.id}`);
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
    const mine = await first.client.get(`/subscriptions/${[...own][0]}`);
    expect(mine.status).toBe(200);
  });

  it('expires an idle session with 401 session_expired, and log-out ends a session', async () => {
    const { client } = await signIn(tenantA, emailA);
    clock = new Date(clock.getTime() + 31 * 60_000);
    const expired = await client.get('/subscriptions');
    clock = new Date();
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('session_expired');

    const fresh = await signIn(tenantA, emailA);
    expect((await fresh.client.post('/logout')).status).toBe(204);
    expect((await fresh.client.get('/subscriptions')).status).toBe(401);
  });
});

describe('server shell', () => {
  it('answers an unknown /api path with a JSON 404', async () => {
    const client = browserLikeClient(baseUrl, `/t/${tenantA.id}/api`);
    const response = await client.get('/does-not-exist');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.body.error.code).toBe('not_found');
  });

  it('reports health and readiness', async () => {
    const health = await fetch(`${baseUrl}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${baseUrl}/readyz`);
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      tenants: 2,
      migrations: { pending: [] },
      jobs: expect.any(Array),
    });
  });

  it("tells readiness's details only to the instance's probes: not on a publisher's host, not through a proxy", async () => {
    const readyz = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: unknown }>((resolve, reject) => {
        const request = http.get(`${baseUrl}/readyz`, { headers }, (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
        });
        request.on('error', reject);
      });
    expect(await readyz({ host: `${tenantA.id}.test` })).toEqual({ status: 200, body: { status: 'ready' } });
    expect(await readyz({ host: `${tenantA.id}.test.` })).toEqual({ status: 200, body: { status: 'ready' } });
    expect(await readyz({ 'x-forwarded-for': '203.0.113.9' })).toEqual({
      status: 200,
      body: { status: 'ready' },
    });
    expect((await readyz({})).body).toMatchObject({ status: 'ready', tenants: 2 });
  });

  it('says so when a tenant portal is not built instead of serving nothing', async () => {
    const response = await fetch(`${baseUrl}/t/${tenantA.id}/orders`);
    expect(response.status).toBe(503);
    expect(await response.text()).toContain(`npx portal build ${tenantA.id}`);
  });
});
