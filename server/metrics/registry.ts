/**
 * The portal's Prometheus metrics (docs/going-live.md "Operations"): one registry per process, the metrics
 * defined once here and moved where the work happens (requests, the mail sender, the webhook
 * deliverer, the jobs, imports, acknowledgements, documents). What only the database knows (queue
 * depths, the change feed's backlog, pending payments) is read when Prometheus scrapes
 * (server/metrics/scrape.ts).
 *
 * No label carries personal data or an unbounded value: tenants are the ids of the tenant
 * directory (`none` for anything else), routes are Express's route templates, the rest are fixed
 * sets named at each metric. Counters are cheap (an addition), so the code moves them whether or
 * not anything scrapes them.
 */
import { readFileSync } from 'node:fs';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();

const knownTenants = new Set<string>();

/** The tenant directory's ids: the only values a `tenant` label takes besides `none`. */
export function setKnownTenants(ids: Iterable<string>): void {
  for (const id of ids) knownTenants.add(id);
}

/** A tenant id as a label: one of the directory's, else `none` (a bounded set whatever comes in). */
export function tenantLabel(id: string | undefined | null): string {
  return id && knownTenants.has(id) ? id : 'none';
}

/** Every tenant label value that may appear (the directory's ids and `none`). */
export function tenantLabels(): string[] {
  return [...knownTenants, 'none'];
}

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const httpRequests = new Counter({
  name: 'portal_http_requests_total',
  help: 'HTTP requests answered, by method, route template (unmatched: no route), status class and tenant (none: no tenant).',
  labelNames: ['method', 'route', 'status_class', 'tenant'] as const,
  registers: [registry],
});

export const httpRequestDuration = new Histogram({
  name: 'portal_http_request_duration_seconds',
  help: 'Time from the request to the end of its answer, by method, route template, status class and tenant.',
  labelNames: ['method', 'route', 'status_class', 'tenant'] as const,
  buckets: SECONDS_BUCKETS,
  registers: [registry],
});

export const mailsSent = new Counter({
  name: 'portal_mails_sent_total',
  help: 'Mails the mail sender of this instance handed to the transport (SMTP or the file outbox).',
  labelNames: ['tenant'] as const,
  registers: [registry],
});

export const mailsFailed = new Counter({
  name: 'portal_mails_failed_total',
  help: 'Mail attempts that failed, by final (true: given up after the last attempt; false: retried later).',
  labelNames: ['tenant', 'final'] as const,
  registers: [registry],
});

export const webhookAttempts = new Counter({
  name: 'portal_webhook_attempts_total',
  help: 'Webhook delivery attempts of this instance by outcome: delivered, retried, failed (given up), disabled (410 Gone), gone (endpoint no longer in the tenant file).',
  labelNames: ['tenant', 'outcome'] as const,
  registers: [registry],
});

// The label is `task`, not `job`: Prometheus gives every series the `job` of its scrape config.
export const jobRuns = new Counter({
  name: 'portal_job_runs_total',
  help: 'Rounds of the background jobs of this instance (mail sender, webhook deliverer, due changes, e-cards) by outcome (ok, error).',
  labelNames: ['task', 'outcome'] as const,
  registers: [registry],
});

export const jobDuration = new Histogram({
  name: 'portal_job_duration_seconds',
  help: 'Duration of one round of a background job.',
  labelNames: ['task'] as const,
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
  registers: [registry],
});

export const jobLastSuccess = new Gauge({
  name: 'portal_job_last_success_timestamp_seconds',
  help: 'Unix time of the last round of a background job that ended without an error.',
  labelNames: ['task'] as const,
  registers: [registry],
});

export const dueChangesApplied = new Counter({
  name: 'portal_due_changes_applied_total',
  help: 'Dated address and payment method changes the due-changes job applied on their day.',
  registers: [registry],
});

export const retentionSummaryDays = new Counter({
  name: 'portal_insights_dates_rolled_up_total',
  help: "Days of the retention insights' daily summary the summary job summed (again, after a late or deleted event).",
  registers: [registry],
});

export const changeAcknowledgements = new Counter({
  name: 'portal_change_acknowledgements_total',
  help: 'Acknowledgements of the change feed stored (a repeat of a stored one is not counted), by status (confirmed, rejected).',
  labelNames: ['tenant', 'status'] as const,
  registers: [registry],
});

