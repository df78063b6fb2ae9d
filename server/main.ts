import type { Server } from 'node:http';
import { applyHeapGrowth } from './runtime/heapGrowth';
import path from 'node:path';
import type { Router, RequestHandler } from 'express';
import { createApp } from './app';
import type { Database } from './db/database';
import { openDatabase } from './db/openDatabase';
import { migrate } from './db/migrate';
import { startHousekeeping } from './db/housekeeping';
import { jsonLogger, type Logger } from './http/requestLog';
import { createMailer, mailFromOfEnv } from './mail/mailer';
import { startMailSender } from './mail/mailSender';
import { startWebhookDeliverer } from './events/webhookDeliverer';
import { retiredPrivateAddressSwitch } from './http/publicRequest';
import { REFUND_ROUND_MS } from './payments/paymentRefunds';
import { startPeriodicJob } from './jobs/periodicJob';
import { featureJobs } from './featureManifest';
import { SERVER_FEATURES } from './features';
import { signInLimitsFromEnv } from './auth/rateLimit';
import type { ServerTenant } from './tenancy/tenantContext';
import { startMetricsServer, type MetricsServer } from './metrics/scrape';

export interface StartOptions {
  tenants: readonly ServerTenant[];
  distDir: string;
  dataDir: string;
  port: number;
  host?: string;
  /** An external PostgreSQL when set (DATABASE_URL); the embedded cluster under `<dataDir>/postgres` otherwise. */
  databaseUrl?: string;
  smtpUrl?: string;
  /** The sender of the portal's mails (MAIL_FROM); each goes out under its publisher's name. */
  mailFrom?: string;
  /** /outbox and the tenant list at / (file outbox only: not with smtpUrl). */
  outboxViewer?: boolean;
  /** The development pages (/studio, /preview): start, dev, preview and studio, never serve; default false. */
  devPages?: boolean;
  /** With devPages: /studio and /preview too (default true; see AppOptions). */
  framedDevPages?: boolean;
  log?: Logger;
  siteHandler?: Router | RequestHandler;
  /** With devPages: builds the engine into a folder when the studio's preview finds none (see AppOptions). */
  buildEngine?: (engineDir: string) => Promise<unknown>;
  /** With devPages: builds the studio into a folder for /studio (see AppOptions). */
  buildStudio?: (studioDir: string) => Promise<unknown>;
  /**
   * With devPages: the database holds demo data in every tenant, demo or not (`portal preview`'s own
   * database), so the QA preview signs in the demo logins of a tenant that is no demo too. Elsewhere
   * such a tenant's accounts came from its order system, and the preview signs none of them in.
   */
  demoDataInEveryTenant?: boolean;
  /**
   * Deliver account events to the tenants' webhook endpoints (default true). The workbenches
   * (`portal dev`, the studio, the preview) keep their events: what an operator clicks through there
   * must not reach a publisher's systems as if a subscriber had done it.
   */
  deliverWebhooks?: boolean;
  /** Runs after migrations, before listening (the demo seed). */
  beforeListen?: (db: Database) => Promise<void>;
  mode?: 'production' | 'development';
  /**
   * The Prometheus endpoint's port (docs/going-live.md "Operations"; default METRICS_PORT): its own listener,
   * never the portal's port. Unset: no metrics endpoint and no request metrics. `null`: none, whatever
   * METRICS_PORT says (a workbench beside the running portal, whose port that is).
   */
  metricsPort?: number | null;
  /** Where the metrics endpoint listens (default METRICS_HOST, else 127.0.0.1). */
  metricsHost?: string;
}

/** METRICS_PORT as a port number; anything else stops the start naming the variable. */
export function metricsPortFromEnv(value = process.env.METRICS_PORT): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`METRICS_PORT must be a port number (0 to 65535), not "${value}"`);
  return port;
}

export interface RunningServer {
  url: string;
  db: Database;
  /** The Prometheus endpoint (http://127.0.0.1:<METRICS_PORT>/metrics) when it is on. */
  metricsUrl?: string;
  close(): Promise<void>;
}

