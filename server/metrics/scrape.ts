/**
 * What a scrape reads from the database, and the endpoint Prometheus scrapes
 * (docs/going-live.md "Operations"). Each collector is one aggregate query over a partial index or a small
 * table, run with a statement time-out; the values are kept for `cacheMs` so several Prometheus servers, or a
 * short scrape interval, do not multiply the work. A collector that fails (database away, time-out) keeps
 * its last values and counts portal_scrape_errors_total: the scrape itself always answers, since the
 * database being away is exactly when the rest of the metrics matter.
 */
import { createServer, type Server } from 'node:http';
import { Gauge } from 'prom-client';
import { isConnectionError, type Database } from '../db/database';
import { FEED_EXCLUDED_TYPES } from '../store/changeFeedStore';
import { collectNodeMetrics, registry, scrapeErrors, tenantLabel, tenantLabels } from './registry';

const dbPool = {
  total: new Gauge({
    name: 'portal_db_pool_connections',
    help: "Connections of this instance's database pool (PG_POOL_MAX at most).",
    registers: [registry],
  }),
  idle: new Gauge({
    name: 'portal_db_pool_idle_connections',
    help: 'Connections of the pool open and not in use.',
    registers: [registry],
  }),
  waiting: new Gauge({
    name: 'portal_db_pool_waiting_requests',
    help: 'Queries waiting for a connection of the pool.',
    registers: [registry],
  }),
};

const mailQueueDepth = new Gauge({
  name: 'portal_mail_queue_depth',
  help: 'Mails queued and not yet sent or given up (every instance; mail_queue).',
  registers: [registry],
});
const mailQueueOldest = new Gauge({
  name: 'portal_mail_queue_oldest_age_seconds',
  help: 'Age of the oldest queued mail (0: none queued).',
  registers: [registry],
});
const webhookPending = new Gauge({
  name: 'portal_webhook_deliveries_pending',
  help: 'Webhook deliveries waiting for their first or next attempt, by tenant.',
  labelNames: ['tenant'] as const,
  registers: [registry],
});
const webhookPendingOldest = new Gauge({
  name: 'portal_webhook_deliveries_pending_oldest_age_seconds',
  help: 'Age of the oldest pending webhook delivery, by tenant (0: none).',
  labelNames: ['tenant'] as const,
  registers: [registry],
});
const webhookDisabled = new Gauge({
  name: 'portal_webhook_disabled_endpoints',
  help: 'Webhook endpoints disabled by a 410 Gone answer (webhook_disabled_endpoints), by tenant.',
  labelNames: ['tenant'] as const,
  registers: [registry],
});
const feedUnacknowledged = new Gauge({
  name: 'portal_change_feed_unacknowledged',
  help: 'Changes in the feed without an acknowledgement, by tenant; only tenants with an unrevoked key that reads the feed.',
  labelNames: ['tenant'] as const,
  registers: [registry],
});
const feedOldest = new Gauge({
  name: 'portal_change_feed_oldest_unacknowledged_age_seconds',
  help: 'Age of the oldest unacknowledged change of the feed, by tenant (0: none).',
  labelNames: ['tenant'] as const,
  registers: [registry],
});
const paymentsPending = new Gauge({
  name: 'portal_payments_pending',
  help: "Payments started on the provider's page and not yet settled (success, error, canceled), by tenant.",
  labelNames: ['tenant'] as const,
  registers: [registry],
});
const paymentsPendingOldest = new Gauge({
  name: 'portal_payments_pending_oldest_age_seconds',
  help: 'Age of the oldest pending payment, by tenant (0: none).',
  labelNames: ['tenant'] as const,
  registers: [registry],
});
const importLastFinished = new Gauge({
  name: 'portal_import_last_finished_timestamp_seconds',
  help: 'When the newest import of the tenant with this result finished (import_runs: `portal import` and the API alike), by tenant and result (written, refused, error).',
  labelNames: ['tenant', 'result'] as const,
  registers: [registry],
});
const databaseUp = new Gauge({
  name: 'portal_database_up',
  help: "1 when the last scrape's database reads succeeded, 0 when the database could not be reached.",
  registers: [registry],
});

