/**
 * The Prometheus metrics (docs/going-live.md "Operations"): a request, a mail, a webhook, an acknowledgement
 * and an import move the metrics they should, read through a scrape as Prometheus reads them; and
 * after requests with e-mail addresses and ids in their paths, every label value of the scrape is
 * from a bounded set (route templates, the directory's tenants, fixed words), never a raw path, an
 * id or an address.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import type { Database } from '../../../server/db/database';
import { createMailer } from '../../../server/mail/mailer';
import { drainMailQueue } from '../../../server/mail/mailSender';
import { enqueueMail } from '../../../server/store/mailQueueStore';
import { recordEvent } from '../../../server/events/recordEvent';
import { deliverWebhooks } from '../../../server/events/webhookDeliverer';
import { importSources, fileSource } from '../../../server/operator/import/importRecords';
import { metricsScraper } from '../../../server/metrics/scrape';
import { orderSystemEntity } from '../../../server/operator/entities/orderSystemEntities';
import { createKey } from '../../../cli/commands/keys';
import { runImport } from '../../../cli/commands/import';
import { generateWebhookSecret } from '../../../tenant/webhookSecret';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { parseMetrics, sampleValue, type Sample } from './parseMetrics';

const acme = makeServerTenant({
  id: uniqueTenantId('metrics-acme'),
  name: 'Verlag Acme',
  hosts: ['metrics-acme.test'],
  defaultLocale: 'de-DE',
  locales: ['de-DE'],
  features: [],
});
const folder = mkdtempSync(path.join(tmpdir(), 'portal-metrics-'));
/** The receiver of these tests is on 127.0.0.1: only tests may pass allowPrivateAddresses. */
const LOCAL = { allowPrivateAddresses: true };
let db: Database;
let baseUrl: string;
let close: () => Promise<void>;
let scrape: () => Promise<Sample[]>;
let writer: string;
let hooks: Server;
const received: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  db = await getTestDatabase();
  const { app } = createApp({
    db,
    tenants: [acme],
    distDir: path.join(folder, 'no-dist'),
    mailer: createMailer({ outboxDir: folder }),
    metrics: true,
  });
  ({ baseUrl, close } = await listen(app));
  const read = metricsScraper(db, { cacheMs: 0 });
  scrape = async () => parseMetrics(await read());
  writer = (await createKey({ db, tenantIds: [acme.id] }, acme.id, { scopes: ['read', 'write'] })).secret;
  hooks = createServer((req, res) => {
    received.push(req.headers);
    req.resume();
    req.on('end', () => res.writeHead(200).end('ok'));
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await close?.();
  await new Promise((resolve) => hooks?.close(resolve));
});

