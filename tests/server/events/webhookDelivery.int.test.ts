/**
 * The webhook deliverer (docs/going-live.md "Delivery": delivery to a local receiver, retry
 * after a 500, signature verifiable with the documented recipe, restart during delivery delivers
 * once), against a receiver listening in this test and the real database. Deliveries
 * are in the Standard Webhooks format, verified here with the `standardwebhooks` package through
 * the README's recipe (one secret, two during a rotation, a changed body or another secret
 * refused), and a 410 Gone answer disables the endpoint. The penetration test's attack: deliveries
 * to this machine by IP literal in every notation, by a name that resolves to it, or by a redirect,
 * are refused and recorded with the reason, and the receiver gets no connection (docs/going-live.md "Account
 * events and webhooks", "Outbound requests").
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database';
import { openDatabase } from '../../../server/db/openDatabase';
import { recordEvent } from '../../../server/events/recordEvent';
import {
  deliverWebhooks,
  GONE_ERROR,
  startWebhookDeliverer,
  type WebhookTenant,
} from '../../../server/events/webhookDeliverer';
import {
  claimDueDeliveries,
  DISABLED_ENDPOINT_ERROR,
  enableEndpoint,
  listDisabledEndpoints,
} from '../../../server/store/accountEventStore';
import { generateWebhookSecret } from '../../../tenant/webhookSecret';
import { createTestDatabase, uniqueTenantId } from '../../support/database';
// The verification recipe of docs/going-live.md ("Verifying a delivery"), the very file the page shows.
import { verifyPortalEvent } from '../../support/verifyPortalEvent.mjs';

const RECIPE_FILE = new URL('../../support/verifyPortalEvent.mjs', import.meta.url);
const README = new URL('../../../docs/going-live.md', import.meta.url);

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local receiver: records every request; `answer` decides status and delay per request. */
function receiver() {
  const received: Received[] = [];
  let answer: (request: Received, index: number) => { status: number; delayMs?: number } = () => ({
    status: 200,
  });
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const request = { path: req.url ?? '', headers: req.headers, body };
      const { status, delayMs } = answer(request, received.length);
      received.push(request);
      setTimeout(() => res.writeHead(status, { 'content-type': 'text/plain' }).end('ok'), delayMs ?? 0);
    });
  });
  return {
    received,
    server,
    answerWith(fn: typeof answer) {
      answer = fn;
    },
    url: (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    /** Event ids received at a path, in order. */
    ids: (path: string) =>
      received.filter((r) => r.path === path).map((r) => String(r.headers['webhook-id'])),
  };
}

const SECRET = generateWebhookSecret();
let db: Database;
let url: string;
let hooks: ReturnType<typeof receiver>;
const closers: Array<() => Promise<void>> = [];

/** Fast settings: retries after 50 ms, doubling; as the server delivers, to public addresses only. */
const GUARDED = { retryBaseMs: 50, maxRetryDelayMs: 200, leaseMs: 5_000 };
/** The same for the receiver of these tests, on 127.0.0.1: only tests may pass allowPrivateAddresses. */
const FAST = { ...GUARDED, allowPrivateAddresses: true };
/**
 * A back-off no round outlasts, for tests that count one failed attempt: with FAST's 50 ms a busy
 * machine's round finds the delivery due again and attempts it twice.
 */
const ONE_ATTEMPT = { retryBaseMs: 60_000, maxRetryDelayMs: 60_000 };

function tenantWith(endpoints: WebhookTenant['webhooks']): WebhookTenant {
  return { id: uniqueTenantId('hooks'), webhooks: endpoints };
}

async function record(
  tenant: WebhookTenant,
  value = 'x',
  type: 'order_attribute.changed' | 'invoice.requested' = 'order_attribute.changed',
): Promise<string> {
  return db.transaction((tx) =>
    type === 'invoice.requested'
      ? recordEvent(tx, tenant.id, 'invoice.requested', {
          userId: 'u1',
          subjectKind: 'subscription',
          subscriptionId: 's1',
          purchaseOrderId: null,
          invoiceNumber: value,
          status: 'success',
        })
      : recordEvent(tx, tenant.id, 'order_attribute.changed', {
          userId: 'u1',
          subscriptionId: 's1',
          orderNumber: '4000000001',
          type: 'DELIVERY_NOTE',
          value,
          previousValue: null,
        }),
  );
}

