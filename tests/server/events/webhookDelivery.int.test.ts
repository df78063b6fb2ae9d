/**
 * The webhook deliverer (issue 8 "Account events"; proof: "delivery to a local receiver, retry
 * after a 500, signature verifiable with the documented recipe, restart during delivery delivers
 * once"), against a receiver listening in this test and the real database.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database';
import { openDatabase } from '../../../server/db/openDatabase';
import { recordEvent } from '../../../server/events/recordEvent';
import {
  deliverWebhooks,
  startWebhookDeliverer,
  type WebhookTenant,
} from '../../../server/events/webhookDeliverer';
import { claimDueDeliveries } from '../../../server/store/accountEventStore';
import { createTestDatabase, uniqueTenantId } from '../../support/database';

/**
 * The verification recipe of the README ("Account events and webhooks"), word for word: what a
 * publisher's receiver runs on the raw body before it trusts a delivery.
 */
function verifyPortalSignature(
  rawBody: string,
  header: string,
  secret: string,
  toleranceSeconds = 300,
): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2)));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds)
    return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
  return (
    typeof parts.v1 === 'string' &&
    parts.v1.length === expected.length &&
    timingSafeEqual(Buffer.from(parts.v1), Buffer.from(expected))
  );
}

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
      received.filter((r) => r.path === path).map((r) => String(r.headers['portal-event-id'])),
  };
}

const SECRET = 'test-secret-0123456789';
let db: Database;
let url: string;
let hooks: ReturnType<typeof receiver>;
const closers: Array<() => Promise<void>> = [];

/** Fast settings: retries after 50 ms, doubling. */
const FAST = { retryBaseMs: 50, maxRetryDelayMs: 200, leaseMs: 5_000 };

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

    const request = hooks.received.find(
      (r) => r.path === '/all' && r.headers['portal-event-id'] === attribute,
    )!;
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['portal-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
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

  it('signs so that the README recipe verifies the raw body, and refuses another secret or a changed body', async () => {
    hooks.answerWith(() => ({ status: 200 }));
    const tenant = tenantWith([{ url: hooks.url('/signed'), secretEnv: 'PORTAL_WEBHOOK_SECRET_TEST' }]);
    const id = await record(tenant, 'signed');
    await deliverWebhooks(db, [tenant], {
      ...FAST,
      env: { PORTAL_WEBHOOK_SECRET_TEST: 'from-the-environment-42' },
    });
    const request = hooks.received.find((r) => r.headers['portal-event-id'] === id)!;
    const header = String(request.headers['portal-signature']);
    expect(verifyPortalSignature(request.body, header, 'from-the-environment-42')).toBe(true);
    expect(verifyPortalSignature(request.body, header, SECRET)).toBe(false);
    expect(
      verifyPortalSignature(request.body.replace('signed', 'forged'), header, 'from-the-environment-42'),
    ).toBe(false);
    const old = header.replace(/^t=\d+/, `t=${Math.floor(Date.now() / 1000) - 3600}`);
    expect(verifyPortalSignature(request.body, old, 'from-the-environment-42')).toBe(false);
  });

  it('retries after a 500 with back-off and then delivers the same event id and body', async () => {
    const tenant = tenantWith([{ url: hooks.url('/flaky'), secret: SECRET }]);
    let calls = 0;
    hooks.answerWith((request) =>
      request.path === '/flaky' && ++calls === 1 ? { status: 500 } : { status: 200 },
    );
    const id = await record(tenant, 'retry me');
    expect(await deliverWebhooks(db, [tenant], FAST)).toMatchObject({ delivered: 0, retried: 1 });
    expect(await deliveries(tenant)).toEqual([
      expect.objectContaining({ state: 'pending', attempts: 1, last_status: 500, last_error: 'HTTP 500' }),
    ]);
    // Not due yet: the back-off holds it.
    expect(await deliverWebhooks(db, [tenant], FAST)).toMatchObject({ delivered: 0, retried: 0 });
    await sleep(80);
    expect(await deliverWebhooks(db, [tenant], FAST)).toMatchObject({ delivered: 1 });
    const attempts = hooks.received.filter((r) => r.path === '/flaky');
    expect(attempts.map((r) => r.headers['portal-event-id'])).toEqual([id, id]);
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
