import type { Database } from '../db/database';
import type { WebhookEndpoint } from '../../schemas/generated/tenant';
import {
  claimDueDeliveries,
  disableEndpoint,
  failDeliveriesToDisabledEndpoints,
  insertDeliveries,
  lockUndispatchedEvents,
  markAttemptFailed,
  markDelivered,
  markDispatched,
  markEndpointGone,
  type ClaimedDelivery,
} from '../store/accountEventStore';
import { decodeWebhookSecret } from '../../tenant/webhookSecret';
import { webhookSignatureHeaders } from './webhookSignature';
import { startPeriodicJob } from '../jobs/periodicJob';
import {
  NonPublicAddressError,
  publicRequest,
  type HostResolver,
  type PublicRequestOptions,
} from '../http/publicRequest';
import { redactedUrl } from './webhookAddress';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { tenantLabel, webhookAttempts } from '../metrics/registry';

/**
 * The background deliverer of account events to the tenants' webhook endpoints
 * (docs/going-live.md "Account events and webhooks"), built like the mail sender
 * (server/mail/mailSender.ts): its state is in the database (migration 007), so it survives
 * restarts, and several server instances share the work.
 *
 * Two steps per round:
 *  1. dispatch — events without delivery rows get one row per matching endpoint of their tenant.
 *     The deliverer writes them, not the request that records the event: the services then need
 *     no webhook settings (recordEvent takes the tenant id only), and an event stays undispatched
 *     until an instance that serves its tenant sees it. The endpoints are those of the tenant file
 *     when the event is dispatched (a second or so after it is recorded), as Stripe sends an event
 *     to the endpoints that exist when it happens.
 *  2. deliver — due rows are claimed with `for update skip locked` and a lease longer than the
 *     request time-out, so at most one attempt per event and endpoint runs at a time across
 *     instances. 2xx settles the row; anything else, a network error or the 10 s time-out is
 *     retried with exponential back-off for up to a day, then the row is `failed`. 410 Gone is
 *     the exception (after the Standard Webhooks spec, the receiver wants no more events): the
 *     endpoint is disabled in the database and nothing more is attempted for it until
 *     `portal webhooks enable` or a new URL.
 *
 * Each attempt is signed in the Standard Webhooks format (webhookSignature.ts) with the secrets of
 * the endpoint's variables, read at every attempt: a variable that is missing or not a whsec_
 * secret holds the delivery (retried, logged), it is never sent unsigned or half signed.
 *
 * Delivery is at least once: an instance that dies after the receiver got a request but before it
 * recorded the answer leaves a lease that runs out, and the next attempt sends the same event
 * (same id, same body) again. Receivers drop ids they have processed (docs/going-live.md "Account events and
 * webhooks"). A deliverer that is stopped finishes the requests under way first.
 */
export interface WebhookTenant {
  id: string;
  webhooks?: readonly WebhookEndpoint[];
}

export interface WebhookDelivererOptions {
  /** Deliveries claimed (and attempted side by side) per round. */
  batchSize?: number;
  /** How long a claimed delivery stays with this instance; longer than timeoutMs. */
  leaseMs?: number;
  /** Time-out of one POST, answer included (10 s by default). */
  timeoutMs?: number;
  /** First retry delay; doubles with each attempt, at most maxRetryDelayMs. */
  retryBaseMs?: number;
  maxRetryDelayMs?: number;
  /** How long after the event a delivery is retried before it is given up (a day). */
  retryForMs?: number;
  /** Where secretEnv names are looked up (process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Tests only: deliver to a receiver on this machine (127.0.0.1). Every other caller, the server
   * included, sends to public addresses only (server/http/publicRequest.ts).
   */
  allowPrivateAddresses?: boolean;
  /** How endpoint names are resolved (dns.lookup by default); tests hand in their own. */
  resolveHost?: HostResolver;
  log?: (entry: Record<string, unknown>) => void;
}

export const WEBHOOK_DELIVERER_DEFAULTS = {
  batchSize: 10,
  leaseMs: 60_000,
  timeoutMs: 10_000,
  retryBaseMs: 30_000,
  maxRetryDelayMs: 60 * 60_000,
  retryForMs: 24 * 60 * 60_000,
} as const;

type Settings = WebhookDelivererOptions &
  Required<Pick<WebhookDelivererOptions, keyof typeof WEBHOOK_DELIVERER_DEFAULTS>>;

