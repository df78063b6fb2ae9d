import express, { Router, type Express, type Request, type RequestHandler } from 'express';
import type { Database } from './db/database';
import { createAuthService, type AuthService } from './auth/authService';
import type { SignInLimits } from './auth/rateLimit';
import { createOAuthLogin } from './auth/oauthLogin';
import { ssoAuthorizeRoute } from './auth/oauthRoutes';
import { issueXsrfCookie, requireXsrf } from './auth/xsrf';
import { apiNotFound, errorMiddleware } from './http/errors';
import { createDatabaseHealth } from './db/databaseHealth';
import { readinessDetails } from './metrics/readiness';
import { demoPageHostOnly } from './http/demoPageHost';
import { guardRequestInput, guardRouteParams } from './http/inputGuard';
import { jsonBody } from './http/jsonBody';
import { noStore, applyCommonHeaders } from './http/securityHeaders';
import { dynamicCompression } from './http/compression';
import { boundClientAddress, trustProxyFromEnv, type TrustProxySetting } from './http/trustProxy';
import { requestLog, silentLogger, type Logger } from './http/requestLog';
import { PORTAL_MAIL_FROM, type Mailer } from './mail/mailer';
import { outboxPage } from './mail/outboxPage';
import { tenantSite } from './spa/tenantSite';
import { apiRouters } from './apiRoutes';
import { operatorApi } from './operator/operatorApi';
import { OPERATOR_PARTS } from './operator/operatorParts';
import { screenLocaleContext } from './events/eventLocale';
import type { CommandDatabase } from './seed/seedDemo';
import { hostTenantResolver, prefixTenantResolver, TenantDirectory } from './tenancy/tenantResolver';
import type { ServerTenant } from './tenancy/tenantContext';
import { tenantIndexPage } from './spa/tenantIndexPage';
import { previewRouter } from './preview/previewRoutes';
import { isLoopbackAddress, proxyHeadersOf, studioLocalOnly } from './studio/studioGuard';
import { httpMetrics } from './metrics/httpMetrics';
import { recordRouteTemplates } from './http/routeTemplate';
import { setKnownTenants } from './metrics/registry';

export interface AppOptions {
  db: Database;
  tenants: readonly ServerTenant[];
  mailer: Mailer;
  /** Folder with one built portal per tenant (`dist/`). */
  distDir: string;
  mailFrom?: string;
  log?: Logger;
  /**
   * Folder of the file outbox: /outbox lists its e-mails and / the tenants. Development servers and
   * `portal serve --outbox-viewer`; neither page signs anyone in or writes anything.
   */
  outboxViewerDir?: string;
  /**
   * Development servers only (`npm start`, `portal dev`, `portal preview`, `portal studio`): mounts
   * /studio (edits tenant files, opens demo users' sessions) and /preview (every tenant side by side,
   * signs in demo logins). Never `portal serve`, with or without --outbox-viewer (docs/reference.md "API",
   * "Operators: the studio"): in production they would list every tenant and open sessions.
   */
  devPages?: boolean;
  /**
   * With devPages, whether /studio and /preview are mounted (default: yes). They show portals in
   * frames at `/t/<id>/`, which `portal dev`'s Vite pages cannot serve (its module addresses are
   * the root's): it has neither, and names `portal studio` and `portal preview` instead.
   */
  framedDevPages?: boolean;
  /**
   * With devPages: the database holds demo data in every tenant, demo or not (`portal preview`'s own
   * database), so the QA preview signs in the demo logins of a tenant that is no demo too. Elsewhere
   * such a tenant's accounts came from its order system, and the preview signs none of them in.
   */
  demoDataInEveryTenant?: boolean;
  /**
   * With devPages: this server's database, which the studio's and the preview's hints name for the
   * `portal` commands that bring a tenant's data in (a workbench's own, server/seed/seedDemo.ts).
   */
  commandDatabase?: CommandDatabase;
  /**
   * Builds the engine (the CLI's Vite build) into a folder: the studio's preview calls it when the
   * dist folder has no engine yet. Handed in by the command, since the server never imports cli/.
   */
  buildEngine?: (engineDir: string) => Promise<unknown>;
  /** Builds the studio (its own Vite build) into a folder: /studio calls it; handed in like buildEngine. */
  buildStudio?: (studioDir: string) => Promise<unknown>;
  /** Which proxies may tell the client's address (server/http/trustProxy.ts); default: TRUST_PROXY, unset trusts none. */
  trustProxy?: TrustProxySetting;
  /** Replaces the SPA handler, e.g. with Vite's dev middleware in `portal dev`. */
  siteHandler?: Router | RequestHandler;
  now?: () => Date;
  /** `development` under `portal dev` (development login on); `production` otherwise. */
  mode?: 'production' | 'development';
  signInLimits?: SignInLimits;
  /**
   * A sign-on provider on this machine (not the private network around it) may be asked (tests' providers). The
   * development servers allow it anyway (devPages: the demo provider on 127.0.0.1:4455); `portal
   * serve` never does (docs/going-live.md "Account events and webhooks", "Outbound requests").
   */
  allowPrivateSignOnProviders?: boolean;
  /** Failed operator API authentications per client before 429 (default OPERATOR_AUTH_FAILURE_LIMIT). */
  operatorAuthFailureLimit?: { windowSeconds: number; limit: number };
  /**
   * Counts and times every request for Prometheus (docs/going-live.md "Operations"); `portal serve` turns it
   * on with METRICS_PORT. Off, a request pays nothing for it.
   */
  metrics?: boolean;
}

