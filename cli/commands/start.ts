import path from 'node:path';
import type { Command } from 'commander';

/**
 * `portal start` (what `npm start` runs): build every tenant, migrate and seed the demo data of the
 * demo tenants, serve all portals on one port with the outbox viewer, and print each tenant's URL
 * with its demo logins, or, for a tenant that is no demo, how to bring its data in.
 */
export function registerStart(program: Command): void {
  program
    .command('start')
    .description('build all tenants, seed demo data and serve them on one port (the demo)')
    .option('-p, --port <port>', 'port to listen on', (v) => Number(v), Number(process.env.PORT ?? 3000))
    .option('--host <host>', 'interface to listen on', process.env.HOST ?? '127.0.0.1')
    .option('--skip-build', 'serve the existing dist/ without rebuilding', false)
    // A second demo on one machine (or a test run beside one) leaves the provider's port to the first.
    .option('--no-demo-providers', 'do not start the demo OpenID provider of single sign-on tenants')
    .action(async (options: { port: number; host: string; skipBuild: boolean; demoProviders: boolean }) => {
      const started = Date.now();
      // Before anything loads http, express or pg, so the instrumentations see them
      // (docs/going-live.md "Operations").
      const tracing = await (await import('../../server/telemetry/tracing')).startTracingFromEnv();
      const { loadValidTenants } = await import('./loadValidTenants');
      const { buildTenants, formatBuildTable } = await import('../build/buildTenants');
      const { startServer } = await import('../../server/main');
      const { serverOptionsFromEnv } = await import('./serverOptions');
      const { seedDemo, hasPasswordSignIn, isDemoTenant, bringDataInHint, DEMO_PASSWORD } =
        await import('../../server/seed');
      const { DIST_DIR, ENGINE_BUILD_DIR } = await import('../paths');
      const tenants = await loadValidTenants();
      if (!options.skipBuild) {
        const reports = await buildTenants(tenants, {
          distDir: DIST_DIR,
          engineDir: ENGINE_BUILD_DIR,
          progress: (m) => console.error(m),
        });
        console.error(formatBuildTable(reports));
      }
      let logins: Awaited<ReturnType<typeof seedDemo>> = [];
      const serverOptions = await serverOptionsFromEnv();
      const server = await startServer({
        tenants,
        ...serverOptions,
        port: options.port,
        host: options.host,
        outboxViewer: true,
        devPages: true,
        beforeListen: async (db) => {
          // The demo's order-system data is imported from NDJSON files it leaves under data/seed/,
          // working examples of every entity for an operator's own export.
          logins = await seedDemo(db, tenants, { fixturesDir: path.join(serverOptions.dataDir, 'seed') });
        },
      });
      const { startDemoProviders } = await import('../../server/devOidc/startDemoProviders');
      const providers = options.demoProviders
        ? await startDemoProviders(tenants, server.url, (message) => console.error(message))
        : [];
      console.log(`\nready in ${Date.now() - started} ms on ${server.db.kind}: ${server.url}\n`);
      if (server.metricsUrl) console.log(`metrics for Prometheus: ${server.metricsUrl}\n`);
      for (const tenant of tenants) {
        // Demo people only on demo tenants; a publisher's tenant is told where its data comes from.
        if (!isDemoTenant(tenant)) {
          console.log(`${tenant.name} — ${server.url}/t/${tenant.id}/`);
          console.log(`    ${bringDataInHint(tenant.id)}`);
          continue;
        }
        const password = hasPasswordSignIn(tenant) ? `   (password sign-in: ${DEMO_PASSWORD})` : '';
        console.log(`${tenant.name} — ${server.url}/t/${tenant.id}/${password}`);
        for (const login of logins.filter((l) => l.tenantId === tenant.id))
          console.log(`    ${login.email.padEnd(40)} ${login.description}`);
      }
      console.log(`\nLog in with a demo e-mail; the magic link arrives in ${server.url}/outbox`);
      console.log(`QA preview of all tenants side by side: ${server.url}/preview`);
      for (const provider of providers)
        console.log(`Demo sign-on provider (any e-mail, any password): ${provider.issuer}`);
      const stop = () =>
        void Promise.all([server.close(), ...providers.map((p) => p.close())])
          .then(() => tracing?.shutdown())
          .then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}