async function deliveries(tenant: WebhookTenant) {
  return db.query<{
    event_id: string;
    endpoint_url: string;
    state: string;
    attempts: number;
    last_status: number | null;
    last_error: string | null;
  }>(
    `select event_id::text, endpoint_url, state, attempts, last_status, last_error from webhook_deliveries where tenant_id = $1 order by created_at, endpoint_url`,
    [tenant.id],
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(20);
  }
}

beforeAll(async () => {
  ({ db, url } = await createTestDatabase());
  hooks = receiver();
  await new Promise<void>((resolve) => hooks.server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        hooks.server.close(() => resolve());
        hooks.server.closeAllConnections();
      }),
    () => db.close(),
  );
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

describe('webhook delivery', () => {
  it('posts each event to every endpoint that wants its type, with the documented body and headers', async () => {
    hooks.answerWith(() => ({ status: 204 }));
    const tenant = tenantWith([
      { url: hooks.url('/all'), secret: SECRET },
      { url: hooks.url('/invoices'), secret: SECRET, events: ['invoice.requested'] },
    ]);
    const attribute = await record(tenant, 'Beim Nachbarn');
    const invoice = await record(tenant, 'RE-1', 'invoice.requested');
    const result = await deliverWebhooks(db, [tenant], FAST);
    expect(result).toMatchObject({ dispatched: 2, delivered: 3, retried: 0, failed: 0 });
    expect(hooks.ids('/all').sort()).toEqual([attribute, invoice].sort());
    expect(hooks.ids('/invoices')).toEqual([invoice]);

    const request = hooks.received.find((r) => r.path === '/all' && r.headers['webhook-id'] === attribute)!;
    expect(request.headers['content-type']).toBe('application/json');
    // Standard Webhooks: the event id, this attempt's Unix seconds, one v1 signature.
    expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(request.headers).not.toHaveProperty('portal-signature');
    const body = JSON.parse(request.body);
    expect(body).toEqual({
      id: attribute,
      type: 'order_attribute.changed',
      tenant: tenant.id,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: {
        userId: 'u1',
        subscriptionId: 's1',
        orderNumber: '4000000001',
        type: 'DELIVERY_NOTE',
        value: 'Beim Nachbarn',
        previousValue: null,
      },
    });
    expect(
      (await deliveries(tenant)).every(
        (d) => d.state === 'delivered' && d.attempts === 1 && d.last_status === 204,
      ),
    ).toBe(true);
    // Nothing is sent twice by a later round.
    expect(await deliverWebhooks(db, [tenant], FAST)).toMatchObject({ dispatched: 0, delivered: 0 });
  });

  it('signs in the Standard Webhooks format: the README recipe (standardwebhooks) verifies every delivery, and refuses another secret, a changed body or an old timestamp', async () => {
    hooks.answerWith(() => ({ status: 200 }));
    const secret = generateWebhookSecret();
    const tenant = tenantWith([{ url: hooks.url('/signed'), secretEnv: 'PORTAL_WEBHOOK_SECRET_TEST' }]);
    const ids = [await record(tenant, 'signed'), await record(tenant, 'RE-7', 'invoice.requested')];
    await deliverWebhooks(db, [tenant], { ...FAST, env: { PORTAL_WEBHOOK_SECRET_TEST: secret } });
    const requests = hooks.received.filter((r) => r.path === '/signed');
    expect(requests.map((r) => r.headers['webhook-id']).sort()).toEqual([...ids].sort());
    for (const request of requests) {
      // What a receiver gets back is the event, parsed from the verified raw body.
      expect(verifyPortalEvent(request.body, request.headers, secret)).toEqual(JSON.parse(request.body));
      expect(verifyPortalEvent(Buffer.from(request.body), request.headers, secret)).toMatchObject({
        id: request.headers['webhook-id'],
      });
      expect(() => verifyPortalEvent(request.body, request.headers, SECRET)).toThrow(
        'No matching signature found',
      );
      const tampered = request.body.replace(/"tenant":"[^"]+"/, '"tenant":"someone-else"');
      expect(tampered).not.toBe(request.body);
      expect(() => verifyPortalEvent(tampered, request.headers, secret)).toThrow(
        'No matching signature found',
      );
      // Another event's id with this body and signature: the id is signed too.
      const otherId = {
        ...request.headers,
        'webhook-id': ids.find((id) => id !== request.headers['webhook-id']),
      };
      expect(() => verifyPortalEvent(request.body, otherId, secret)).toThrow('No matching signature found');
      const replayed = {
        ...request.headers,
        'webhook-timestamp': String(Number(request.headers['webhook-timestamp']) - 3600),
      };
      expect(() => verifyPortalEvent(request.body, replayed, secret)).toThrow('Message timestamp too old');
      // Without its webhook-signature header (the old Portal-Signature scheme is gone) nothing verifies.
      const { 'webhook-signature': _, ...unsigned } = request.headers;
      expect(() => verifyPortalEvent(request.body, unsigned, secret)).toThrow('Missing required headers');
    }
  });

  it('signs with both secrets during a rotation, so a receiver holding either one verifies, and with one again after it', async () => {
    hooks.answerWith(() => ({ status: 204 }));
    const [oldSecret, newSecret, stranger] = [
      generateWebhookSecret(),
      generateWebhookSecret(),
      generateWebhookSecret(),
    ];
    const endpoint = {
      url: hooks.url('/rotating'),
      secretEnv: 'PORTAL_WEBHOOK_SECRET_NEW',
      previousSecretEnv: 'PORTAL_WEBHOOK_SECRET_OLD',
    };
    const tenant = tenantWith([endpoint]);
    const env = { PORTAL_WEBHOOK_SECRET_NEW: newSecret, PORTAL_WEBHOOK_SECRET_OLD: oldSecret };
    const during = [await record(tenant, 'during 1'), await record(tenant, 'during 2')];
    expect(await deliverWebhooks(db, [tenant], { ...FAST, env })).toMatchObject({ delivered: 2 });
    const overlap = hooks.received.filter((r) => r.path === '/rotating');
    expect(overlap.map((r) => r.headers['webhook-id']).sort()).toEqual([...during].sort());
    for (const request of overlap) {
      expect(String(request.headers['webhook-signature'])).toMatch(
        /^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/,
      );
      const event = JSON.parse(request.body);
      expect(verifyPortalEvent(request.body, request.headers, newSecret)).toEqual(event);
      expect(verifyPortalEvent(request.body, request.headers, oldSecret)).toEqual(event);
      expect(() => verifyPortalEvent(request.body, request.headers, stranger)).toThrow(
        'No matching signature found',
      );
      const tampered = request.body.replace('during', 'forged');
      for (const secret of [newSecret, oldSecret])
        expect(() => verifyPortalEvent(tampered, request.headers, secret)).toThrow(
          'No matching signature found',
        );
    }

    // The overlap ends: previousSecretEnv leaves the tenant file, the old secret no longer verifies.
    const after = await record(tenant, 'after');
    await deliverWebhooks(
      db,
      [{ ...tenant, webhooks: [{ url: endpoint.url, secretEnv: endpoint.secretEnv }] }],
      {
        ...FAST,
        env,
      },
    );
    const request = hooks.received.find((r) => r.headers['webhook-id'] === after)!;
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifyPortalEvent(request.body, request.headers, newSecret)).toMatchObject({ id: after });
    expect(() => verifyPortalEvent(request.body, request.headers, oldSecret)).toThrow(
      'No matching signature found',
    );
  });

  it('holds (and logs) the deliveries of an endpoint whose secret is missing or not a whsec_ secret, never sending them unsigned', async () => {
    hooks.answerWith(() => ({ status: 200 }));
    const tenant = tenantWith([
      { url: hooks.url('/hex-secret'), secretEnv: 'PORTAL_WEBHOOK_SECRET_HEX' },
      { url: hooks.url('/short-secret'), secret: 'whsec_c2hvcnQ=' },
      {
        url: hooks.url('/old-missing'),
        secretEnv: 'PORTAL_WEBHOOK_SECRET_HEX_OK',
        previousSecretEnv: 'PORTAL_WEBHOOK_SECRET_GONE',
      },
    ]);
    await record(tenant, 'held');
    const logs: Array<Record<string, unknown>> = [];
    const result = await deliverWebhooks(db, [tenant], {
      ...FAST,
      // One attempt each in this round: with FAST's 50 ms back-off, a busy machine's round lasted
      // past it and tried the held deliveries again (retried 5, not 3).
      retryBaseMs: 60_000,
      maxRetryDelayMs: 60_000,
      env: {
        PORTAL_WEBHOOK_SECRET_HEX: 'a3f1c9d2e8b7a6f5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9',
        PORTAL_WEBHOOK_SECRET_HEX_OK: generateWebhookSecret(),
      },
      log: (entry) => logs.push(entry),
    });
    expect(result).toMatchObject({ delivered: 0, retried: 3 });
    expect(hooks.received.filter((r) => /secret|missing/.test(r.path))).toEqual([]);
    const byUrl = Object.fromEntries((await deliveries(tenant)).map((d) => [d.endpoint_url, d]));
    expect(byUrl[hooks.url('/hex-secret')]).toMatchObject({
      state: 'pending',
      last_error:
        'environment variable PORTAL_WEBHOOK_SECRET_HEX is not a Standard Webhooks secret (it does not start with whsec_ (a Standard Webhooks secret is whsec_ followed by the base64 of 24 to 64 random bytes)): the delivery cannot be signed; make one with portal webhooks secret',
    });
    expect(byUrl[hooks.url('/short-secret')].last_error).toBe(
      'the secret in the tenant file is not a Standard Webhooks secret (it decodes to 5 bytes (a Standard Webhooks secret is whsec_ followed by the base64 of 24 to 64 random bytes)): the delivery cannot be signed; make one with portal webhooks secret',
    );
    expect(byUrl[hooks.url('/old-missing')].last_error).toBe(
      'environment variable PORTAL_WEBHOOK_SECRET_GONE (previousSecretEnv) is not set: the delivery cannot be signed',
    );
    expect(logs).toHaveLength(3);
    expect(logs.every((entry) => entry.msg === 'webhook delivery attempt failed')).toBe(true);
    // The log names the variable, never its value.
    expect(JSON.stringify(logs)).not.toContain('a3f1c9d2e8b7');
  });

  it('runs the same recipe as the README shows, word for word', () => {
    const readme = readFileSync(README, 'utf8');
    const section = readme.slice(readme.indexOf('### Verifying a delivery'));
    const block = /```js\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toBe(readFileSync(RECIPE_FILE, 'utf8'));
  });

  it('retries after a 500 with back-off and then delivers the same event id and body', async () => {
    const tenant = tenantWith([{ url: hooks.url('/flaky'), secret: SECRET }]);
    let calls = 0;
    hooks.answerWith((request) =>
      request.path === '/flaky' && ++calls === 1 ? { status: 500 } : { status: 200 },
    );
    const id = await record(tenant, 'retry me');
    // A back-off a busy machine's round cannot outlast (FAST's 50 ms was), still short to wait for.
    const backOff = { ...FAST, retryBaseMs: 1_000, maxRetryDelayMs: 1_000 };
    expect(await deliverWebhooks(db, [tenant], backOff)).toMatchObject({ delivered: 0, retried: 1 });
    expect(await deliveries(tenant)).toEqual([
      expect.objectContaining({ state: 'pending', attempts: 1, last_status: 500, last_error: 'HTTP 500' }),
    ]);
    // Not due yet: the back-off holds it.
    expect(await deliverWebhooks(db, [tenant], backOff)).toMatchObject({ delivered: 0, retried: 0 });
    await sleep(1_100);
    expect(await deliverWebhooks(db, [tenant], backOff)).toMatchObject({ delivered: 1 });
    const attempts = hooks.received.filter((r) => r.path === '/flaky');
    expect(attempts.map((r) => r.headers['webhook-id'])).toEqual([id, id]);
    // A new timestamp per attempt, the same id: each attempt verifies on its own.
    for (const attempt of attempts)
      expect(verifyPortalEvent(attempt.body, attempt.headers, SECRET)).toMatchObject({ id });
    expect(attempts[1].body).toBe(attempts[0].body);
    expect(await deliveries(tenant)).toEqual([
      expect.objectContaining({ state: 'delivered', attempts: 2, last_status: 200, last_error: null }),
    ]);
  });

  it('counts a time-out, a refused connection and a missing secret variable as failures, and gives up after the retry window', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/gone`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    hooks.answerWith((request) =>
      request.path === '/slow' ? { status: 200, delayMs: 1_000 } : { status: 200 },
    );
    const tenant = tenantWith([
      { url: hooks.url('/slow'), secret: SECRET },
      { url: deadUrl, secret: SECRET },
      { url: hooks.url('/unsigned'), secretEnv: 'PORTAL_WEBHOOK_SECRET_NOT_SET' },
    ]);
    await record(tenant, 'doomed');
    // Retries 300 ms apart within a window of 600 ms (a day by default): the second failure is the last.
    const options = {
      ...FAST,
      retryBaseMs: 300,
      maxRetryDelayMs: 300,
      timeoutMs: 200,
      retryForMs: 600,
      env: {},
    };
    expect(await deliverWebhooks(db, [tenant], options)).toMatchObject({ retried: 3, failed: 0 });
    const byUrl = Object.fromEntries((await deliveries(tenant)).map((d) => [d.endpoint_url, d]));
    expect(byUrl[hooks.url('/slow')]).toMatchObject({
      state: 'pending',
      last_status: null,
      last_error: 'no answer within 200 ms',
    });
    expect(byUrl[deadUrl]).toMatchObject({ state: 'pending', last_status: null, last_error: 'ECONNREFUSED' });
    expect(byUrl[hooks.url('/unsigned')]).toMatchObject({
      state: 'pending',
      last_error:
        'environment variable PORTAL_WEBHOOK_SECRET_NOT_SET is not set: the delivery cannot be signed',
    });
    expect(hooks.ids('/unsigned')).toEqual([]);
    await sleep(350);
    expect(await deliverWebhooks(db, [tenant], options)).toMatchObject({ failed: 3 });
    expect((await deliveries(tenant)).map((d) => d.state)).toEqual(['failed', 'failed', 'failed']);
    expect(await deliverWebhooks(db, [tenant], options)).toMatchObject({
      delivered: 0,
      retried: 0,
      failed: 0,
    });
  });

  it('gives up the deliveries of an endpoint the tenant file no longer lists', async () => {
    const tenant = tenantWith([{ url: hooks.url('/removed'), secret: SECRET }]);
    await record(tenant, 'late');
    const { dispatched } = await deliverWebhooks(
      db,
      [{ ...tenant, webhooks: [{ url: hooks.url('/other'), secret: SECRET }] }],
      FAST,
      () => true,
    );
    expect(dispatched).toBe(1);
    // Dispatched to /other (the file of that moment); a tenant without it leaves that row undeliverable.
    expect(await deliverWebhooks(db, [tenant], FAST)).toMatchObject({ failed: 1 });
    expect(await deliveries(tenant)).toEqual([
      expect.objectContaining({
        state: 'failed',
        last_error: 'the endpoint is no longer in the tenant file',
      }),
    ]);
  });
});

