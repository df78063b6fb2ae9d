import type { Command } from 'commander';

/** `portal preview [tenants...]`: serves the built tenants and prints the side-by-side QA page. */
export function registerPreview(program: Command): void {
  program
    .command('preview')
    .description('show several tenants side by side at the same route and width (QA)')
    .argument('[tenants...]', 'tenant ids (default: all)')
    .option('-r, --route <route>', 'route to open in every tenant', '/login')
    .option('-w, --width <px>', 'viewport width of each portal', '360')
    .option('-p, --port <port>', 'port to listen on', (v) => Number(v), Number(process.env.PORT ?? 3000))
    .action(async (ids: string[], options: { route: string; width: string; port: number }) => {
      const { existsSync } = await import('node:fs');
      const path = await import('node:path');
      const { loadValidTenants } = await import('./loadValidTenants');
      const { buildTenants } = await import('../build/buildTenants');
      const { startServer } = await import('../../server/main');
      const { serverOptionsFromEnv } = await import('./serverOptions');
      const { DIST_DIR, ENGINE_BUILD_DIR } = await import('../paths');
      const tenants = await loadValidTenants();
      const unknown = ids.filter((id) => !tenants.some((t) => t.id === id));
      if (unknown.length) throw new Error(`unknown tenant(s): ${unknown.join(', ')}. Known: ${tenants.map((t) => t.id).join(', ')}`);
      if (tenants.some((t) => !existsSync(path.join(DIST_DIR, t.id, 'index.html')))) {
        await buildTenants(tenants, { distDir: DIST_DIR, engineDir: ENGINE_BUILD_DIR, progress: (m) => console.error(m) });
      }
      const server = await startServer({
        tenants,
        ...(await serverOptionsFromEnv()),
        port: options.port,
        outboxViewer: true,
        devPages: true,
      });
      const query = new URLSearchParams({ route: options.route, width: options.width });
      if (ids.length) query.set('tenants', ids.join(','));
      console.log(`preview: ${server.url}/preview?${query}`);
      process.once('SIGINT', () => void server.close().then(() => process.exit(0)));
    });
}