/** A handler made on its first request; a failed load is tried again by the next one. */
function loadedOnFirstUse(load: () => Promise<RequestHandler>): RequestHandler {
  let handler: Promise<RequestHandler> | undefined;
  return (req, res, next) => {
    handler ??= load().catch((error: unknown) => {
      handler = undefined;
      throw error;
    });
    handler.then((ready) => ready(req, res, next), next);
  };
}

/**
 * Whether a /readyz request may read why (the database's error, migrations, jobs, how many tenants):
 * an operator or a probe on the machine asks the instance itself, from a loopback address, with no
 * proxy header and not on a publisher's host. Anyone else learns the status alone, with the same
 * code: the details name the platform's insides (an error may name the database's host), and a
 * proxy or load balancer that adds no header still connects from an address of its own, not
 * loopback. Monitoring elsewhere has the jobs' metrics (`portal_job_*`, docs/going-live.md).
 */
function mayReadReadinessDetails(req: Request, directory: TenantDirectory): boolean {
  // forHost compares names as DNS does (tenant/hostNames.ts): `abo.example.de.` is a tenant's too.
  const host = req.headers.host;
  return (
    isLoopbackAddress(req.socket.remoteAddress) &&
    proxyHeadersOf(req).length === 0 &&
    directory.forHost(host) === undefined
  );
}

/** What crawlers may read: the public pages (login, FAQ, contact), not the API. */
const ROBOTS_TXT = 'User-agent: *\nDisallow: /api/\nDisallow: /t/*/api/\n';

/**
 * Builds the Express app without listening (docs/architecture.md "The folders": `server/`): every tenant's
 * portal and its /api, resolved by Host header or `/t/<id>/` prefix, health and readiness, one error shape.
 */