describe('a 410 Gone answer', () => {
  it('disables the endpoint: recorded, logged, and nothing more is sent to it, while the other endpoints go on', async () => {
    hooks.answerWith((request) => (request.path === '/unsubscribed' ? { status: 410 } : { status: 200 }));
    const gone = hooks.url('/unsubscribed');
    const tenant = tenantWith([
      { url: gone, secret: SECRET },
      { url: hooks.url('/still-listening'), secret: SECRET },
    ]);
    const first = await record(tenant, 'first');
    const second = await record(tenant, 'second');
    const logs: Array<Record<string, unknown>> = [];
    // One delivery per batch: the first 410 settles the endpoint before its second delivery is due.
    const options = { ...FAST, batchSize: 1, log: (entry: Record<string, unknown>) => logs.push(entry) };
    await deliverWebhooks(db, [tenant], options);
    // Both events' rows were written at one moment, so either may have gone first: one request only.
    expect(hooks.ids('/unsubscribed')).toHaveLength(1);
    const [hit] = hooks.ids('/unsubscribed');
    const spared = hit === first ? second : first;
    expect(hooks.ids('/still-listening').sort()).toEqual([first, second].sort());
    const toGone = Object.fromEntries(
      (await deliveries(tenant)).filter((d) => d.endpoint_url === gone).map((d) => [d.event_id, d]),
    );
    expect(toGone[hit]).toMatchObject({
      state: 'failed',
      attempts: 1,
      last_status: 410,
      last_error: GONE_ERROR,
    });
    expect(toGone[spared]).toMatchObject({
      state: 'failed',
      attempts: 0,
      last_status: null,
      last_error: DISABLED_ENDPOINT_ERROR,
    });
    expect(await listDisabledEndpoints(db, { tenantId: tenant.id })).toEqual([
      { tenantId: tenant.id, url: gone, status: 410, eventId: hit, disabledAt: expect.any(String) },
    ]);
    expect(logs).toEqual([
      expect.objectContaining({
        level: 'error',
        msg: expect.stringContaining('webhook endpoint disabled: it answered 410 Gone'),
        tenant: tenant.id,
        event: hit,
        url: gone,
      }),
    ]);

    // Later events: dispatched, failed at once for the disabled endpoint, delivered to the other.
    const third = await record(tenant, 'third');
    expect(await deliverWebhooks(db, [tenant], options)).toMatchObject({
      dispatched: 1,
      delivered: 1,
      failed: 1,
    });
    expect(hooks.ids('/unsubscribed')).toEqual([hit]);
    expect(hooks.ids('/still-listening').slice(2)).toEqual([third]);
    expect(
      (await deliveries(tenant)).find((d) => d.event_id === third && d.endpoint_url === gone),
    ).toMatchObject({
      state: 'failed',
      attempts: 0,
      last_error: DISABLED_ENDPOINT_ERROR,
    });

    // Another instance, or a restart, knows it too: the state is in the database.
    const otherInstance = await openDatabase({ url, poolSize: 2 });
    try {
      await record(tenant, 'fourth');
      expect(await deliverWebhooks(otherInstance, [tenant], options)).toMatchObject({
        delivered: 1,
        failed: 1,
      });
      expect(hooks.ids('/unsubscribed')).toEqual([hit]);
    } finally {
      await otherInstance.close();
    }
  });

  it('delivers again once an operator re-enables the endpoint, or to the new URL the tenant file names', async () => {
    let goneFor = new Set(['/moved-away', '/re-enabled']);
    hooks.answerWith((request) => (goneFor.has(request.path) ? { status: 410 } : { status: 200 }));
    const tenant = tenantWith([
      { url: hooks.url('/moved-away'), secret: SECRET },
      { url: hooks.url('/re-enabled'), secret: SECRET },
    ]);
    const first = await record(tenant, 'before');
    await deliverWebhooks(db, [tenant], FAST);
    expect((await listDisabledEndpoints(db, { tenantId: tenant.id })).map((d) => d.url).sort()).toEqual(
      [hooks.url('/moved-away'), hooks.url('/re-enabled')].sort(),
    );

    // The receiver is back; the operator turns one endpoint on, the tenant file moves the other.
    goneFor = new Set();
    expect(await enableEndpoint(db, tenant.id, hooks.url('/re-enabled'))).toBe(true);
    expect(await enableEndpoint(db, tenant.id, hooks.url('/re-enabled'))).toBe(false);
    const moved = {
      ...tenant,
      webhooks: [{ url: hooks.url('/moved-here'), secret: SECRET }, tenant.webhooks![1]],
    };
    const next = await record(tenant, 'after');
    expect(await deliverWebhooks(db, [moved], FAST)).toMatchObject({ delivered: 2, failed: 0 });
    expect(hooks.ids('/re-enabled')).toEqual([first, next]);
    expect(hooks.ids('/moved-here')).toEqual([next]);
    expect(hooks.ids('/moved-away')).toEqual([first]);
    // The old URL stays disabled (were it named again, it would still get nothing).
    expect((await listDisabledEndpoints(db, { tenantId: tenant.id })).map((d) => d.url)).toEqual([
      hooks.url('/moved-away'),
    ]);
  });
});

