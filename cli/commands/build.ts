import type { Command } from 'commander';

/** `portal build [tenants...]`: validate, build the engine once, write dist/<tenant>/ for each. */
export function registerBuild(program: Command): void {
  program
    .command('build')
    .description(
      'build the portals of the given tenants (default: all) into dist/<tenant>/ (PORTAL_DIST_DIR moves dist/, PORTAL_TENANTS_DIR tenants/)',
    )
    .argument('[tenants...]', 'tenant ids or files (default: all)')
    .action(async (names: string[]) => {
      const started = Date.now();
      const { loadValidTenants } = await import('./loadValidTenants');
      const { buildTenants, formatBuildTable } = await import('../build/buildTenants');
      const { DIST_DIR, ENGINE_BUILD_DIR } = await import('../paths');
      const tenants = await loadValidTenants(names);
      const reports = await buildTenants(tenants, {
        distDir: DIST_DIR,
        engineDir: ENGINE_BUILD_DIR,
        progress: (message) => console.error(message),
      });
      console.log(formatBuildTable(reports));
      console.error(`built ${reports.length} tenant(s) in ${Date.now() - started} ms`);
    });
}