export const paymentRefunds = new Counter({
  name: 'portal_payment_refunds_total',
  help: "Attempts to refund a payment at its provider, by outcome: issued, retry (asked again later) or failed (the operator's to make).",
  labelNames: ['tenant', 'provider', 'outcome'] as const,
  registers: [registry],
});

export const importRows = new Counter({
  name: 'portal_import_rows_total',
  help: 'Records merged by imports that were written, by entity and outcome (created, updated, unchanged, refused: older than the stored version; deleted: left out of a full sync).',
  labelNames: ['tenant', 'entity', 'outcome'] as const,
  registers: [registry],
});

export const imports = new Counter({
  name: 'portal_imports_total',
  help: 'Imports (portal import, POST /operator/v1/imports) by result: written, refused (problems listed, nothing written), error (failed, nothing written).',
  labelNames: ['tenant', 'result'] as const,
  registers: [registry],
});

export const importsRunning = new Gauge({
  name: 'portal_imports_running',
  help: 'Imports under way in this process.',
  registers: [registry],
});

export const clientErrors = new Counter({
  name: 'portal_client_errors_total',
  help: "Errors subscribers' browsers reported (a sample: engine/domain/clientErrors.ts), by kind (render: a screen failed; chunk: a script file of the build did not load; error: an uncaught error; rejection: an unhandled promise).",
  labelNames: ['tenant', 'kind'] as const,
  registers: [registry],
});

export const signInLimitsHit = new Counter({
  name: 'portal_sign_in_limits_hit_total',
  help: 'Sign-in attempts refused with 429 by a sign-in limit, by limit (attempts: a per-address or per-client budget; password_day, order_number_day: the daily ceiling of wrong passwords, of wrong names or zip codes for an order number; password_backoff, order_number_backoff).',
  labelNames: ['tenant', 'limit'] as const,
  registers: [registry],
});

export const documentDuration = new Histogram({
  name: 'portal_document_generation_seconds',
  help: 'Time to make a document, by kind (invoice_pdf, facturx, xrechnung, pdf: issue, order and certificate PDFs).',
  labelNames: ['kind'] as const,
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

/**
 * Invoice documents served (docs/invoices.md "Issued documents, made once"): `kept` from the store,
 * `made` when none was kept for the invoice's inputs; the ratio says how much rendering the store saves.
 */
export const issuedDocuments = new Counter({
  name: 'portal_issued_documents_total',
  help: 'Invoice documents served, by format (pdf, xrechnung) and source (kept: from the store of issued documents; made: rendered and kept).',
  labelNames: ['format', 'source'] as const,
  registers: [registry],
});

export const scrapeErrors = new Counter({
  name: 'portal_scrape_errors_total',
  help: 'Scrape-time database reads that failed or timed out (their metrics keep the last value read), by collector.',
  labelNames: ['collector'] as const,
  registers: [registry],
});

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export const buildInfo = new Gauge({
  name: 'portal_build_info',
  help: 'Always 1: the portal version (package.json) and the Node.js version as labels.',
  labelNames: ['version', 'node'] as const,
  registers: [registry],
});
buildInfo.set({ version: packageVersion(), node: process.versions.node }, 1);

let defaultsOn = false;

/** Node's own metrics (process_*, nodejs_*): started with the metrics endpoint, not on import. */
export function collectNodeMetrics(): void {
  if (defaultsOn) return;
  defaultsOn = true;
  collectDefaultMetrics({ register: registry });
  // prom-client's totals of the active handles, requests and resources are gauges named `_total`,
  // which Prometheus keeps for counters (`promtool check metrics` fails the scrape for it). Their
  // per-type gauges stay: sum(nodejs_active_handles) is the same figure.
  for (const name of [
    'nodejs_active_handles_total',
    'nodejs_active_requests_total',
    'nodejs_active_resources_total',
  ])
    registry.removeSingleMetric(name);
}

/** Times a document's making (portal_document_generation_seconds). */
export async function timeDocument<T>(kind: string, make: () => Promise<T>): Promise<T> {
  const end = documentDuration.startTimer({ kind });
  try {
    return await make();
  } finally {
    end();
  }
}

/** A status code's class as a label: 2xx … 5xx. */
export function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';
}