describe('restarts and several instances', () => {
  it('delivers once when the deliverer is stopped mid-request and a new one starts', async () => {
    const tenant = tenantWith([{ url: hooks.url('/mid-flight'), secret: SECRET }]);
    hooks.answerWith((request) =>
      request.path === '/mid-flight' ? { status: 200, delayMs: 300 } : { status: 200 },
    );
    const id = await record(tenant, 'in flight');
    const stopFirst = startWebhookDeliverer(db, [tenant], { ...FAST, intervalMs: 20 });
    await until(() => hooks.ids('/mid-flight').length === 1);
    // The request is under way (the receiver answers after 300 ms): stop waits for it and records it.
    await stopFirst();
    expect(await deliveries(tenant)).toEqual([expect.objectContaining({ state: 'delivered', attempts: 1 })]);
    const stopSecond = startWebhookDeliverer(db, [tenant], { ...FAST, intervalMs: 20 });
    await sleep(200);
    await stopSecond();
    expect(hooks.ids('/mid-flight')).toEqual([id]);
  });

  it('takes over a delivery claimed by an instance that died, once its lease has run out', async () => {
    const tenant = tenantWith([{ url: hooks.url('/orphan'), secret: SECRET }]);
    hooks.answerWith(() => ({ status: 200 }));
    const id = await record(tenant, 'orphaned');
    // A dispatching round without attempts, then a claim by an instance that never answers.
    await deliverWebhooks(db, [tenant], FAST, () => true);
    expect(await claimDueDeliveries(db, { tenantIds: [tenant.id], limit: 10, leaseMs: 400 })).toHaveLength(1);
    expect(await deliverWebhooks(db, [tenant], FAST)).toMatchObject({ delivered: 0 });
    expect(hooks.ids('/orphan')).toEqual([]);
    await sleep(450);
    expect(await deliverWebhooks(db, [tenant], FAST)).toMatchObject({ delivered: 1 });
    expect(hooks.ids('/orphan')).toEqual([id]);
    expect(await deliveries(tenant)).toEqual([expect.objectContaining({ state: 'delivered', attempts: 2 })]);
  });

  it('sends each event exactly once per endpoint with two instances delivering at the same time', async () => {
    const tenant = tenantWith([
      { url: hooks.url('/twin-a'), secret: SECRET },
      { url: hooks.url('/twin-b'), secret: SECRET },
    ]);
    hooks.answerWith((request) => ({ status: 200, delayMs: request.path.startsWith('/twin') ? 15 : 0 }));
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push(await record(tenant, `event ${i}`));
    const second = await openDatabase({ url, poolSize: 5 });
    closers.push(() => second.close());
    const options = { ...FAST, intervalMs: 10, batchSize: 4 };
    const stops = [
      startWebhookDeliverer(db, [tenant], options),
      startWebhookDeliverer(second, [tenant], options),
    ];
    await until(
      async () => (await deliveries(tenant)).filter((d) => d.state === 'delivered').length === 50,
      20_000,
    );
    await Promise.all(stops.map((stop) => stop()));
    expect(hooks.ids('/twin-a').sort()).toEqual([...ids].sort());
    expect(hooks.ids('/twin-b').sort()).toEqual([...ids].sort());
    expect((await deliveries(tenant)).every((d) => d.attempts === 1)).toBe(true);
  });
});