/** Opens the database, applies migrations and listens: the production entry of `portal serve`. */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  // Outbound requests go to public addresses only (docs/going-live.md "Outbound requests"): a variable that
  // once allowed private ones is refused, not ignored, so the operator learns it at once.
  const retired = retiredPrivateAddressSwitch();
  if (retired) throw new Error(retired);
  applyHeapGrowth();
  const log = options.log ?? jsonLogger();
  const metricsPort =
    options.metricsPort === null ? undefined : (options.metricsPort ?? metricsPortFromEnv());
  // The sender's address (MAIL_FROM); checked before anything starts, like METRICS_PORT.
  const mailFrom = options.mailFrom ?? mailFromOfEnv();
  const db = await openDatabase({ url: options.databaseUrl, dataDir: options.dataDir });
  let server: Server;
  let stopHousekeeping = () => {};
  let stopMailSender: () => Promise<void> = async () => {};
  let stopWebhookDeliverer: () => Promise<void> = async () => {};
  // The features' own jobs (their manifests' `jobs`, server/features.ts), in list order.
  const stopFeatureJobs: Array<() => Promise<void>> = [];
  let stopPaymentReconciliation: () => Promise<void> = async () => {};
  let stopPaymentRefunds: () => Promise<void> = async () => {};
  let metrics: MetricsServer | undefined;
  try {
    const applied = await migrate(db);
    if (applied.length) log({ msg: 'migrations applied', migrations: applied });
    await options.beforeListen?.(db);
    stopHousekeeping = startHousekeeping(db, log);
    const outboxDir = path.join(options.dataDir, 'outbox');
    const mailer = createMailer({ smtpUrl: options.smtpUrl, outboxDir });
    // E-mails leave through the queue in the database; this instance's sender drains it, each
    // under its publisher's name.
    const tenantNames = new Map(options.tenants.map((tenant) => [tenant.id, tenant.name]));
    stopMailSender = startMailSender(db, mailer, { log, senderName: (id) => tenantNames.get(id) });
    // Account events go to the tenants' webhook endpoints from the database; every instance helps.
    if (options.deliverWebhooks !== false)
      stopWebhookDeliverer = startWebhookDeliverer(db, options.tenants, { log });
    // The features' jobs: dated changes (account), timed e-cards (e-card), invoice documents made
    // ahead (documents), the retention insights' daily summary (insights). The mail sender, the
    // webhook deliverer, the housekeeping and the payment reconciliation serve every feature and
    // stay here; the reconciliation asks the providers the API built (createApp's reconcilePayments).
    for (const job of featureJobs(SERVER_FEATURES))
      stopFeatureJobs.push(job.start({ db, tenants: options.tenants, log, mailFrom }));
    const { app, reconcilePayments, refundPayments } = createApp({
      db,
      tenants: options.tenants,
      mailFrom,
      distDir: options.distDir,
      mailer,
      outboxViewerDir: options.outboxViewer && !options.smtpUrl ? outboxDir : undefined,
      // Only the development commands ask for them: never `portal serve`, outbox viewer or not.
      devPages: options.devPages ?? false,
      framedDevPages: options.framedDevPages,
      demoDataInEveryTenant: options.demoDataInEveryTenant,
      commandDatabase: { dataDir: options.dataDir, databaseUrl: options.databaseUrl },
      buildEngine: options.buildEngine,
      buildStudio: options.buildStudio,
      siteHandler: options.siteHandler,
      mode: options.mode,
      signInLimits: signInLimitsFromEnv(),
      log,
      metrics: metricsPort !== undefined,
    });
    // Hosted payments whose provider's report is late are asked about (docs/architecture.md "Payments").
    stopPaymentReconciliation = startPeriodicJob('payment reconciliation', reconcilePayments, {
      intervalMs: 60_000,
      log,
    });
    // Money paid for what could not be given goes back through its provider (docs/architecture.md "Payments").
    stopPaymentRefunds = startPeriodicJob('payment refunds', refundPayments, {
      intervalMs: REFUND_ROUND_MS,
      log,
    });
    if (metricsPort !== undefined)
      metrics = await startMetricsServer(db, {
        port: metricsPort,
        host: options.metricsHost ?? (process.env.METRICS_HOST || '127.0.0.1'),
      });
    const host = options.host ?? '127.0.0.1';
    server = await new Promise((resolve, reject) => {
      const listening = app.listen(options.port, host, (error?: Error) =>
        error ? reject(error) : resolve(listening),
      );
    });
    // Requests that outlive their client or this limit are ended (and logged as timed out by the request log).
    server.requestTimeout = 30_000;
  } catch (error) {
    // A failed start must not leave the embedded cluster running behind an exiting process.
    stopHousekeeping();
    await stopMailSender().catch(() => undefined);
    await stopWebhookDeliverer().catch(() => undefined);
    for (const stop of stopFeatureJobs) await stop().catch(() => undefined);
    await stopPaymentReconciliation().catch(() => undefined);
    await stopPaymentRefunds().catch(() => undefined);
    await metrics?.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw error;
  }
  const host = options.host ?? '127.0.0.1';
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
    db,
    metricsUrl: metrics?.url,
    async close() {
      stopHousekeeping();
      await metrics?.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      // Both finish what is under way (a webhook request at most its 10 s time-out) before the database goes.
      await Promise.all([
        stopMailSender(),
        stopWebhookDeliverer(),
        ...stopFeatureJobs.map((stop) => stop()),
        stopPaymentReconciliation(),
        stopPaymentRefunds(),
      ]);
      await db.close();
    },
  };
}
