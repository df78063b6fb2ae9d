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
 *
 * What tracing costs the read path is measured in `npm run bench` section 8 (docs/decisions.md
 * "Tracing: decided at the door, no Express spans by default"): the instrumentations' own work on
 * every request, not the context they carry, so a request that is not sampled is turned away
 * before they start (requestSampling), and Express's instrumentation is there only when named.
 */
import { createRequire, register } from 'node:module';
import type { IncomingMessage } from 'node:http';
import type { Sampler, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import { routeTemplateOf } from '../http/routeTemplate';
import { recordedPath, recordedQuery } from '../http/recordedPath';

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

  const door = requestSampling(env);
  // Before any instrumentation exists: each one patches as soon as it is made.
  const serversOwnEmit = (
    createRequire(import.meta.url)('node:http') as { Server: { prototype: { emit: Emit } } }
  ).Server.prototype.emit;
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
  // Until the door stands (and if it cannot), server spans are sampled as the variables say.
  let doorStands = false;
  const sampler = door ? await serverSpansAdmitted(door.otherSpans, () => doorStands) : undefined;
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
    ...(sampler ? { sampler } : {}),
    // Traces only: the metrics are Prometheus' (server/metrics), the logs the JSON lines.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      ...instrumentations(env, {
        http: () =>
          new HttpInstrumentation({
            // The address as the request log keeps it, not as it came (tokens in the query, a
            // download key or a licence user's e-mail address in the path): these override the
            // instrumentation's own `url.path` and `url.query`.
            startIncomingSpanHook: (request) => {
              const url = (request as IncomingMessage).url ?? '/';
              const query = recordedQuery(url);
              return {
                'url.path': recordedPath(url),
                ...(query === undefined ? {} : { 'url.query': query }),
                // Who asked stays out, as in the request log: a subscriber's address is personal
                // data, and a trace store keeps it longer and shows it to more people than the log.
                'client.address': '…',
                'network.peer.address': '…',
              };
            },
            // Probes and scrapes are not worth a trace each.
            ignoreIncomingRequestHook: (request) => /^\/(healthz|readyz|metrics)\b/.test(request.url ?? ''),
            // The span is named by the route template (as the request metrics label it), not
            // by Express's instrumentation, which is off unless named (see instrumentations).
            applyCustomAttributesOnSpan: (span, request) => {
              const route = routeTemplateOf(request);
              if (route === 'unmatched') return;
              span.setAttribute('http.route', route);
              span.updateName(`${(request as IncomingMessage).method ?? 'GET'} ${route}`);
            },
            // Outgoing requests belong to a trace that is already there (a webhook attempt's span).
            requireParentforOutgoingSpans: true,
          }),
        // Only where OTEL_NODE_ENABLED_INSTRUMENTATIONS names it, and then the route handler's
        // span only: it works on every layer a request passes (some 16), which cost a read as
        // much as the HTTP instrumentation itself, for a span that repeats the HTTP span's route
        // and duration; a span per middleware and router took the read path to 0.3×.
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
  doorStands = door ? admitAtTheDoor(door, serversOwnEmit) : false;
  return { shutdown: () => sdk.shutdown() };
}

type InstrumentationName = 'http' | 'express' | 'pg';
const DEFAULT_INSTRUMENTATIONS: InstrumentationName[] = ['http', 'pg'];

/**
 * The instrumentations OTEL_NODE_ENABLED_INSTRUMENTATIONS names (a comma-separated list of
 * `http`, `express`, `pg`, as OpenTelemetry's Node auto-instrumentation reads it); `http` and
 * `pg` without it.
 */
function instrumentations(
  env: Env,
  all: Record<InstrumentationName, () => Instrumentation>,
): Instrumentation[] {
  const named = env.OTEL_NODE_ENABLED_INSTRUMENTATIONS?.split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const wanted: string[] = named?.length ? named : DEFAULT_INSTRUMENTATIONS;
  return (Object.keys(all) as InstrumentationName[])
    .filter((name) => wanted.includes(name))
    .map((name) => all[name]());
}

/**
 * Puts the door in front of the HTTP instrumentation: a request the sampler does not keep goes to
 * the server's own `emit`, past the instrumentation's wrapper. That wrapper, even for a request it
 * ignores, runs it in a context and binds the request's and the response's emitters to it (new own
 * properties on both, so every later access to them is slower): measured in `npm run bench`
 * section 8, that cost a request turned away nearly as much as one traced. Requiring `http` here
 * lets the instrumentation patch it now (it patches on the first require after the SDK started,
 * and only once), so the door is outside its wrapper.
 */