export interface WebhookRoundResult {
  dispatched: number;
  delivered: number;
  retried: number;
  failed: number;
}

/** 30 s, 1 min, 2 min, … doubling up to an hour between attempts: about 30 attempts in a day. */
export function webhookRetryDelayMs(
  attempts: number,
  settings: Pick<Settings, 'retryBaseMs' | 'maxRetryDelayMs'> = WEBHOOK_DELIVERER_DEFAULTS,
): number {
  return Math.min(settings.retryBaseMs * 2 ** Math.max(0, attempts - 1), settings.maxRetryDelayMs);
}

/** An endpoint receives an event type when it lists it, or lists none (every type). */
export function endpointWants(endpoint: Pick<WebhookEndpoint, 'events'>, type: string): boolean {
  return endpoint.events === undefined || (endpoint.events as readonly string[]).includes(type);
}

/**
 * The endpoint's signing keys, the current one first: the secret of the environment variable it
 * names (else its literal secret), then during a rotation the previous secret (two
 * signatures during the overlap, so receivers can switch at their own pace). Or why it cannot be
 * signed, in words for the log and `portal events`: a variable that is not set, or a value that is
 * not a whsec_ secret (never quoted). One bad secret holds the delivery rather than send it with
 * the other signature alone: the operator said a receiver may still hold either secret.
 */
export function endpointSigningKeys(
  endpoint: Pick<WebhookEndpoint, 'secret' | 'secretEnv' | 'previousSecretEnv'>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): { keys: Uint8Array[] } | { error: string } {
  const sources: Array<{ value: string | undefined; name: string }> = endpoint.secretEnv
    ? [{ value: env[endpoint.secretEnv] || undefined, name: `environment variable ${endpoint.secretEnv}` }]
    : [{ value: endpoint.secret, name: 'the secret in the tenant file' }];
  if (endpoint.previousSecretEnv)
    sources.push({
      value: env[endpoint.previousSecretEnv] || undefined,
      name: `environment variable ${endpoint.previousSecretEnv} (previousSecretEnv)`,
    });
  const keys: Uint8Array[] = [];
  for (const source of sources) {
    if (source.value === undefined)
      return { error: `${source.name} is not set: the delivery cannot be signed` };
    const decoded = decodeWebhookSecret(source.value);
    if ('problem' in decoded)
      return {
        error: `${source.name} is not a Standard Webhooks secret (${decoded.problem}): the delivery cannot be signed; make one with portal webhooks secret`,
      };
    keys.push(decoded.key);
  }
  return { keys };
}

/** The JSON body receivers get (schemas/api/account-event.schema.json). */
export function webhookBody(
  delivery: Pick<ClaimedDelivery, 'eventId' | 'type' | 'tenantId' | 'createdAt' | 'data'>,
): string {
  return JSON.stringify({
    id: delivery.eventId,
    type: delivery.type,
    tenant: delivery.tenantId,
    createdAt: delivery.createdAt,
    data: delivery.data,
  });
}

function tenantsById(tenants: readonly WebhookTenant[]): Map<string, WebhookTenant> {
  // Read at every round: `portal dev` reloads a tenant file into the same object.
  return new Map(tenants.map((tenant) => [tenant.id, tenant]));
}

/** Writes the delivery rows of undispatched events, a batch per transaction. Returns how many events. */
export async function dispatchEvents(
  db: Database,
  tenants: readonly WebhookTenant[],
  batchSize = 100,
): Promise<number> {
  const byId = tenantsById(tenants);
  let total = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      const events = await lockUndispatchedEvents(tx, [...byId.keys()], batchSize);
      const deliveries = events.flatMap((event) =>
        (byId.get(event.tenantId)?.webhooks ?? [])
          .filter((endpoint) => endpointWants(endpoint, event.type))
          .map((endpoint) => ({ tenantId: event.tenantId, eventId: event.id, url: endpoint.url })),
      );
      await insertDeliveries(tx, deliveries);
      await markDispatched(tx, events);
      return events.length;
    });
    total += count;
    if (count < batchSize) return total;
  }
}

interface AttemptOutcome {
  status: number | null;
  error?: string;
  /** Asking again cannot succeed (the URL names a non-public address): failed at once, no retries. */
  final?: boolean;
}