type Row = { tenant: string; n: number; age: number | null };

/** Sets a per-tenant gauge pair from rows; tenants without a row go to 0 (their backlog emptied). */
function setPerTenant(count: Gauge<'tenant'>, age: Gauge<'tenant'> | undefined, rows: Row[]): void {
  const seen = new Map<string, { n: number; age: number }>();
  for (const row of rows) {
    const label = tenantLabel(row.tenant);
    const previous = seen.get(label) ?? { n: 0, age: 0 };
    seen.set(label, { n: previous.n + Number(row.n), age: Math.max(previous.age, Number(row.age ?? 0)) });
  }
  for (const tenant of tenantLabels()) {
    const value = seen.get(tenant) ?? { n: 0, age: 0 };
    count.set({ tenant }, value.n);
    age?.set({ tenant }, value.age);
  }
}

interface Collector {
  name: string;
  read(db: Database): Promise<void>;
}

/** With a time-out of its own: a scrape must not hold a connection while the database is slow. */
async function bounded<T>(db: Database, sql: string, params: unknown[] = []): Promise<T[]> {
  return db.transaction(async (tx) => {
    await tx.query(`set local statement_timeout = '2s'`);
    return tx.query<T>(sql, params);
  });
}

const COLLECTORS: Collector[] = [
  {
    name: 'mail_queue',
    // mail_queue_due is a partial index on the queued rows (migration 005).
    async read(db) {
      const [row] = await bounded<{ n: number; age: number | null }>(
        db,
        `select count(*)::int as n, extract(epoch from now() - min(created_at))::float8 as age
           from mail_queue where state = 'queued'`,
      );
      mailQueueDepth.set(row?.n ?? 0);
      mailQueueOldest.set(Math.max(0, row?.age ?? 0));
    },
  },
  {
    name: 'webhook_deliveries',
    // webhook_deliveries_due is a partial index on the pending rows (migration 007); the disabled
    // endpoints are a handful of rows (migration 021).
    async read(db) {
      setPerTenant(
        webhookPending,
        webhookPendingOldest,
        await bounded<Row>(
          db,
          `select tenant_id as tenant, count(*)::int as n,
                  extract(epoch from now() - min(created_at))::float8 as age
             from webhook_deliveries where state = 'pending' group by tenant_id`,
        ),
      );
      setPerTenant(
        webhookDisabled,
        undefined,
        await bounded<Row>(
          db,
          `select tenant_id as tenant, count(*)::int as n, null as age
             from webhook_disabled_endpoints group by tenant_id`,
        ),
      );
    },
  },
  {
    name: 'change_feed',
    // The events of the feed (docs/going-live.md "The change feed": not change.rejected, not the insights'
    // offer_flow.started) without an acknowledgement, for the tenants whose order system reads the
    // feed: without a key with `read`, nobody is expected to acknowledge. Events go after 90 days
    // (a year while unacknowledged), which bounds the scan; the anti-join walks the primary keys.
    async read(db) {
      setPerTenant(
        feedUnacknowledged,
        feedOldest,
        await bounded<Row>(
          db,
          `select e.tenant_id as tenant, count(*)::int as n,
                  extract(epoch from now() - min(e.created_at))::float8 as age
             from account_events e
            where e.type <> all($1::text[])
              and e.tenant_id in (select k.tenant_id from operator_keys k
                                   where k.revoked_at is null and 'read' = any(k.scopes))
              and not exists (select 1 from change_acknowledgements a
                               where a.tenant_id = e.tenant_id and a.event_id = e.id)
            group by e.tenant_id`,
          [FEED_EXCLUDED_TYPES],
        ),
      );
    },
  },
  {
    name: 'payments',
    // Pending payments are few (a popup's lifetime); the table holds the settled ones too.
    async read(db) {
      setPerTenant(
        paymentsPending,
        paymentsPendingOldest,
        await bounded<Row>(
          db,
          `select tenant_id as tenant, count(*)::int as n,
                  extract(epoch from now() - min(created_at))::float8 as age
             from payments where status = 'pending' group by tenant_id`,
        ),
      );
    },
  },
  {
    name: 'import_runs',
    // One row per finished import (migration 034), few: housekeeping keeps the newest per tenant
    // and result and the last 90 days.
    async read(db) {
      const rows = await bounded<{ tenant: string; result: string; at: number }>(
        db,
        `select tenant_id as tenant, result, extract(epoch from max(finished_at))::float8 as at
           from import_runs group by tenant_id, result`,
      );
      const newest = new Map<string, number>();
      for (const row of rows) {
        // A tenant no longer served would mix its runs with others' under `none`.
        if (tenantLabel(row.tenant) === 'none') continue;
        const key = `${tenantLabel(row.tenant)}\n${row.result}`;
        newest.set(key, Math.max(newest.get(key) ?? 0, Number(row.at)));
      }
      // A series only for results that happened: "never refused" has no time.
      importLastFinished.reset();
      for (const [key, at] of newest) {
        const [tenant, result] = key.split('\n');
        importLastFinished.set({ tenant, result }, at);
      }
    },
  },
];