describe('outbound requests go to public addresses only (docs/going-live.md "Outbound requests")', () => {
  /** A receiver on every local address of this machine ('::' takes IPv4 too), counting connections. */
  async function internalService() {
    const requests: string[] = [];
    let connections = 0;
    const server = createServer((req, res) => {
      requests.push(req.url ?? '');
      req.resume();
      res.writeHead(204).end();
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) =>
      server
        .once('error', () => server.listen(0, '0.0.0.0', resolve))
        .listen({ port: 0, host: '::', ipv6Only: false }, resolve),
    );
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    );
    return {
      port: (server.address() as AddressInfo).port,
      requests,
      connections: () => connections,
    };
  }

  it('refuses every notation of an address on this machine or its network, records the delivery as failed with the reason at once, and connects to nothing', async () => {
    const internal = await internalService();
    const loopback = '127.0.0.1 is a loopback address (127.0.0.0/8)';
    const mapped =
      '::ffff:7f00:1 is an IPv4-mapped address (::ffff:0:0/96) of 127.0.0.1, a loopback address (127.0.0.0/8)';
    const attacks: Array<[host: string, reason: string]> = [
      ['127.0.0.2', '127.0.0.2 is a loopback address (127.0.0.0/8)'],
      ['0.0.0.0', '0.0.0.0 is an unspecified ("this network") address (0.0.0.0/8)'],
      ['127.1', loopback],
      ['0x7f.1', loopback],
      ['2130706433', loopback],
      ['0177.0.0.1', loopback],
      ['[::1]', '::1 is the loopback address (::1/128)'],
      ['[::ffff:127.0.0.1]', mapped],
      ['[::ffff:7f00:1]', mapped],
      [
        '[64:ff9b::7f00:1]',
        '64:ff9b::7f00:1 is a NAT64 address (64:ff9b::/96) of 127.0.0.1, a loopback address (127.0.0.0/8)',
      ],
      [
        '[2002:7f00:1::]',
        '2002:7f00:1:: is a 6to4 address (2002::/16) of 127.0.0.1, a loopback address (127.0.0.0/8)',
      ],
      ['[fd00::1]', 'fd00::1 is a unique local (private) address (fc00::/7)'],
      ['10.0.0.1', '10.0.0.1 is a private address (10.0.0.0/8)'],
      [
        '169.254.169.254',
        '169.254.169.254 is a link-local address, where cloud metadata services answer (169.254.0.0/16)',
      ],
      ['localhost', 'localhost is a name of this machine (localhost)'],
    ];
    const endpoints = attacks.map(([host, reason]) => ({
      url: `https://${host}:${internal.port}/hook`,
      reason: `${reason}: requests go to public addresses only`,
    }));
    const tenant = tenantWith(endpoints.map(({ url }) => ({ url, secret: SECRET })));
    await record(tenant, 'stolen');
    const logs: Array<Record<string, unknown>> = [];
    const result = await deliverWebhooks(db, [tenant], { ...GUARDED, log: (entry) => logs.push(entry) });
    expect(result).toMatchObject({ delivered: 0, retried: 0, failed: endpoints.length });
    const byUrl = Object.fromEntries((await deliveries(tenant)).map((d) => [d.endpoint_url, d]));
    for (const { url, reason } of endpoints)
      expect(byUrl[url], url).toMatchObject({
        state: 'failed',
        attempts: 1,
        last_status: null,
        last_error: reason,
      });
    expect(internal.connections()).toBe(0);
    expect(internal.requests).toEqual([]);
    expect(logs.map((entry) => [entry.msg, entry.error])).toEqual(
      expect.arrayContaining(endpoints.map(({ reason }) => ['webhook delivery given up', reason])),
    );
    // Nothing is attempted again.
    expect(await deliverWebhooks(db, [tenant], GUARDED)).toMatchObject({
      delivered: 0,
      retried: 0,
      failed: 0,
    });
  });

  it('refuses a name that resolves to a private address, and tries again later (DNS may be fixed)', async () => {
    const internal = await internalService();
    const url = `https://crm.rebound.example:${internal.port}/hook`;
    const tenant = tenantWith([{ url, secret: SECRET }]);
    await record(tenant, 'rebound');
    const result = await deliverWebhooks(db, [tenant], {
      ...GUARDED,
      ...ONE_ATTEMPT,
      resolveHost: async () => [{ address: '127.0.0.2', family: 4 }],
    });
    expect(result).toMatchObject({ delivered: 0, retried: 1 });
    expect(await deliveries(tenant)).toEqual([
      expect.objectContaining({
        state: 'pending',
        last_error:
          'crm.rebound.example resolves to no public address (127.0.0.2 is a loopback address (127.0.0.0/8)): requests go to public addresses only',
      }),
    ]);
    expect(internal.connections()).toBe(0);
  });

  it('does not follow a redirect to a private address: the 3xx is a failed attempt, and its target gets nothing', async () => {
    const internal = await internalService();
    hooks.answerWith(() => ({ status: 200 }));
    const redirecting = createServer((req, res) => {
      req.resume();
      res.writeHead(307, { location: `http://127.0.0.2:${internal.port}/internal` }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => redirecting.close(() => resolve())));
    const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/moved`;
    const tenant = tenantWith([{ url, secret: SECRET }]);
    await record(tenant, 'redirected');
    // Even with private addresses allowed (the first hop is on this machine), no redirect is followed.
    expect(await deliverWebhooks(db, [tenant], { ...FAST, ...ONE_ATTEMPT })).toMatchObject({
      delivered: 0,
      retried: 1,
    });
    expect(await deliveries(tenant)).toEqual([
      expect.objectContaining({
        state: 'pending',
        last_status: 307,
        last_error: 'HTTP 307 (redirects are not followed)',
      }),
    ]);
    expect(internal.connections()).toBe(0);
  });
});