async function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  guard: Pick<PublicRequestOptions, 'timeoutMs' | 'allowPrivate' | 'resolve'>,
): Promise<AttemptOutcome> {
  // Through the outbound guard (docs/going-live.md "Account events and webhooks", "Outbound requests"):
  // public addresses only, checked for literals, resolved names and the connected socket alike, and no
  // redirect followed (following one would send the event somewhere the tenant file does not name).
  return new Promise<AttemptOutcome>((resolve) => {
    const request = publicRequest(
      new URL(url),
      {
        ...guard,
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (response) => {
        response.resume(); // the answer's body is not read
        const status = response.statusCode ?? 0;
        resolve(
          status >= 200 && status < 300
            ? { status }
            : {
                status,
                error:
                  status >= 300 && status < 400
                    ? `HTTP ${status} (redirects are not followed)`
                    : `HTTP ${status}`,
              },
        );
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      const ours = error.code === 'EOUTBOUNDTIMEOUT' || error instanceof NonPublicAddressError;
      resolve({
        status: null,
        error: ours ? error.message : (error.code ?? error.message),
        final: error instanceof NonPublicAddressError && error.permanent,
      });
    });
    request.end(body);
  });
}

const tracer = trace.getTracer('publisher-portal');

/** The last error of the delivery that got the 410, as `portal events` shows it. */
export const GONE_ERROR =
  'HTTP 410 Gone: the endpoint is disabled; portal webhooks enable (or a new URL in the tenant file) turns it back on';

async function attempt(
  db: Database,
  byId: Map<string, WebhookTenant>,
  row: ClaimedDelivery,
  settings: Settings,
  result: WebhookRoundResult,
): Promise<void> {
  const endpoint = byId.get(row.tenantId)?.webhooks?.find((candidate) => candidate.url === row.url);
  if (!endpoint) {
    await markEndpointGone(db, row, 'the endpoint is no longer in the tenant file');
    webhookAttempts.inc({ tenant: tenantLabel(row.tenantId), outcome: 'gone' });
    settings.log?.({
      level: 'warn',
      msg: 'webhook endpoint gone',
      tenant: row.tenantId,
      event: row.eventId,
      url: redactedUrl(row.url),
    });
    result.failed++;
    return;
  }
  const signing = endpointSigningKeys(endpoint, settings.env ?? process.env);
  let outcome: AttemptOutcome;
  if ('error' in signing) {
    // Retried like a failed request: fixing the variable and restarting within the day delivers it.
    outcome = { status: null, error: signing.error };
  } else {
    const body = webhookBody(row);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'publisher-portal-webhooks/1',
      // webhook-id is the event id, the same in every attempt; webhook-timestamp is this attempt's.
      ...webhookSignatureHeaders(signing.keys, row.eventId, Math.floor(Date.now() / 1000), body),
    };
    // Each attempt is a span of its own; its W3C traceparent goes with the request, so a receiver
    // that traces joins the attempt's trace (docs/going-live.md "Operations"). Without the tracing SDK the
    // API is a no-op and no header is added.
    outcome = await tracer.startActiveSpan(
      'webhook delivery',
      { kind: SpanKind.CLIENT, attributes: { 'portal.tenant': row.tenantId, 'portal.event.type': row.type } },
      async (span) => {
        propagation.inject(context.active(), headers);
        try {
          const answer = await post(row.url, body, headers, {
            timeoutMs: settings.timeoutMs,
            allowPrivate: settings.allowPrivateAddresses,
            resolve: settings.resolveHost,
          });
          if (answer.status !== null) span.setAttribute('http.response.status_code', answer.status);
          if (answer.error) span.setStatus({ code: SpanStatusCode.ERROR, message: answer.error });
          return answer;
        } finally {
          span.end();
        }
      },
    );
  }
  if (!outcome.error) {
    if (await markDelivered(db, row, outcome.status!)) {
      result.delivered++;
      webhookAttempts.inc({ tenant: tenantLabel(row.tenantId), outcome: 'delivered' });
    }
    return;
  }
  if (outcome.status === 410) {
    // A 410 answer disables the endpoint (the receiver says it wants no more events).
    // A lost lease leaves the row to the instance that owns it now; its attempt gets the 410 too.
    if (!(await disableEndpoint(db, row, { status: 410, error: GONE_ERROR }))) return;
    result.failed++;
    webhookAttempts.inc({ tenant: tenantLabel(row.tenantId), outcome: 'disabled' });
    settings.log?.({
      level: 'error',
      msg: 'webhook endpoint disabled: it answered 410 Gone; nothing more is sent to it until `portal webhooks enable` or a new URL in the tenant file',
      tenant: row.tenantId,
      event: row.eventId,
      url: redactedUrl(row.url),
      attempts: row.attempts,
    });
    return;
  }
  const state = await markAttemptFailed(db, row, {
    status: outcome.status,
    error: outcome.error,
    retryInMs: outcome.final ? null : webhookRetryDelayMs(row.attempts, settings),
    retryForMs: settings.retryForMs,
  });
  if (state === 'failed') result.failed++;
  else if (state === 'pending') result.retried++;
  if (state === 'failed' || state === 'pending')
    webhookAttempts.inc({
      tenant: tenantLabel(row.tenantId),
      outcome: state === 'failed' ? 'failed' : 'retried',
    });
  settings.log?.({
    level: state === 'failed' ? 'error' : 'warn',
    msg: state === 'failed' ? 'webhook delivery given up' : 'webhook delivery attempt failed',
    tenant: row.tenantId,
    event: row.eventId,
    url: redactedUrl(row.url),
    attempts: row.attempts,
    status: outcome.status,
    error: outcome.error,
  });
}

