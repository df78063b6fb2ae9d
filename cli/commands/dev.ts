import type { Command } from 'commander';
import type { Logger } from '../../server/http/requestLog';
import type { TenantIssue } from '../../tenant';

export interface DevServerOptions {
  /** Tenant id (tenants/<id>.json) or a path to a tenant file. */
  tenant: string;
  /** The port asked for; the next free one is taken when it is in use (said through `print`). */
  port: number;
  host?: string;
  dataDir?: string;
  databaseUrl?: string;
  smtpUrl?: string;
  log?: Logger;
  /** Where the terminal lines go (start-up, problems); default stderr. */
  print?: (line: string) => void;
  /** Start the demo OpenID provider for tenants with single sign-on (default true). */
  demoProviders?: boolean;
}

/** Where `portal dev` serves the tenant (at the root) and where its outbox. */
const DEV_PORTAL_HOST = '127.0.0.1';
const DEV_PAGES_HOST = 'localhost';

export interface DevServer {
  /** The portal, at the root. */
  url: string;
  /** Where the outbox is: `${devPagesUrl}/outbox`. */
  devPagesUrl: string;
  /** Problems of the tenant file as last read: empty while it is valid. */
  problems(): readonly TenantIssue[];
  /** Resolves after the next time the watched file was read and checked (for tests). */
  nextCheck(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `portal dev <tenant>`: the Vite dev server (hot reload of engine code) with the real API on one
 * port; the tenant is served at the root and re-validated and reloaded when its file changes. While
 * the file is invalid its pages show every problem (an overlay like Vite's) and the API
 * keeps the last valid version; the log is one readable line a request.
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const { watch, readFileSync } = await import('node:fs');
  const path = await import('node:path');
  const { createServer } = await import('vite');
  const react = (await import('@vitejs/plugin-react')).default;
  const { Router } = await import('express');
  const { loadValidTenants } = await import('./loadValidTenants');
  const { choosePort } = await import('./freePort');
  const { tenantPageInput } = await import('../../tenant/page/tenantPage');
  const { renderTenantHtml } = await import('../../tenant/page/renderTenantHtml');
  const { startServer } = await import('../../server/main');
  const { devLogger, isDevAssetPath } = await import('../../server/http/requestLog');
  const { workbenchServerOptions } = await import('./serverOptions');
  const { seedDemo, isDemoTenant, bringDataInHint } = await import('../../server/seed');
  const { sendPage, BASE_PLACEHOLDER } = await import('../../server/spa/tenantSite');
  const { problemOverlayPage } = await import('../../server/spa/problemOverlay');
  const { ENGINE_DIR, TENANTS_DIR } = await import('../paths');
  const { formatIssueWithHint, loadTenantFiles } = await import('../../tenant');
  const print = options.print ?? ((line: string) => console.error(line));
  const host = options.host ?? '127.0.0.1';

  const file = path.resolve(
    options.tenant.endsWith('.json') ? options.tenant : path.join(TENANTS_DIR, `${options.tenant}.json`),
  );
  // Problems name the file as the operator would type it: relative to the working folder when inside it.
  const relative = path.relative(process.cwd(), file);
  const shownFile = relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
  const [loaded] = await loadValidTenants([shownFile]);
  // The tenant answers at the root of 127.0.0.1, the server's own address. The outbox answers at
  // localhost: a tenant's host is its portal's on every path, and the portal's origin, where the
  // tenant's contact script may run, must not be the outbox's (server/http/demoPageHost.ts). No
  // studio and no QA preview: their frames show portals at `/t/<id>/`, where Vite's pages do not
  // work (its module addresses are the root's); `portal studio` and `portal preview` have them.
  const withDevHost = (hosts: readonly string[]) => [...hosts, DEV_PORTAL_HOST];
  const tenant = { ...loaded, hosts: withDevHost(loaded.hosts) };
  let problems: TenantIssue[] = [];
  let checked: Array<() => void> = [];

  const port = await choosePort(options.port, host);
  if (port.notice) print(port.notice);
  // Vite's reload channel gets its own free port, so two `portal dev` can run side by side.
  const hmrPort = await choosePort(24678, host);
  const vite = await createServer({
    root: ENGINE_DIR,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    server: { middlewareMode: true, hmr: { port: hmrPort.port, host } },
    appType: 'custom',
  });
  const site = Router();
  site.use(vite.middlewares);
  site.get('/{*path}', async (req, res, next) => {
    try {
      // Modules and assets (a favicon) are not pages: only pages turn into the overlay.
      if (problems.length && !isDevAssetPath(req.path)) {
        // The problems in the browser, not only in the terminal. Vite's client (added by
        // transformIndexHtml) reloads the page when the file changes.
        const overlay = await vite.transformIndexHtml(
          req.originalUrl,
          problemOverlayPage(shownFile, problems),
        );
        res.status(500);
        sendPage(res, tenant, overlay, { development: true });
        return;
      }
      const template = readFileSync(path.join(ENGINE_DIR, 'index.html'), 'utf8');
      const page = tenantPageInput(tenant);
      // The development sign-in signs in anyone, so only on a demo tenant (server/auth/authRoutes.ts).
      const devMode = isDemoTenant(tenant);
      const html = renderTenantHtml(template, { ...page, config: { ...page.config, devMode } }).replace(
        BASE_PLACEHOLDER,
        '/',
      );
      sendPage(res, tenant, await vite.transformIndexHtml(req.originalUrl, html), { development: true });
    } catch (error) {
      vite.ssrFixStacktrace(error as Error);
      next(error);
    }
  });

  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    // Its own database beside a running portal's, as the studio's (workbenchServerOptions).
    const settings = {
      ...(await workbenchServerOptions('dev')),
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
    };
    server = await startServer({
      tenants: [tenant],
      ...settings,
      ...(options.smtpUrl ? { smtpUrl: options.smtpUrl } : {}),
      port: port.port,
      host,
      outboxViewer: true,
      devPages: true,
      framedDevPages: false,
      siteHandler: site,
      mode: 'development',
      log: options.log ?? devLogger(),
      beforeListen: async (db) => {
        await seedDemo(db, [tenant]);
        // Its commands name this workbench's database, where its data must go to show here.
        if (!isDemoTenant(tenant)) print(`${tenant.id}: ${bringDataInHint(tenant.id, settings)}`);
      },
    });
  } catch (error) {
    await vite.close();
    throw error;
  }
  const providers =
    options.demoProviders === false
      ? []
      : await (
          await import('../../server/devOidc/startDemoProviders')
        ).startDemoProviders([tenant], server.url, print);

  // The folder is watched, not the file: editors that save by renaming would end a file watch.
  let timer: NodeJS.Timeout | undefined;
  const check = async () => {
    const { tenants, issues } = await loadTenantFiles([shownFile]);
    const wasInvalid = problems.length > 0;
    problems = issues;
    if (issues.length) {
      print(
        `${shownFile} has ${issues.length} ${issues.length === 1 ? 'problem' : 'problems'} (shown in the browser too):\n${issues.map(formatIssueWithHint).join('\n')}`,
      );
    } else {
      Object.assign(tenant, tenants[0], { hosts: withDevHost(tenants[0].hosts) });
      print(wasInvalid ? `${shownFile} is valid again: reloading` : `${shownFile} changed: reloading`);
    }
    vite.ws.send({ type: 'full-reload' });
    const waiting = checked;
    checked = [];
    waiting.forEach((resolve) => resolve());
  };
  const watcher = watch(path.dirname(file), (_event, name) => {
    if (name !== path.basename(file)) return;
    clearTimeout(timer);
    // Editors write a file in several steps: check once they are done.
    timer = setTimeout(
      () => void check().catch((error) => print(`could not read ${shownFile}: ${String(error)}`)),
      60,
    );
  });

  const devPagesUrl = new URL(server.url);
  devPagesUrl.hostname = DEV_PAGES_HOST;
  return {
    url: server.url,
    devPagesUrl: devPagesUrl.origin,
    problems: () => problems,
    nextCheck: () => new Promise<void>((resolve) => checked.push(resolve)),
    async close() {
      watcher.close();
      clearTimeout(timer);
      await Promise.all([server.close(), vite.close(), ...providers.map((p) => p.close())]);
    },
  };
}

export function registerDev(program: Command): void {
  program
    .command('dev')
    .description('develop one tenant: Vite dev server with the API, reloading on tenant file changes')
    .argument('<tenant>', 'tenant id or tenant file')
    .option(
      '-p, --port <port>',
      'port to listen on; the next free one when taken',
      (v) => Number(v),
      Number(process.env.PORT ?? 5173),
    )
    .action(async (id: string, options: { port: number }) => {
      const started = Date.now();
      const dev = await startDevServer({ tenant: id, port: options.port });
      console.log(`ready in ${Date.now() - started} ms: ${dev.url}/  (outbox: ${dev.devPagesUrl}/outbox)`);
      const stop = () => void dev.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}
