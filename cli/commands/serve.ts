import type { Command } from 'commander';
import type { RunningServer, StartOptions } from '../../server/main';

export interface ServeFlags {
  port: number;
  host: string;
  outboxViewer: boolean;
}

/**
 * What `portal serve` starts: the production server over dist/. `--outbox-viewer` adds only the
 * outbox viewer (/outbox and the tenant list at /), never the development pages: the studio and
 * the QA preview open sessions without a link and write tenant files, so `portal serve` has none
 * of them in any mode (docs/operators.md "Operators: the studio", docs/reference.md "API"). `overrides` lets
 * a test give the tenants and the database instead of the environment.
 */
export async function startServe(
  flags: ServeFlags,
  overrides: Partial<StartOptions> = {},
): Promise<RunningServer> {
  const { loadValidTenants } = await import('./loadValidTenants');
  const { startServer } = await import('../../server/main');
  const { serverOptionsFromEnv } = await import('./serverOptions');
  return startServer({
    tenants: overrides.tenants ?? (await loadValidTenants()),
    ...(await serverOptionsFromEnv()),
    ...overrides,
    port: flags.port,
    host: flags.host,
    outboxViewer: flags.outboxViewer,
    devPages: false,
  });
}

/** `portal serve`: the production server over dist/ (PostgreSQL at DATABASE_URL, else the embedded PostgreSQL under data/). */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('serve every built tenant and its /api (run portal build first)')
    .option('-p, --port <port>', 'port to listen on', (v) => Number(v), Number(process.env.PORT ?? 3000))
    .option('--host <host>', 'interface to listen on', process.env.HOST ?? '127.0.0.1')
    .option(
      '--outbox-viewer',
      "the e-mails of the file outbox at /outbox and the tenant list at / (a test server without SMTP; never in production); no studio, no QA preview. At PORTAL_PUBLIC_URL the outbox shows a tenant's mails to its id and an operator key with the read scope",
      false,
    )
    .action(async (options: ServeFlags) => {
      const started = Date.now();
      // Before anything loads http, express or pg, so the instrumentations see them
      // (docs/going-live.md "Operations").
      const tracing = await (await import('../../server/telemetry/tracing')).startTracingFromEnv();
      const { loadValidTenants } = await import('./loadValidTenants');
      const tenants = await loadValidTenants();
      const server = await startServe(options, { tenants });
      console.error(`ready in ${Date.now() - started} ms: ${server.url} (${server.db.kind})`);
      if (server.metricsUrl) console.error(`metrics for Prometheus: ${server.metricsUrl}`);
      const { isDemoTenant } = await import('../../server/seed');
      const { portalCommand } = await import('../../server/runtime/portalCommand');
      const { DIST_DIR } = await import('../paths');
      const { existsSync } = await import('node:fs');
      const { join } = await import('node:path');
      const port = new URL(server.url).port;
      for (const tenant of tenants) {
        // A tenant file without its build answers 503 until it is built: the list says so.
        const unbuilt = existsSync(join(DIST_DIR, tenant.id, 'index.html'))
          ? ''
          : `   (not built: ${portalCommand()} build ${tenant.id})`;
        // Its own host names too, the addresses its subscribers use (docs/going-live.md "One host
        // per publisher"): a `.localhost` one opens here as it is; another one through your proxy.
        const own = tenant.hosts.map((host) =>
          /\.localhost$/i.test(host) ? `http://${host}${port ? `:${port}` : ''}/` : host,
        );
        console.error(
          `  ${tenant.name.padEnd(32)} ${server.url}/t/${tenant.id}/${own.length ? `   own host: ${own.join(', ')}` : ''}${isDemoTenant(tenant) ? '   (a demo tenant)' : ''}${unbuilt}`,
        );
      }
      // A go-live serves the publishers' tenants: the demo's are in tenants/ of every checkout.
      const demos = tenants.filter((tenant) => isDemoTenant(tenant));
      if (demos.length > 0)
        console.error(
          `\nThis server also serves the demo tenants ${demos.map((t) => t.id).join(', ')}: serve only your own with PORTAL_TENANTS_DIR=<a folder of your tenant files> (docs/going-live.md "7. Going live").`,
        );
      const stop = () =>
        void server
          .close()
          .then(() => tracing?.shutdown())
          .then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}