export function createApp(options: AppOptions): {
  app: Express;
  auth: AuthService;
  /** One round of the payment reconciliation job (server/main.ts runs it; tests call it). */
  reconcilePayments: () => Promise<{ asked: number; settled: number }>;
  /** One round of the refund job (server/main.ts runs it; tests call it). */
  refundPayments: () => Promise<{ issued: number; failed: number; retried: number }>;
} {
  const log = options.log ?? silentLogger;
  const directory = new TenantDirectory(options.tenants);
  const mailFrom = options.mailFrom ?? PORTAL_MAIL_FROM;
  const now = options.now ?? (() => new Date());
  const auth = createAuthService({ db: options.db, mailFrom, now, signInLimits: options.signInLimits });
  const oauth = createOAuthLogin({
    db: options.db,
    auth,
    now,
    log,
    allowPrivateProviders: options.devPages === true || options.allowPrivateSignOnProviders === true,
  });
  const { routers, paymentCallbacks, reconcilePayments, refundPayments } = apiRouters({
    db: options.db,
    auth,
    mailer: options.mailer,
    mailFrom,
    log,
    now,
    mode: options.mode ?? 'production',
    oauth,
    signInLimits: options.signInLimits,
  });

  // The tenant labels of the metrics are the directory's ids, whatever a request or a row names.
  setKnownTenants(options.tenants.map((tenant) => tenant.id));

  const app = express();
  app.disable('x-powered-by');
  if (options.metrics) app.use(httpMetrics());
  app.set('trust proxy', options.trustProxy ?? trustProxyFromEnv());
  app.use(boundClientAddress);
  applyCommonHeaders(app);
  app.use(requestLog(log));

  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  // Crawlers read /robots.txt of the host: a portal's pages are an account's, its API nobody's to
  // index. Answered before the tenants so a tenant host's SPA fallback does not answer it as a page.
  app.get('/robots.txt', (_req, res) => void res.type('text/plain').send(ROBOTS_TXT));
  // Browsers ask the host for /favicon.ico when a page names no icon (the payment pages, the opt-in
  // confirmation): no icon, said without an error in the console. The portal's pages name their own.
  app.get(
    '/favicon.ico',
    (_req, res) => void res.set('cache-control', 'public, max-age=86400').status(204).end(),
  );
  const databaseHealth = createDatabaseHealth(now);
  app.get('/readyz', async (req, res) => {
    try {
      await options.db.query('select 1');
      databaseHealth.up();
      const lastOutage = databaseHealth.lastOutage();
      const details = await readinessDetails(options.db);
      // Pending migrations: this code would answer on a schema it does not know, so no traffic.
      // A stalled job is said (`degraded`) but keeps the instance serving: its requests still work,
      // and the alert "job stopped" (ops/prometheus/alerts.yml) calls someone.
      const migrating = details.migrations.pending.length > 0;
      const status = migrating ? 'unavailable' : details.ok ? 'ready' : 'degraded';
      if (!mayReadReadinessDetails(req, directory)) {
        res.status(migrating ? 503 : 200).json({ status });
        return;
      }
      res.status(migrating ? 503 : 200).json({
        status,
        database: options.db.kind,
        tenants: directory.all().length,
        migrations: details.migrations,
        jobs: details.jobs,
        ...(lastOutage ? { lastOutage } : {}),
      });
    } catch (error) {
      databaseHealth.down(error);
      const { reason, since } = databaseHealth.lastOutage()!;
      res
        .status(503)
        .json(
          mayReadReadinessDetails(req, directory)
            ? { status: 'unavailable', database: options.db.kind, reason, since }
            : { status: 'unavailable' },
        );
    }
  });

  const operator = operatorApi(
    {
      db: options.db,
      log,
      now,
      mailer: options.mailer,
      mailFrom,
      authFailureLimit: options.operatorAuthFailureLimit,
    },
    OPERATOR_PARTS,
  );

  const tenantRouter = (resolver: RequestHandler) => {
    const router = Router({ mergeParams: true });
    router.use(resolver);
    // The order system's API: keys, not cookies, so before the XSRF cookie.
    router.use('/operator/v1', operator);
    // The payment providers' webhooks: signed (or answered from the provider's API), not
    // cookie-borne, and read raw for their signatures, so before the XSRF check and the JSON parser.
    router.use('/api/payments', paymentCallbacks);
    router.use(issueXsrfCookie);
    const api = Router();
    // Every /api answer above the threshold, the refusals included; the PDFs stay as they are.
    api.use(dynamicCompression());
    api.use(jsonBody());
    api.use(noStore);
    api.use(requireXsrf);
    api.use(guardRequestInput);
    // What a screen's call records keeps that screen's language (server/events/eventLocale.ts).
    api.use(screenLocaleContext);
    for (const router of routers) api.use(router);
    api.use(apiNotFound);
    router.use('/api', api);
    // The sign-on start stores its returnTo query: the same boundary check as the API.
    router.use('/sso', guardRequestInput);
    router.use(ssoAuthorizeRoute(oauth));
    router.use(options.siteHandler ?? tenantSite(options.distDir));
    return router;
  };

  // Path parameters of every API route are checked once the routers hold their routes.
  guardRouteParams(routers);
  // The development pages answer no tenant's host: there the tenant's portal answers every path,
  // and a script on the tenant's page (a contact form's, say) would reach the studio and the
  // preview from that page's own origin, since a development server's tenant names are loopback
  // names (`<tenant>.localhost`) like the pages' own (http/demoPageHost.ts).
  const offTenantHosts: RequestHandler = (req, _res, next) =>
    next(directory.forHost(req.headers.host) ? 'router' : undefined);
  // The portal studio before the host-resolved tenants, which answer every path of their hosts.
  // Loaded on its first request: the studio renders pages with the build's sanitizer, and jsdom
  // under it is about 90 MB that a server nobody opens the studio on never needs.
  const framedDevPages = options.devPages === true && options.framedDevPages !== false;
  if (framedDevPages) {
    const studio = {
      db: options.db,
      auth,
      tenants: options.tenants,
      distDir: options.distDir,
      buildEngine: options.buildEngine,
      buildStudio: options.buildStudio,
      commandDatabase: options.commandDatabase,
    };
    const studioMount = Router().use(
      offTenantHosts,
      // Refused before the studio is even loaded: only this machine, at a loopback name, unproxied.
      studioLocalOnly,
      loadedOnFirstUse(() =>
        import('./studio/studioRoutes').then((module) => {
          const router = module.studioRouter(studio);
          recordRouteTemplates(router);
          return router;
        }),
      ),
    );
    app.use('/studio', studioMount);
  }
  // The QA preview and its dev-only sign-in of demo logins, never in production; before
  // the host-resolved tenant too.
  if (framedDevPages)
    app.use(
      Router()
        .use(offTenantHosts)
        .use('/preview', demoPageHostOnly())
        .use(
          previewRouter({
            db: options.db,
            directory,
            now,
            demoDataInEveryTenant: options.demoDataInEveryTenant === true,
            commandDatabase: options.commandDatabase,
          }),
        ),
    );
  app.use(tenantRouter(hostTenantResolver(directory)));
  app.use(
    '/t/:tenantId',
    tenantRouter(prefixTenantResolver(directory, Boolean(options.devPages || options.outboxViewerDir))),
  );
  if (options.outboxViewerDir)
    app.get('/outbox', demoPageHostOnly(), outboxPage(options.outboxViewerDir, { db: options.db, now, log }));
  // The list of every tenant on the shared host is a demo page too (it links /outbox, and /preview
  // on a development server).
  if (options.devPages || options.outboxViewerDir)
    app.get(
      '/',
      demoPageHostOnly(),
      tenantIndexPage(directory, {
        outbox: Boolean(options.outboxViewerDir),
        preview: framedDevPages,
      }),
    );
  app.use('/api', apiNotFound);
  // Only a development server or the outbox viewer lists the portals at /.
  const whereThePortalsAre =
    options.devPages || options.outboxViewerDir
      ? 'Open / for the list of portals.'
      : "A portal answers on its tenant's own host, or at /t/<tenant id>/ on this one.";
  app.use((req, res) => {
    res.status(404).type('text/plain').send(`No portal at ${req.path}. ${whereThePortalsAre}`);
  });
  // A request answered 503 because the database is away marks the outage /readyz reports.
  app.use(
    errorMiddleware((entry) => {
      if (entry.msg === 'database unavailable') databaseHealth.down({ message: entry.error });
      log(entry);
    }),
  );
  // Every route notes its template as it matches (the request metrics' label, the trace's name).
  recordRouteTemplates(app.router);
  return {
    app,
    auth,
    reconcilePayments: () => reconcilePayments((id) => directory.get(id)),
    refundPayments: () => refundPayments((id) => directory.get(id)),
  };
}
