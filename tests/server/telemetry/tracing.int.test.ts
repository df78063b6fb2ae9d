/**
 * Traces (docs/going-live.md "Operations"): with the OpenTelemetry SDK started before express and pg load, a
 * request's trace holds its database spans (Express's middleware spans too under `portal serve`;
 * vitest loads express by its file path, which the loader hook does not match), its JSON log lines carry its trace id, and
 * a webhook delivery sends a W3C traceparent of its attempt's trace. Spans go to an in-memory
 * exporter instead of OTLP.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startTracing, tracingWanted, type Tracing } from '../../../server/telemetry/tracing';

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let baseUrl: string;
let close: () => Promise<void>;
let hooks: Server;
const lines: Array<Record<string, unknown>> = [];
const received: IncomingHttpHeaders[] = [];
let deliver: () => Promise<unknown>;
let tenantId: string;
let writer: string;

beforeAll(async () => {
  // First, before anything below loads express or pg: the instrumentations patch them on load.
  tracing = await startTracing({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const { createApp } = await import('../../../server/app');
  const { createMailer } = await import('../../../server/mail/mailer');
  const { jsonLogger } = await import('../../../server/http/requestLog');
  const { recordEvent } = await import('../../../server/events/recordEvent');
  const { deliverWebhooks } = await import('../../../server/events/webhookDeliverer');
  const { createKey } = await import('../../../cli/commands/keys');
  const { generateWebhookSecret } = await import('../../../tenant/webhookSecret');
  const { getTestDatabase, uniqueTenantId } = await import('../../support/database');
  const { listen } = await import('../../support/apiClient');
  const { makeServerTenant } = await import('../../support/builders');
  const db = await getTestDatabase();
  tenantId = uniqueTenantId('traced');
  const tenant = makeServerTenant({
    id: tenantId,
    name: 'Verlag Traced',
    hosts: ['traced.test'],
    defaultLocale: 'de-DE',
    locales: ['de-DE'],
    features: [],
  });
  const folder = mkdtempSync(path.join(tmpdir(), 'portal-tracing-'));
  const { app } = createApp({
    db,
    tenants: [tenant],
    distDir: path.join(folder, 'no-dist'),
    mailer: createMailer({ outboxDir: folder }),
    log: jsonLogger((line) => lines.push(JSON.parse(line))),
  });
  ({ baseUrl, close } = await listen(app));
  writer = (await createKey({ db, tenantIds: [tenantId] }, tenantId, { scopes: ['read', 'write'] })).secret;
  hooks = createServer((req, res) => {
    received.push(req.headers);
    req.resume();
    req.on('end', () => res.writeHead(200).end('ok'));
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  const webhookTenant = {
    id: tenantId,
    webhooks: [
      {
        url: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`,
        secret: generateWebhookSecret(),
      },
    ],
  };
  await db.transaction((tx) =>
    recordEvent(tx, tenantId, 'order_attribute.changed', {
      userId: 'u1',
      subscriptionId: 's1',
      orderNumber: '4000000001',
      type: 'DELIVERY_NOTE',
      value: 'x',
      previousValue: null,
    }),
  );
  deliver = () => deliverWebhooks(db, [webhookTenant], { allowPrivateAddresses: true });
});

afterAll(async () => {
  await close?.();
  await new Promise((resolve) => hooks?.close(resolve));
  await tracing?.shutdown();
});

describe('tracing', () => {
  it('is on only where the OTEL_* variables ask for it', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(
      true,
    );
    expect(tracingWanted({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    expect(
      tracingWanted({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }),
    ).toBe(false);
    expect(tracingWanted({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' })).toBe(false);
  });

  it("holds a request's HTTP and database spans in one trace, and its log line names the trace", async () => {
    exporter.reset();
    const answer = await fetch(`${baseUrl}/t/${tenantId}/operator/v1/changes?limit=5`, {
      headers: { authorization: `Bearer ${writer}` },
    });
    expect(answer.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const spans = exporter.getFinishedSpans();
    const server = spans.find(
      (span) =>
        span.instrumentationScope.name === '@opentelemetry/instrumentation-http' &&
        span.name.startsWith('GET'),
    );
    expect(server, spans.map((span) => span.name).join(', ')).toBeDefined();
    const traceId = server!.spanContext().traceId;
    const inTrace = spans.filter((span) => span.spanContext().traceId === traceId);
    const database = inTrace.filter(
      (span) => span.instrumentationScope.name === '@opentelemetry/instrumentation-pg',
    );
    expect(database.length).toBeGreaterThan(0);
    expect(database.some((span) => span.name.startsWith('pg.query'))).toBe(true);
    // No statement parameter is recorded (they hold addresses and names).
    for (const span of database) expect(span.attributes['db.postgresql.values']).toBeUndefined();
    const line = lines.find(
      (entry) => entry.msg === 'request' && String(entry.path).endsWith('/operator/v1/changes'),
    );
    expect(line?.traceId).toBe(traceId);
  });

  it('sends a W3C traceparent with a webhook delivery, of the attempt span', async () => {
    exporter.reset();
    await deliver();
    const headers = received.at(-1);
    expect(headers?.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
    const traceId = String(headers!.traceparent).split('-')[1];
    const attempt = exporter.getFinishedSpans().find((span) => span.name === 'webhook delivery');
    expect(attempt?.spanContext().traceId).toBe(traceId);
  });
});