export interface ScrapeOptions {
  /** How long database readings are reused (default 10 s). */
  cacheMs?: number;
  /**
   * How long a scrape waits for the database (default 3 s): Prometheus gives up on a scrape after
   * 10 s, and a database that is away holds a connection attempt for 5 s. Past it the scrape
   * answers with the last readings; the reading goes on and the next scrape has it.
   */
  waitMs?: number;
}

/**
 * Reads the registry's text for one scrape: the pool's numbers now, the database collectors when
 * their readings are older than cacheMs.
 */
export function metricsScraper(db: Database, options: ScrapeOptions = {}): () => Promise<string> {
  const cacheMs = options.cacheMs ?? 10_000;
  const waitMs = options.waitMs ?? 3_000;
  let readAt = 0;
  let reading: Promise<void> | undefined;
  const readDatabase = async () => {
    let failures = 0;
    let unreachable = false;
    for (const collector of COLLECTORS) {
      try {
        // Once the database is known to be away, the other reads would only wait for it too.
        if (unreachable) throw new Error('database unreachable');
        await collector.read(db);
      } catch (error) {
        failures++;
        unreachable ||= isConnectionError(error);
        scrapeErrors.inc({ collector: collector.name });
      }
    }
    databaseUp.set(failures === COLLECTORS.length ? 0 : 1);
    readAt = Date.now();
  };
  for (const collector of COLLECTORS) scrapeErrors.inc({ collector: collector.name }, 0);
  return async () => {
    const stats = db.poolStats?.();
    if (stats) {
      dbPool.total.set(stats.total);
      dbPool.idle.set(stats.idle);
      dbPool.waiting.set(stats.waiting);
    }
    if (Date.now() - readAt >= cacheMs) {
      // Concurrent scrapes share one reading.
      reading ??= readDatabase().finally(() => (reading = undefined));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([reading, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
      clearTimeout(timer);
    }
    return registry.metrics();
  };
}

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The metrics endpoint on a port of its own (METRICS_PORT, on METRICS_HOST, 127.0.0.1 by
 * default): never on the portal's public port, where every visitor could read the tenants'
 * volumes. GET /metrics answers the text format; everything else 404.
 */
export async function startMetricsServer(
  db: Database,
  options: { port: number; host?: string } & ScrapeOptions,
): Promise<MetricsServer> {
  collectNodeMetrics();
  const scrape = metricsScraper(db, options);
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the metrics are at /metrics\n');
      return;
    }
    scrape().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${String(error)}\n`),
    );
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
