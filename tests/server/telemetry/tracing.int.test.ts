/**
 * Traces (docs/going-live.md "Operations"): with the OpenTelemetry SDK started before express and pg load, a
 * request's trace is named by its route template and holds its database spans, its JSON log lines
 * carry its trace id, a request's traceparent is continued, the sampler's decision is taken before
 * the instrumentations start, and
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
import {
  requestSampling,
  startTracing,
  tracingWanted,
  type Tracing,
} from '../../../server/telemetry/tracing';

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
    // Named by the route template, never the path with its tenant id.
    expect(server!.name).toBe('GET /t/:tenantId/operator/v1/changes');
    expect(server!.attributes['http.route']).toBe('/t/:tenantId/operator/v1/changes');
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

  it('keeps of an address what the request log keeps: no query value, download key, e-mail address or client address', async () => {
    exporter.reset();
    const licence = `/t/${tenantId}/operator/v1/licences/3024279679269~4279679269~julia.koch@example.com`;
    await fetch(`${baseUrl}${licence}`, { headers: { authorization: `Bearer ${writer}` } });
    await fetch(`${baseUrl}/t/${tenantId}/api/files/SECRET-DOWNLOAD-KEY`);
    await fetch(`${baseUrl}/t/${tenantId}/api/opt-ins/confirm/state?token=SECRET-TOKEN&lang=de`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const servers = exporter
      .getFinishedSpans()
      .filter((span) => span.instrumentationScope.name === '@opentelemetry/instrumentation-http');
    const paths = servers.map((span) => span.attributes['url.path']);
    expect(paths).toEqual(
      expect.arrayContaining([
        `/t/${tenantId}/operator/v1/licences/3024279679269~4279679269~…`,
        `/t/${tenantId}/api/files/…`,
        `/t/${tenantId}/api/opt-ins/confirm/state`,
      ]),
    );
    expect(servers.map((span) => span.attributes['url.query'])).toContain('token=…&lang=…');
    const everything = JSON.stringify(servers.map((span) => span.attributes));
    // Nor who asked (the request log has no client address either).
    for (const span of servers)
      expect([span.attributes['client.address'], span.attributes['network.peer.address']]).toEqual([
        '…',
        '…',
      ]);
    // (The server's own address, from the Host header, is no one's.)
    const clientSide = servers.map(({ attributes }) => ({ ...attributes, 'server.address': undefined }));
    expect(JSON.stringify(clientSide)).not.toContain('127.0.0.1');
    for (const secret of ['julia.koch', 'SECRET-DOWNLOAD-KEY', 'SECRET-TOKEN'])
      expect(everything).not.toContain(secret);
    // Nor does the request log.
    const logged = JSON.stringify(lines);
    for (const secret of ['julia.koch', 'SECRET-DOWNLOAD-KEY', 'SECRET-TOKEN'])
      expect(logged).not.toContain(secret);
  });

  it("continues a caller's sampled trace", async () => {
    exporter.reset();
    const caller = '4bf92f3577b34da6a3ce929d0e0e4736';
    const answer = await fetch(`${baseUrl}/t/${tenantId}/operator/v1/changes?limit=1`, {
      headers: { authorization: `Bearer ${writer}`, traceparent: `00-${caller}-00f067aa0ba902b7-01` },
    });
    expect(answer.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const server = exporter.getFinishedSpans().find((span) => span.name.startsWith('GET /t/'));
    expect(server?.spanContext().traceId).toBe(caller);
    expect(server?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
  });

  it("leaves a request untraced when its caller's trace is not sampled, before the instrumentations see it", async () => {
    exporter.reset();
    const caller = '5bf92f3577b34da6a3ce929d0e0e4737';
    const answer = await fetch(`${baseUrl}/t/${tenantId}/operator/v1/changes?limit=2`, {
      headers: { authorization: `Bearer ${writer}`, traceparent: `00-${caller}-00f067aa0ba902b7-00` },
    });
    expect(answer.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(exporter.getFinishedSpans()).toEqual([]);
    const line = lines.findLast(
      (entry) => entry.msg === 'request' && String(entry.path).endsWith('/operator/v1/changes'),
    );
    expect(line).toBeDefined();
    expect(line?.traceId).toBeUndefined();
  });

  it('decides at the door which requests are traced, as OTEL_TRACES_SAMPLER says', () => {
    const request = (traceparent?: string) => ({ headers: traceparent ? { traceparent } : {} });
    const sampled = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const notSampled = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00';
    const always = requestSampling({})!;
    expect(always.admit(request())).toBe(true);
    expect(always.admit(request(notSampled))).toBe(false);
    const never = requestSampling({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' })!;
    expect(never.admit(request())).toBe(false);
    expect(never.admit(request(sampled))).toBe(true);
    // Not parent-based: the caller's flag does not decide.
    expect(requestSampling({ OTEL_TRACES_SAMPLER: 'always_off' })!.admit(request(sampled))).toBe(false);
    const tenth = requestSampling({
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    })!;
    let admitted = 0;
    for (let i = 0; i < 10_000; i++) if (tenth.admit(request())) admitted++;
    expect(admitted).toBeGreaterThan(800);
    expect(admitted).toBeLessThan(1200);
    expect(tenth.admit(request(sampled))).toBe(true);
    expect(tenth.otherSpans).toEqual({ parentBased: true, ratio: 0.1 });
    // A ratio out of range is every trace, as the SDK reads it; another sampler is the SDK's own.
    expect(
      requestSampling({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '7' })!.otherSpans
        .ratio,
    ).toBe(1);
    expect(requestSampling({ OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toBeUndefined();
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
