import type { Command } from 'commander';

/**
 * `portal studio [tenant]` (docs/operators.md "Operators: the studio"): the tenant editor with the
 * live portal beside it, on its own port and its own seeded database (`data/studio/` unless
 * PORTAL_DATA_DIR), so it runs next to `npm start`. It edits the files of tenants/ (or
 * `--tenants-dir`, PORTAL_TENANTS_DIR) and serves the tenants of that folder that are valid, for
 * the preview's API and demo users.
 */
export function registerStudio(program: Command): void {
  program
    .command('studio')
    .description('edit tenant files in a form with the live portal beside it (operators)')
    .argument('[tenant]', 'tenant id to open first (default: the first valid one)')
    .option('-p, --port <port>', 'port to listen on', (v) => Number(v), 4400)
    .option('--lang <locale>', "the studio's and the preview's language (a locale of the portal)", 'en-GB')
    .option(
      '--tenants-dir <folder>',
      'folder of the tenant files to edit (default: PORTAL_TENANTS_DIR or tenants/)',
    )
    .action(async (id: string | undefined, options: { port: number; lang: string; tenantsDir?: string }) => {
      const started = Date.now();
      const { LOCALES } = await import('../../engine/domain/locales');
      if (!(LOCALES as readonly string[]).includes(options.lang))
        throw new Error(`--lang "${options.lang}" is not offered. Use ${LOCALES.join(' or ')}.`);
      if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535)
        throw new Error('--port needs a port number, for example 4400.');
      const { existsSync, readdirSync } = await import('node:fs');
      const path = await import('node:path');
      if (options.tenantsDir) process.env.PORTAL_TENANTS_DIR = path.resolve(options.tenantsDir);
      const { loadTenantFiles, formatIssue } = await import('../../tenant');
      const { startServer } = await import('../../server/main');
      const { workbenchServerOptions, buildStudio } = await import('./serverOptions');
      const { seedDemo } = await import('../../server/seed');
      const { ENGINE_BUILD_DIR, STUDIO_BUILD_DIR } = await import('../paths');
      const { studioTenantsDir } = await import('../../server/studio/studioFiles');
      const { buildEngine } = await import('../build/engineBuild');
      const { portalCommand } = await import('../../server/runtime/portalCommand');

      const dir = studioTenantsDir();
      const files = existsSync(dir)
        ? readdirSync(dir)
            .filter((name) => name.endsWith('.json'))
            .sort()
            .map((name) => path.join(dir, name))
        : [];
      // An invalid file is what the studio is for: it is opened and fixed, only not served.
      const { tenants, issues } = loadTenantFiles(files);
      if (issues.length)
        console.error(
          `${issues.length} problem(s) in the tenant files; the studio shows them at their fields:\n${issues.map(formatIssue).join('\n')}`,
        );
      if (tenants.length === 0)
        throw new Error(
          `no valid tenant file in ${dir}: the preview needs one to borrow its API and demo users. Create one with: ${portalCommand()} new <id>`,
        );
      if (id && !files.some((file) => path.basename(file) === `${id}.json`))
        throw new Error(
          `there is no ${id}.json in ${dir}. Known: ${files.map((f) => path.basename(f, '.json')).join(', ')}`,
        );

      const env = await workbenchServerOptions('studio');
      if (!existsSync(path.join(ENGINE_BUILD_DIR, 'index.html'))) {
        console.error('building the engine for the preview …');
        await buildEngine(ENGINE_BUILD_DIR);
      }
      console.error('building the studio …');
      await buildStudio(STUDIO_BUILD_DIR);
      const server = await startServer({
        tenants,
        // Its own database beside that of `portal start` (as the preview's), never its embedded
        // cluster, which a running portal holds, nor DATABASE_URL's.
        ...env,
        port: options.port,
        outboxViewer: true,
        devPages: true,
        beforeListen: async (db) => void (await seedDemo(db, tenants)),
      });
      const query = new URLSearchParams({ lang: options.lang, ...(id ? { tenant: id } : {}) });
      console.log(`studio ready in ${Date.now() - started} ms: ${server.url}/studio?${query}`);
      console.log(`editing ${dir}`);
      const stop = () => void server.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}