describe('metrics', () => {
  it('counts a request by method, route template, status class and tenant, and times it', async () => {
    const labels = {
      method: 'GET',
      route: '/t/:tenantId/operator/v1/changes',
      status_class: '2xx',
      tenant: acme.id,
    };
    const before = sampleValue(await scrape(), 'portal_http_requests_total', labels);
    const answer = await fetch(`${baseUrl}/t/${acme.id}/operator/v1/changes?limit=1`, {
      headers: { authorization: `Bearer ${writer}` },
    });
    expect(answer.status).toBe(200);
    const after = await scrape();
    expect(sampleValue(after, 'portal_http_requests_total', labels)).toBe(before + 1);
    expect(sampleValue(after, 'portal_http_request_duration_seconds_count', labels)).toBe(before + 1);
    // Refused before any route matched (here: no session): counted, as `unmatched`.
    const refused = { method: 'GET', route: 'unmatched', status_class: '4xx', tenant: acme.id };
    const refusedBefore = sampleValue(after, 'portal_http_requests_total', refused);
    expect((await fetch(`${baseUrl}/t/${acme.id}/api/subscriptions/4711/complaint`)).status).toBe(401);
    expect(sampleValue(await scrape(), 'portal_http_requests_total', refused)).toBe(refusedBefore + 1);
    // Refused by the check of its path parameter: a route had matched, so under that route's template.
    const badParameter = {
      method: 'GET',
      route: '/t/:tenantId/api/files/:key',
      status_class: '4xx',
      tenant: acme.id,
    };
    expect((await fetch(`${baseUrl}/t/${acme.id}/api/files/${'k'.repeat(600)}`)).status).toBe(400);
    expect(sampleValue(await scrape(), 'portal_http_requests_total', badParameter)).toBe(1);
    const health = { method: 'GET', route: '/healthz', status_class: '2xx', tenant: 'none' };
    await fetch(`${baseUrl}/healthz`);
    expect(sampleValue(await scrape(), 'portal_http_requests_total', health)).toBe(1);
  });

  it('reads the pool, the mail queue and counts a sent mail', async () => {
    await db.transaction((tx) =>
      enqueueMail(tx, {
        tenantId: acme.id,
        to: 'anna@metrics.example',
        from: 'portal@metrics.example',
        subject: 'Hallo',
        text: 'Hallo',
      }),
    );
    const queued = await scrape();
    expect(sampleValue(queued, 'portal_mail_queue_depth')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(queued, 'portal_db_pool_connections')).toBeGreaterThan(0);
    const sent = sampleValue(queued, 'portal_mails_sent_total', { tenant: acme.id });
    await drainMailQueue(db, createMailer({ outboxDir: folder }));
    const after = await scrape();
    expect(sampleValue(after, 'portal_mails_sent_total', { tenant: acme.id })).toBe(sent + 1);
    expect(sampleValue(after, 'portal_mail_queue_depth')).toBe(0);
    expect(sampleValue(after, 'portal_database_up')).toBe(1);
  });

  it('counts a delivered webhook and shows it pending before; no traceparent without the tracing SDK', async () => {
    const tenant = {
      id: acme.id,
      webhooks: [
        {
          url: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`,
          secret: generateWebhookSecret(),
        },
      ],
    };
    await deliverWebhooks(db, [tenant], LOCAL); // earlier events of the file go out first
    const before = sampleValue(await scrape(), 'portal_webhook_attempts_total', {
      tenant: acme.id,
      outcome: 'delivered',
    });
    await db.transaction((tx) =>
      recordEvent(tx, acme.id, 'order_attribute.changed', {
        userId: 'u1',
        subscriptionId: 's1',
        orderNumber: '4000000001',
        type: 'DELIVERY_NOTE',
        value: 'x',
        previousValue: null,
      }),
    );
    const result = await deliverWebhooks(db, [tenant], LOCAL);
    expect(result.delivered).toBeGreaterThanOrEqual(1);
    const after = await scrape();
    expect(
      sampleValue(after, 'portal_webhook_attempts_total', { tenant: acme.id, outcome: 'delivered' }),
    ).toBe(before + result.delivered);
    expect(sampleValue(after, 'portal_webhook_deliveries_pending', { tenant: acme.id })).toBe(0);
    expect(received.at(-1)?.traceparent).toBeUndefined();
  });

  it('shows the change feed backlog and counts an acknowledgement', async () => {
    const eventId = await db.transaction((tx) =>
      recordEvent(tx, acme.id, 'order_attribute.changed', {
        userId: 'u1',
        subscriptionId: 's1',
        orderNumber: '4000000001',
        type: 'DELIVERY_NOTE',
        value: 'y',
        previousValue: null,
      }),
    );
    const before = await scrape();
    const waiting = sampleValue(before, 'portal_change_feed_unacknowledged', { tenant: acme.id });
    expect(waiting).toBeGreaterThanOrEqual(1);
    expect(
      sampleValue(before, 'portal_change_feed_oldest_unacknowledged_age_seconds', { tenant: acme.id }),
    ).toBeGreaterThanOrEqual(0);
    const acked = sampleValue(before, 'portal_change_acknowledgements_total', {
      tenant: acme.id,
      status: 'confirmed',
    });
    const answer = await fetch(`${baseUrl}/t/${acme.id}/operator/v1/changes/${eventId}/acknowledgement`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'confirmed' }),
    });
    expect(answer.status).toBe(201);
    const after = await scrape();
    expect(
      sampleValue(after, 'portal_change_acknowledgements_total', { tenant: acme.id, status: 'confirmed' }),
    ).toBe(acked + 1);
    expect(sampleValue(after, 'portal_change_feed_unacknowledged', { tenant: acme.id })).toBe(waiting - 1);
    expect(
      sampleValue(after, 'portal_http_requests_total', {
        method: 'POST',
        route: '/t/:tenantId/operator/v1/changes/:eventId/acknowledgement',
        status_class: '2xx',
        tenant: acme.id,
      }),
    ).toBe(1);
  });

  it('counts an import and the rows it merged, and a refused one, but not the demo seed', async () => {
    const file = path.join(folder, 'publications.ndjson');
    writeFileSync(
      file,
      `${JSON.stringify({ version: 1, publication: 'ZEIT', clientId: '202', description: 'Die Woche' })}\n`,
    );
    const publications = (name: string) => [
      fileSource(orderSystemEntity('publications')!, name, 'publications.ndjson'),
    ];
    // The demo seed imports its data too, with no `recordAs`: no order system's import.
    const seeded = path.join(folder, 'seeded.ndjson');
    writeFileSync(
      seeded,
      `${JSON.stringify({ version: 1, publication: 'SEED', clientId: '202', description: 'Demo' })}\n`,
    );
    expect((await importSources(db, acme.id, publications(seeded))).ok).toBe(true);
    for (const tenant of [acme.id, 'none'])
      expect(sampleValue(await scrape(), 'portal_imports_total', { tenant, result: 'written' })).toBe(0);
    const written = await importSources(db, acme.id, publications(file), { recordAs: 'api' });
    expect(written.ok).toBe(true);
    const bad = path.join(folder, 'bad.ndjson');
    writeFileSync(bad, 'not json\n');
    const refused = await importSources(db, acme.id, publications(bad), { recordAs: 'api' });
    expect(refused.ok).toBe(false);
    const after = await scrape();
    expect(sampleValue(after, 'portal_imports_total', { tenant: acme.id, result: 'written' })).toBe(1);
    expect(sampleValue(after, 'portal_imports_total', { tenant: acme.id, result: 'refused' })).toBe(1);
    expect(
      sampleValue(after, 'portal_import_rows_total', {
        tenant: acme.id,
        entity: 'publications',
        outcome: 'created',
      }),
    ).toBe(1);
    expect(sampleValue(after, 'portal_imports_running')).toBe(0);
  });

  it('shows the newest `portal import` of a tenant by result, read from the database, not the process', async () => {
    const started = Date.now() / 1000;
    const files = mkdtempSync(path.join(folder, 'cli-import-'));
    writeFileSync(path.join(files, 'publications.ndjson'), 'not json\n');
    expect((await runImport(db, acme.id, files)).result.ok).toBe(false);
    // The counters are this process's; the command's runs in its own and ends: the record stays.
    const refused = sampleValue(await scrape(), 'portal_import_last_finished_timestamp_seconds', {
      tenant: acme.id,
      result: 'refused',
    });
    expect(refused).toBeGreaterThanOrEqual(Math.floor(started) - 1);
    writeFileSync(
      path.join(files, 'publications.ndjson'),
      `${JSON.stringify({ version: 1, publication: 'WOCHE', clientId: '202', description: 'Die Woche' })}\n`,
    );
    expect((await runImport(db, acme.id, files)).result.ok).toBe(true);
    const written = sampleValue(await scrape(), 'portal_import_last_finished_timestamp_seconds', {
      tenant: acme.id,
      result: 'written',
    });
    // Written after the refused one: PortalImportFailed (ops/prometheus/alerts.yml) ends.
    expect(written).toBeGreaterThanOrEqual(refused!);
  });

  it('labels carry no personal data and no unbounded value, after paths with addresses and ids', async () => {
    const secrets = ['anna@metrics.example', '4711', '9d1c5b0c', 'ZEIT-2026'];
    for (const route of [
      `/t/${acme.id}/api/subscriptions/4711/business-partners/9d1c5b0c`,
      `/t/${acme.id}/api/sso-profile/anna@metrics.example`,
      `/t/${acme.id}/api/anna%40metrics.example`,
      `/t/${acme.id}/files/ZEIT-2026`,
      `/t/unknown-tenant/api/subscriptions/4711`,
      `/anna@metrics.example`,
    ])
      await fetch(`${baseUrl}${route}`);
    await fetch(`${baseUrl}/t/${acme.id}/api/login/link`, { method: 'PROPFIND' });
    const samples = await scrape();
    const routes = new Set<string>();
    for (const sample of samples) {
      for (const [name, value] of Object.entries(sample.labels)) {
        for (const secret of secrets) expect(value, `${sample.name} ${name}`).not.toContain(secret);
        expect(value).not.toMatch(/@/);
        if (name === 'tenant') expect([acme.id, 'none']).toContain(value);
        if (name === 'route') routes.add(value);
        if (name === 'method')
          expect(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'other']).toContain(value);
        if (name === 'status_class') expect(['1xx', '2xx', '3xx', '4xx', '5xx', 'other']).toContain(value);
      }
    }
    // Every route label is a template: fixed segments and :parameters, or `unmatched`.
    for (const route of routes)
      expect(route).toMatch(/^(unmatched|(\/(:?[A-Za-z][\w.-]*|v1|\{\*[a-z]+\}))+)$/);
    expect(routes).toContain('unmatched');
  });
});
