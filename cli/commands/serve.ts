import type { Command } from 'commander';

/** `portal serve`: the production server over dist/ (PostgreSQL at DATABASE_URL, else the embedded PostgreSQL under data/). */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('serve every built tenant and its /api (run portal build first)')
    .option('-p, --port <port>', 'port to listen on', (v) => Number(v), Number(process.env.PORT ?? 3000))
    .option('--host <host>', 'interface to listen on', process.env.HOST ?? '127.0.0.1')
    .option(
      '--outbox-viewer',
      'the demo pages: /outbox (file-outbox e-mails), /preview and the tenant list at / (never in production)',
      false,
    )
    .action(async (options: { port: number; host: string; outboxViewer: boolean }) => {
      const started = Date.now();
      // Before anything loads http, express or pg, so the instrumentations see them (README "Operations").
      const tracing = await (await import('../../server/telemetry/tracing')).startTracingFromEnv();
      const { loadValidTenants } = await import('./loadValidTenants');
      const { startServer } = await import('../../server/main');
      const { serverOptionsFromEnv } = await import('./serverOptions');
      const tenants = await loadValidTenants();
      const server = await startServer({
        tenants,
        ...(await serverOptionsFromEnv()),
        port: options.port,
        host: options.host,
        outboxViewer: options.outboxViewer,
        devPages: options.outboxViewer,
      });
      console.error(`ready in ${Date.now() - started} ms: ${server.url} (${server.db.kind})`);
      if (server.metricsUrl) console.error(`metrics for Prometheus: ${server.metricsUrl}`);
      for (const tenant of tenants)
        console.error(`  ${tenant.name.padEnd(32)} ${server.url}/t/${tenant.id}/`);
      const stop = () =>
        void server
          .close()
          .then(() => tracing?.shutdown())
          .then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}
