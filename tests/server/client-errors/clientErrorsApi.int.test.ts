/**
 * POST /api/client-errors (server/client-errors, portal-core.md §9 "Error-reporting sample rate";
 * docs/going-live.md "Operations"): a browser's report is logged as one `client error` line and
 * counted in portal_client_errors_total, anonymous, on every tenant; what it carries is scrubbed
 * again on the server whatever the browser sent; a malformed report is refused, a report without
 * the XSRF header too, and a client past its budget gets 429 with Retry-After and no log line.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { createMailer } from '../../../server/mail/mailer';
import { parseTrustProxy } from '../../../server/http/trustProxy';
import { clientErrors } from '../../../server/metrics/registry';
import {
  CLIENT_ERROR_REPORTS_PER_MINUTE,
  CLIENT_ERROR_REPORTS_PER_TENANT_MINUTE,
} from '../../../server/client-errors/clientErrorRoutes';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';

const tenant = makeServerTenant({
  id: uniqueTenantId('client-errors'),
  name: 'Verlag Fehler',
  hosts: ['client-errors.test'],
  defaultLocale: 'de-DE',
  locales: ['de-DE', 'en-GB'],
  features: [],
});
const folder = mkdtempSync(path.join(tmpdir(), 'portal-client-errors-'));
const logged: Array<Record<string, unknown>> = [];
let clock = new Date('2026-11-29T12:00:00Z');
let baseUrl: string;
let close: () => Promise<void>;

const report = {
  kind: 'render',
  name: 'TypeError',
  message: "Cannot read properties of undefined (reading 'map')",
  stack: 'TypeError: Cannot read properties of undefined\n    at OrdersList (index-DS7FvjgC.js:1:23456)',
  path: '/orders',
};

const clientErrorLines = () => logged.filter((entry) => entry.msg === 'client error');
const counted = async (kind: string) =>
  (await clientErrors.get()).values.find(
    (value) => value.labels.kind === kind && value.labels.tenant === tenant.id,
  )?.value ?? 0;

/** A browser of its own address (the app trusts X-Forwarded-For from the loopback proxy here). */
function browser(ip: string) {
  const client = browserLikeClient(baseUrl, `/t/${tenant.id}/api`);
  return {
    // Any first answer hands out the XSRF cookie, as the page's own load does.
    ready: () => client.get('/subscriptions'),
    send: (body: unknown) => client.post('/client-errors', body, { 'x-forwarded-for': ip }),
  };
}

beforeAll(async () => {
  const db = await getTestDatabase();
  const { app } = createApp({
    db,
    tenants: [tenant],
    distDir: path.join(folder, 'no-dist'),
    mailer: createMailer({ outboxDir: folder }),
    log: (entry) => logged.push(entry),
    now: () => clock,
    trustProxy: parseTrustProxy('loopback'),
  });
  ({ baseUrl, close } = await listen(app));
});

afterAll(async () => close?.());

describe('POST /api/client-errors', () => {
  it('logs a signed-out browser’s report as one line and counts it by kind', async () => {
    const before = await counted('render');
    const anna = browser('203.0.113.10');
    await anna.ready();
    const answer = await anna.send(report);
    expect(answer.status).toBe(204);
    expect(clientErrorLines().at(-1)).toMatchObject({
      level: 'warn',
      tenant: tenant.id,
      kind: 'render',
      name: 'TypeError',
      message: report.message,
      stack: report.stack,
      path: '/orders',
    });
    expect(await counted('render')).toBe(before + 1);
  });

  it('scrubs what the browser did not: e-mail addresses, long numbers, the path’s numbers and query', async () => {
    const client = browser('203.0.113.11');
    await client.ready();
    const answer = await client.send({
      ...report,
      kind: 'rejection',
      message: 'no account for anna.schmidt@technikwelt.example, order 4000123456',
      stack: 'at anna.schmidt@technikwelt.example',
      path: '/subscriptions/4000123456?p=token',
    });
    expect(answer.status).toBe(204);
    expect(clientErrorLines().at(-1)).toMatchObject({
      kind: 'rejection',
      message: 'no account for [email], order [number]',
      stack: 'at [email]',
      path: '/subscriptions/:param',
    });
    expect(JSON.stringify(logged)).not.toContain('anna.schmidt');
  });

  it('refuses a malformed report with 400 and logs no report', async () => {
    const client = browser('203.0.113.12');
    await client.ready();
    const lines = clientErrorLines().length;
    for (const body of [
      { ...report, kind: 'anything' },
      { ...report, message: 'x'.repeat(301) },
      { ...report, extra: true },
      { kind: 'render' },
    ]) {
      const answer = await client.send(body);
      expect(answer.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(answer.body.error.code).toBe('validation_failed');
    }
    const notJson = await client.send('not json at all');
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.code).toBe('malformed_request');
    expect(clientErrorLines()).toHaveLength(lines);
  });

  it('refuses a report without the XSRF header', async () => {
    const response = await fetch(`${baseUrl}/t/${tenant.id}/api/client-errors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(report),
    });
    expect(response.status).toBe(403);
  });

  it('takes a budget of reports per client and minute, then answers 429 with Retry-After and logs nothing', async () => {
    const flood = browser('198.51.100.7');
    await flood.ready();
    for (let i = 0; i < CLIENT_ERROR_REPORTS_PER_MINUTE; i += 1)
      expect((await flood.send({ ...report, message: `error ${i}` })).status).toBe(204);
    const lines = clientErrorLines().length;
    const refused = await flood.send(report);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(refused.body.error.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(clientErrorLines()).toHaveLength(lines);
    // Another client is not held back by it, and the next minute the first may report again.
    const other = browser('198.51.100.8');
    await other.ready();
    expect((await other.send(report)).status).toBe(204);
    clock = new Date(clock.getTime() + 60_000);
    expect((await flood.send(report)).status).toBe(204);
  });

  it('takes at most a budget of reports per tenant and minute, from however many clients', async () => {
    clock = new Date(clock.getTime() + 60_000);
    let sent = 0;
    for (let client = 0; sent < CLIENT_ERROR_REPORTS_PER_TENANT_MINUTE; client += 1) {
      const sender = browser(`192.0.2.${client + 1}`);
      await sender.ready();
      for (
        let i = 0;
        i < CLIENT_ERROR_REPORTS_PER_MINUTE && sent < CLIENT_ERROR_REPORTS_PER_TENANT_MINUTE;
        i += 1
      ) {
        expect((await sender.send(report)).status).toBe(204);
        sent += 1;
      }
    }
    const fresh = browser('203.0.113.99');
    await fresh.ready();
    const lines = clientErrorLines().length;
    expect((await fresh.send(report)).status).toBe(429);
    expect(clientErrorLines()).toHaveLength(lines);
  });
});
