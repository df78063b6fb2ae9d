/**
 * The operator API answers odd input with 4xx, never 5xx (docs/going-live.md "Going live with your order
 * system"): the requests that answered 500 or 503 in the schema-driven fuzz runs, each now the
 * client's 400 naming the field, and database errors of bad input that get past the checks as
 * the client's 4xx — with 503 `database_unavailable` left to a database that is really unreachable.
 */
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express, { Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { createMailer } from '../../../server/mail/mailer';
import type { Database } from '../../../server/db/database';
import { errorMiddleware } from '../../../server/http/errors';
import { createOperatorKey } from '../../../server/operator/keys/operatorKeys';
import { operatorApi } from '../../../server/operator/operatorApi';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';

const tenant = makeServerTenant({
  id: uniqueTenantId('os-guard'),
  name: 'Verlag',
  hosts: [],
  defaultLocale: 'de-DE',
  features: [],
});
const outboxDir = mkdtempSync(path.join(tmpdir(), 'portal-os-guard-'));
let db: Database;
let baseUrl: string;
let close: () => Promise<void>;
let key: string;
let importKey: string;

/** A raw path, sent as it is written: `%00` and `%ED%A0%80` reach the server undecoded. */
async function call(route: string, init: RequestInit & { json?: unknown; key?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${init.key ?? key}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  }
  const response = await fetch(`${baseUrl}/t/${tenant.id}/operator/v1${route}`, { ...init, headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const put = (route: string, json: unknown) => call(route, { method: 'PUT', json });
const fields = (answer: { body: { error: { details?: Array<{ field: string }> } } }) =>
  (answer.body.error.details ?? []).map((d) => d.field);

const publication = { version: 1, publication: 'TAZ', clientId: '101', description: 'Die Tageszeitung' };
const partner = { version: 1, bpNumber: '1000000001', firstName: 'Anna' };
const subscription = {
  version: 1,
  id: '101000123',
  orderNumber: '4000000123',
  publication: 'TAZ',
  orderStatus: 'A',
  mixType: 'PRINT',
  roles: [{ bpNumber: '1000000001', role: 'AG' }],
};
const payment = {
  version: 1,
  subscriptionId: '101000123',
  id: 'P1',
  date: '2026-02-01',
  amount: '12.50',
  invoiceStatusCode: 'A',
};

beforeAll(async () => {
  db = await getTestDatabase();
  const { app } = createApp({
    db,
    tenants: [tenant],
    distDir: path.join(outboxDir, 'no-dist'),
    mailer: createMailer({ outboxDir }),
  });
  ({ baseUrl, close } = await listen(app));
  const now = new Date();
  key = (await createOperatorKey(db, tenant.id, { name: 'erp', scopes: ['read', 'write'], now })).secret;
  importKey = (await createOperatorKey(db, tenant.id, { name: 'sync', scopes: ['import'], now })).secret;
  expect((await put('/publications/TAZ', publication)).status).toBe(201);
  expect((await put('/business-partners/1000000001', partner)).status).toBe(201);
  expect((await put('/subscriptions/101000123', subscription)).status).toBe(201);
  expect((await put('/payments/101000123~P1', payment)).status).toBe(201);
});

afterAll(async () => close?.());

describe('path keys', () => {
  it('answers %00 in a key with 400 naming params/key, on every method', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const answer = await call('/subscriptions/1010%00123?version=2', {
        method,
        ...(method === 'PUT' ? { json: subscription } : {}),
      });
      expect(answer.status, method).toBe(400);
      expect(answer.body.error.code).toBe('validation_failed');
      expect(answer.body.error.details).toEqual([
        { field: 'params/key', message: 'must not contain NUL characters' },
      ]);
    }
  });

  it('answers a key with the wrong number of ~ parts with 400, not 503 with Retry-After', async () => {
    for (const [method, route] of [
      ['DELETE', '/payments/101000123?version=9'],
      ['GET', '/payments/101000123'],
      ['DELETE', '/payments/101000123~P1~x?version=9'],
      ['GET', '/subscriptions/101000123~x'],
    ]) {
      const answer = await call(route, { method });
      expect(answer.status, `${method} ${route}`).toBe(400);
      expect(answer.headers.get('retry-after')).toBeNull();
      expect(fields(answer)).toEqual(['params/key']);
    }
    // The payment is still there.
    expect((await call('/payments/101000123~P1')).status).toBe(200);
  });

  it('answers an unpaired surrogate, a control character and an overlong key with 400', async () => {
    for (const route of [
      '/subscriptions/%ED%A0%80x',
      '/subscriptions/1010%01',
      `/subscriptions/${'1'.repeat(65)}`,
    ]) {
      const answer = await call(route);
      expect(answer.status, route).toBe(400);
      expect(answer.body.error.code).toBe('validation_failed');
    }
  });

  it('answers a key its field refuses with 400: a business partner number longer than its char(10)', async () => {
    const answer = await call('/business-partners/12345678901');
    expect(answer.status).toBe(400);
    expect(answer.body.error.details[0].field).toBe('params/key');
  });
});

describe('records', () => {
  it('answers a version beyond bigint, 1e30 and -1 with 400 /version', async () => {
    for (const version of [2 ** 63, 1e30, -1, Number.MAX_SAFE_INTEGER + 2, '0000-01-01T00:00:00Z']) {
      const answer = await put('/payments/101000123~P1', { ...payment, version });
      expect(answer.status, String(version)).toBe(400);
      expect(fields(answer)).toEqual(['/version']);
    }
    const raw = await call('/payments/101000123~P1', {
      method: 'PUT',
      body: JSON.stringify(payment).replace('"version":1', '"version":99999999999999999999'),
      headers: { 'content-type': 'application/json' },
    });
    expect(raw.status).toBe(400);
  });

  it('answers what a check constraint refuses with 400 first: PUT /subscriptions/F31', async () => {
    // subscriptions_id_check: length(id) > 3, in the path's key and in the record alike.
    const record = { ...subscription, id: 'F31', orderNumber: '4000000999' };
    const answer = await put('/subscriptions/F31', record);
    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toEqual([
      { field: 'params/key', message: 'its id must NOT have fewer than 4 characters' },
    ]);
    const body = await put('/subscriptions/F310', record);
    expect(body.status).toBe(400);
    expect(fields(body)).toEqual(['/id']);
  });

  it('answers NUL, unpaired surrogates and numbers outside their column with 400 by pointer', async () => {
    const answer = await put('/payments/101000123~P2', {
      ...payment,
      id: 'P2',
      amount: 1e30,
      currency: 'E\u0000R',
      invoiceNumber: '\ud800',
    });
    expect(answer.status).toBe(400);
    expect(fields(answer).sort()).toEqual(['/amount', '/currency', '/invoiceNumber']);
  });

  it('answers a record nested 100,000 deep with 400, an Idempotency-Key on it too', async () => {
    const levels = 100_000;
    const text = JSON.stringify({ ...payment, id: 'P9', invoiceNumber: 'DEEP' }).replace(
      '"DEEP"',
      `${'['.repeat(levels)}${']'.repeat(levels)}`,
    );
    for (const headers of [{}, { 'idempotency-key': 'deep-1' }] as Array<Record<string, string>>) {
      const answer = await call('/payments/101000123~P9', {
        method: 'PUT',
        body: text,
        headers: { 'content-type': 'application/json', ...headers },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error.details[0]).toEqual({
        field: `/invoiceNumber${'/0'.repeat(31)}`,
        message: 'must not nest deeper than 32 levels',
      });
    }
  });

  it('answers a value unique among records with 409 duplicate_value, not 500', async () => {
    // subscriptions_tenant_client_order: the first 3 characters of id with the order number.
    const answer = await put('/subscriptions/101000999', { ...subscription, id: '101000999' });
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatchObject({
      code: 'duplicate_value',
      details: { fields: ['clientId', 'orderNumber'] },
    });
  });

  it('lists the same problems per line in an import, 422 and nothing written', async () => {
    const lines = [
      { ...payment, id: 'P3', version: 1e30 },
      { ...payment, id: 'P4', invoiceNumber: 'a\u0000' },
      { ...subscription, id: 'F31' },
    ];
    const answer = await call('/imports/payments', {
      key: importKey,
      method: 'POST',
      body: lines.map((line) => JSON.stringify(line)).join('\n'),
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(answer.status).toBe(422);
    const texts = answer.body.error.details.map((d: { text: string }) => d.text);
    expect(texts).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^payments\.ndjson:1 \/version must be/),
        'payments.ndjson:2 /invoiceNumber must not contain NUL characters',
      ]),
    );
  });

  it('takes an upload cut off by its client for the client’s doing, not a database outage', async () => {
    const { port } = new URL(baseUrl);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const line = `${JSON.stringify({ ...publication, publication: 'CUT' })}\n`;
    socket.write(
      [
        `POST /t/${tenant.id}/operator/v1/imports/publications HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        `Authorization: Bearer ${importKey}`,
        'Content-Type: application/x-ndjson',
        'Content-Length: 100000',
        '',
        line,
      ].join('\r\n'),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.resetAndDestroy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ready = await fetch(`${baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).not.toHaveProperty('lastOutage');
    expect((await call('/publications/CUT')).status).toBe(404);
  });
});

describe('deletes and queries', () => {
  it('answers ?version beyond 2^53, 1e30, -1 and words with 400 query/version', async () => {
    for (const version of ['99999999999999999999', '1e30', '-1', 'Mar%205', '9007199254740992']) {
      const answer = await call(`/payments/101000123~P1?version=${version}`, { method: 'DELETE' });
      expect(answer.status, version).toBe(400);
      expect(fields(answer)).toEqual(['query/version']);
    }
    const nul = await call('/payments/101000123~P1?version=1%00', { method: 'DELETE' });
    expect(nul.status).toBe(400);
  });

  it('answers a cursor beyond the database types and a year 0000 with 400', async () => {
    const cursor = await call('/changes?after=99999999999999999999.1');
    expect(cursor.status).toBe(400);
    expect(fields(cursor)).toEqual(['query/after']);
    const year = await call('/insights?from=0000-01-01&to=2026-01-01');
    expect(year.status).toBe(400);
    // The day after 9999-12-31 is no timestamp PostgreSQL reads back from JavaScript.
    expect((await call('/insights?from=9999-12-01&to=9999-12-31')).status).toBe(400);
  });

  it('answers insights of 20 years, and a longer period with 400 rather than megabytes of empty weeks', async () => {
    expect((await call('/insights?from=2006-01-02&to=2026-01-01')).status).toBe(200);
    const long = await call('/insights?from=1990-01-01&to=2026-01-01');
    expect(long.status).toBe(400);
    expect(fields(long)).toEqual(['query/from']);
  });
});

describe('database errors the checks let through', () => {
  /** An operator API whose one part runs a statement that fails the way bad input makes it fail. */
  async function failing(run: (db: Database) => Promise<unknown>) {
    const logged: Array<Record<string, unknown>> = [];
    const app = express();
    app.use((_req, res, next) => {
      res.locals.tenantContext = { tenant, basePath: '/' };
      next();
    });
    const part = () =>
      Router().get('/probe', async (_req, res) => {
        await run(db);
        res.json({ ok: true });
      });
    app.use(
      '/operator/v1',
      operatorApi(
        {
          db,
          log: (entry) => logged.push(entry),
          now: () => new Date(),
          mailer: createMailer({ outboxDir }),
          mailFrom: 'x@y',
        },
        [part],
      ),
    );
    app.use(errorMiddleware(() => undefined));
    const server = await listen(app);
    try {
      const response = await fetch(`${server.baseUrl}/operator/v1/probe`, {
        headers: { authorization: `Bearer ${key}` },
      });
      return { status: response.status, headers: response.headers, body: await response.json(), logged };
    } finally {
      await server.close();
    }
  }

  it('answers data exceptions and check violations with 400 validation_failed, and logs them', async () => {
    const cases = [
      (d: Database) => d.query(`select 'x'::integer`),
      (d: Database) => d.query(`select '99999999999'::integer`),
      (d: Database) => d.query(`select $1::text`, ['a\u0000b']),
      (d: Database) => d.query(`select $1::jsonb`, [JSON.stringify({ a: '\u0000' })]),
      (d: Database) => d.query(`select '0000-01-01'::date`),
      (d: Database) =>
        d.transaction((tx) =>
          tx.query(
            `insert into subscriptions (tenant_id, id, order_number, publication, order_status, mix_type)
             values ($1, 'F31', '4000000998', 'TAZ', 'A', 'P')`,
            [tenant.id],
          ),
        ),
    ];
    for (const run of cases) {
      const answer = await failing(run);
      expect(answer.status, String(run)).toBe(400);
      expect(answer.body.error.code).toBe('validation_failed');
      expect(answer.logged[0]).toMatchObject({
        level: 'warn',
        msg: 'operator API input refused by the database',
      });
    }
  });

  it('answers a statement short of a parameter with 500, never 503 with Retry-After', async () => {
    const answer = await failing((d) => d.query(`select 1 where $1::text = $2::text`, ['x']));
    expect(answer.status).toBe(500);
    expect(answer.headers.get('retry-after')).toBeNull();
    expect(answer.body.error.code).toBe('internal_error');
  });
});
