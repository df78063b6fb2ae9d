import type { Command } from 'commander';

/**
 * `portal dev <tenant>`: the Vite dev server (hot reload of engine code) with the real API on one
 * port; the tenant is served at the root and re-validated and reloaded when its file changes.
 */
export function registerDev(program: Command): void {
  program
    .command('dev')
    .description('develop one tenant: Vite dev server with the API, reloading on tenant file changes')
    .argument('<tenant>', 'tenant id')
    .option('-p, --port <port>', 'port to listen on', (v) => Number(v), Number(process.env.PORT ?? 5173))
    .action(async (id: string, options: { port: number }) => {
      const { watch, readFileSync } = await import('node:fs');
      const path = await import('node:path');
      const { createServer } = await import('vite');
      const react = (await import('@vitejs/plugin-react')).default;
      const { Router } = await import('express');
      const { loadValidTenants } = await import('./loadValidTenants');
      const { tenantPageInput } = await import('../build/tenantPage');
      const { renderTenantHtml } = await import('../build/renderTenantHtml');
      const { startServer } = await import('../../server/main');
      const { serverOptionsFromEnv } = await import('./serverOptions');
      const { seedDemoData, setDemoPasswords } = await import('../../server/seed');
      const { sendPage, BASE_PLACEHOLDER } = await import('../../server/spa/tenantSite');
      const { ENGINE_DIR, TENANTS_DIR } = await import('../paths');
      const { formatIssue, loadTenantFiles } = await import('../tenant');

      const [loaded] = await loadValidTenants([id]);
      // In dev the tenant answers on every local host name at the root path.
      const tenant = { ...loaded, hosts: [...loaded.hosts, 'localhost', '127.0.0.1'] };
      const vite = await createServer({
        root: ENGINE_DIR,
        configFile: false,
        plugins: [react()],
        server: { middlewareMode: true },
        appType: 'custom',
      });
      const site = Router();
      site.use(vite.middlewares);
      site.get('/{*path}', async (req, res, next) => {
        try {
          const template = readFileSync(path.join(ENGINE_DIR, 'index.html'), 'utf8');
          const page = tenantPageInput(tenant);
          const html = renderTenantHtml(template, { ...page, config: { ...page.config, devMode: true } }).replace(BASE_PLACEHOLDER, '/');
          sendPage(res, tenant, await vite.transformIndexHtml(req.originalUrl, html), { development: true });
        } catch (error) {
          vite.ssrFixStacktrace(error as Error);
          next(error);
        }
      });
      const server = await startServer({
        tenants: [tenant],
        ...(await serverOptionsFromEnv()),
        port: options.port,
        outboxViewer: true,
        devPages: true,
        siteHandler: site,
        mode: 'development',
        beforeListen: async (db) => void (await setDemoPasswords(db, [tenant], await seedDemoData(db, [tenant]))),
      });
      const { startDemoProviders } = await import('../../server/devOidc/startDemoProviders');
      await startDemoProviders([tenant], server.url, (message) => console.error(message));
      const file = path.join(TENANTS_DIR, `${id}.json`);
      watch(file, async () => {
        const { tenants, issues } = await loadTenantFiles([file]);
        if (issues.length) return console.error(issues.map(formatIssue).join('\n'));
        Object.assign(tenant, tenants[0], { hosts: [...tenants[0].hosts, 'localhost', '127.0.0.1'] });
        console.error(`${id}.json changed: reloading`);
        vite.ws.send({ type: 'full-reload' });
      });
      console.log(`dev server for ${tenant.name}: ${server.url}/  (outbox: ${server.url}/outbox)`);
    });
}