/**
 * Dispatches new events, then attempts every due delivery, batch after batch, until none is due
 * or `shouldStop` says so; requests under way are always finished. The background deliverer calls
 * it on a timer; tests call it to deliver deterministically.
 */
export async function deliverWebhooks(
  db: Database,
  tenants: readonly WebhookTenant[],
  options: WebhookDelivererOptions = {},
  shouldStop: () => boolean = () => false,
): Promise<WebhookRoundResult> {
  const settings: Settings = { ...WEBHOOK_DELIVERER_DEFAULTS, ...options };
  const result: WebhookRoundResult = { dispatched: 0, delivered: 0, retried: 0, failed: 0 };
  result.dispatched = await dispatchEvents(db, tenants);
  const byId = tenantsById(tenants);
  const tenantIds = [...byId.keys()].filter((id) => (byId.get(id)?.webhooks ?? []).length > 0);
  if (tenantIds.length === 0) return result;
  // Deliveries to an endpoint disabled by a 410 (new events, or an instance that raced the 410)
  // are settled as failed and never claimed (claimDueDeliveries skips them too).
  result.failed += await failDeliveriesToDisabledEndpoints(db, tenantIds);
  while (!shouldStop()) {
    const rows = await claimDueDeliveries(db, {
      tenantIds,
      limit: settings.batchSize,
      leaseMs: settings.leaseMs,
    });
    if (rows.length === 0) break;
    // Side by side: one slow endpoint does not hold up the others' deliveries for its time-out.
    await Promise.all(rows.map((row) => attempt(db, byId, row, settings, result)));
  }
  return result;
}

/**
 * Starts the background deliverer: a round at once (deliveries left by a restart go out), then
 * every `intervalMs`, one round at a time per instance. Warns once about endpoints whose secret
 * variables are not set or not whsec_ secrets. The returned stop function lets the
 * requests under way finish (at most the time-out), starts no new ones and resolves when the
 * round has ended. server/main.ts starts it beside the mail sender and stops it before closing
 * the database.
 */
export function startWebhookDeliverer(
  db: Database,
  tenants: readonly WebhookTenant[],
  options: WebhookDelivererOptions & { intervalMs?: number } = {},
): () => Promise<void> {
  const intervalMs = options.intervalMs ?? 1000;
  const env = options.env ?? process.env;
  for (const tenant of tenants) {
    for (const endpoint of tenant.webhooks ?? []) {
      const signing = endpointSigningKeys(endpoint, env);
      if ('error' in signing) {
        options.log?.({
          level: 'warn',
          msg: `webhook deliveries to this endpoint wait: ${signing.error}`,
          tenant: tenant.id,
          url: redactedUrl(endpoint.url),
        });
      }
    }
  }
  return startPeriodicJob(
    'webhook deliverer',
    (isStopping) => deliverWebhooks(db, tenants, options, isStopping),
    { intervalMs, log: options.log },
  );
}
