/**
 * OpenTelemetry traces (docs/going-live.md "Operations"): the Node SDK with the HTTP, Express and pg
 * instrumentations, exporting over OTLP where the standard OTEL_* variables ask for it, and not
 * loaded at all otherwise (no SDK, no hooks: the API's no-op tracer costs nothing).
 *
 * The instrumentations patch `http`, `express` and `pg` when those are loaded, so tracing must
 * start before anything imports them: `portal serve` and `portal start` start it first thing in
 * their action (see startTracingFromEnv), and `node --import ./server/telemetry/register.ts` does
 * the same for any other entry. The server's modules are ESM (tsx) importing CommonJS packages,
 * which Node's require hooks never see: import-in-the-middle's loader hook is registered for the
 * modules the instrumentations name, and only for those.
 */
import { register } from 'node:module';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Instrumentation } from '@opentelemetry/instrumentation';

type Env = Record<string, string | undefined>;

/**
 * Whether the OTEL_* variables ask for traces: an OTLP endpoint, or a traces exporter other than
 * `none` (OpenTelemetry's environment variable spec); OTEL_SDK_DISABLED=true wins.
 */
export function tracingWanted(env: Env = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter) return exporter !== 'none';
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

export interface Tracing {
  /** Sends what is buffered and stops the SDK (the server's close). */
  shutdown(): Promise<void>;
}

let started: Promise<Tracing> | undefined;

export interface TracingOptions {
  /** Replace the exporter the variables name (the tests' in-memory exporter). */
  spanProcessors?: SpanProcessor[];
  env?: Env;
}

/** Starts the SDK once per process. */
export function startTracing(options: TracingOptions = {}): Promise<Tracing> {
  started ??= start(options);
  return started;
}

async function start(options: TracingOptions): Promise<Tracing> {
  const env = options.env ?? process.env;
  const { createAddHookMessageChannel } = await import('import-in-the-middle');
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  const [
    { NodeSDK },
    { HttpInstrumentation },
    { ExpressInstrumentation, ExpressLayerType },
    { PgInstrumentation },
  ] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-express'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim();
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  // OTLP over HTTP with JSON unless the variables name another protocol or exporter, which the
  // SDK then sets up itself (http/protobuf, grpc, console, zipkin).
  const traceExporter =
    options.spanProcessors || (exporter && exporter !== 'otlp') || (protocol && protocol !== 'http/json')
      ? undefined
      : new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter();
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'publisher-portal',
    ...(options.spanProcessors ? { spanProcessors: options.spanProcessors } : {}),
    ...(traceExporter ? { traceExporter } : {}),
    // Traces only: the metrics are Prometheus' (server/metrics), the logs the JSON lines.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      ...instrumentations(env, {
        http: () =>
          new HttpInstrumentation({
            // Probes and scrapes are not worth a trace each.
            ignoreIncomingRequestHook: (request) => /^\/(healthz|readyz|metrics)\b/.test(request.url ?? ''),
            // Outgoing requests belong to a trace that is already there (a webhook attempt's span).
            requireParentforOutgoingSpans: true,
          }),
        // The route handler's span only: a span per middleware and router (some 25 a request)
        // took the read path from 1.0× to 0.3× of its requests/s (npm run bench, section 8), and
        // the HTTP span already has the route and the duration.
        express: () =>
          new ExpressInstrumentation({
            ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.ROUTER],
          }),
        // Statements within a trace (a request, a webhook attempt), not the jobs' polling every
        // second on its own; parameters are left out (they hold addresses and names).
        // Connections taken from the pool are not spans of their own either.
        pg: () =>
          new PgInstrumentation({
            requireParentSpan: true,
            ignoreConnectSpans: true,
            enhancedDatabaseReporting: false,
          }),
      }),
    ],
  });
  sdk.start();
  await waitForAllMessagesAcknowledged();
  return { shutdown: () => sdk.shutdown() };
}

/**
 * The instrumentations OTEL_NODE_ENABLED_INSTRUMENTATIONS names (a comma-separated list of
 * `http`, `express`, `pg`, as OpenTelemetry's Node auto-instrumentation reads it); all of them
 * without it.
 */
function instrumentations(
  env: Env,
  all: Record<'http' | 'express' | 'pg', () => Instrumentation>,
): Instrumentation[] {
  const wanted = env.OTEL_NODE_ENABLED_INSTRUMENTATIONS?.split(',').map((name) => name.trim());
  return (Object.keys(all) as Array<keyof typeof all>)
    .filter((name) => !wanted?.length || wanted.includes(name))
    .map((name) => all[name]());
}

/** Starts tracing when the OTEL_* variables ask for it (the serve and start commands, register.ts). */
export async function startTracingFromEnv(env: Env = process.env): Promise<Tracing | undefined> {
  return tracingWanted(env) ? startTracing({ env }) : undefined;
}