type Emit = (this: unknown, event: string | symbol, ...args: unknown[]) => boolean;

function admitAtTheDoor(door: RequestSampling, serversOwnEmit: Emit): boolean {
  const http = createRequire(import.meta.url)('node:http') as { Server: { prototype: { emit: Emit } } };
  const instrumented = http.Server.prototype.emit;
  if (instrumented === serversOwnEmit) return false; // the HTTP instrumentation is not on
  http.Server.prototype.emit = function emit(event, ...args) {
    if (event === 'request' && !door.admit(args[0] as IncomingMessage))
      return serversOwnEmit.call(this, event, ...args);
    return instrumented.call(this, event, ...args);
  };
  return true;
}

/** A sampler of OpenTelemetry's environment variable spec, as a probability and whether a parent decides. */
interface SamplerSetting {
  parentBased: boolean;
  /** The share of root traces kept: 1 always_on, 0 always_off, the argument for traceidratio. */
  ratio: number;
}

export interface RequestSampling {
  /** Whether an incoming request is traced: its traceparent's flag where the sampler follows a parent, else the ratio. */
  admit(request: Pick<IncomingMessage, 'headers'>): boolean;
  /** The sampler of every other span (a webhook attempt, a job's work). */
  otherSpans: SamplerSetting;
}

const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-([0-9a-f]{2})$/;

/**
 * The sampling decision for incoming requests taken at the door, from OTEL_TRACES_SAMPLER and
 * OTEL_TRACES_SAMPLER_ARG (always_on, always_off, traceidratio and their parentbased_ forms; the
 * default parentbased_always_on). The instrumentations do their work for a request whether or not
 * its span is sampled; deciding before they start spares that work for every request not kept.
 * Another sampler (jaeger_remote, …) is left to the SDK, and every request enters.
 */
export function requestSampling(env: Env = process.env): RequestSampling | undefined {
  const name = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || 'parentbased_always_on';
  const parentBased = name.startsWith('parentbased_');
  const base = parentBased ? name.slice('parentbased_'.length) : name;
  let ratio: number;
  if (base === 'always_on') ratio = 1;
  else if (base === 'always_off') ratio = 0;
  else if (base === 'traceidratio') {
    const argument = Number(env.OTEL_TRACES_SAMPLER_ARG?.trim() || '1');
    // The SDK's own reading of a ratio out of range or not a number: every trace.
    ratio = Number.isFinite(argument) && argument >= 0 && argument <= 1 ? argument : 1;
  } else return undefined;
  return {
    otherSpans: { parentBased, ratio },
    admit: (request) => {
      if (parentBased) {
        const header = request.headers.traceparent;
        const flags = typeof header === 'string' ? TRACEPARENT.exec(header.trim())?.[1] : undefined;
        if (flags) return (parseInt(flags, 16) & 1) === 1;
      }
      return ratio >= 1 || (ratio > 0 && Math.random() < ratio);
    },
  };
}

/**
 * The SDK's sampler: a server span belongs to a request the door admitted, so it is kept; every
 * other span is sampled as the variables say.
 */
async function serverSpansAdmitted(setting: SamplerSetting, doorStands: () => boolean): Promise<Sampler> {
  const { SpanKind } = await import('@opentelemetry/api');
  const {
    AlwaysOffSampler,
    AlwaysOnSampler,
    ParentBasedSampler,
    SamplingDecision,
    TraceIdRatioBasedSampler,
  } = await import('@opentelemetry/sdk-trace-base');
  const root =
    setting.ratio >= 1
      ? new AlwaysOnSampler()
      : setting.ratio <= 0
        ? new AlwaysOffSampler()
        : new TraceIdRatioBasedSampler(setting.ratio);
  const others = setting.parentBased ? new ParentBasedSampler({ root }) : root;
  return {
    shouldSample: (context, traceId, spanName, spanKind, attributes, links) =>
      spanKind === SpanKind.SERVER && doorStands()
        ? { decision: SamplingDecision.RECORD_AND_SAMPLED }
        : others.shouldSample(context, traceId, spanName, spanKind, attributes, links),
    toString: () => `ServerSpansAdmittedAtTheDoor{${others.toString()}}`,
  };
}

/** Starts tracing when the OTEL_* variables ask for it (the serve and start commands, register.ts). */
export async function startTracingFromEnv(env: Env = process.env): Promise<Tracing | undefined> {
  return tracingWanted(env) ? startTracing({ env }) : undefined;
}
