import type { Command } from 'commander';

export interface PreviewCommandOptions {
  route: string;
  width: string;
  port?: number;
  lang?: 'de' | 'en';
  user?: string;
  shots?: string;
  compare?: string;
  widths?: number[];
  routes?: string[];
  dataDir?: string;
  failOnChange: boolean;
  skipBuild: boolean;
}

/** The port `portal preview` tries first; beside `npm start` on 3000. */
export const DEFAULT_PREVIEW_PORT = 3100;

const list = (value: string) =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
const widthList = (value: string) =>
  list(value).map((v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 280 || n > 2560)
      throw new Error(
        `--widths: "${v}" is not a width in pixels between 280 and 2560; for example --widths 360,1280`,
      );
    return n;
  });
const language = (value: string) => {
  if (value !== 'de' && value !== 'en')
    throw new Error(`--lang: "${value}" is not a language of the portal; use de or en`);
  return value;
};

/**
 * `portal preview [tenants...]` (docs/operators.md "QA: the preview and screenshots"): its own
 * server on its own port and its own seeded database (under <data>/preview, so it runs beside
 * `npm start`), printing the QA page /preview. With `--shots DIR` it takes a screenshot of every
 * tenant × screen × width × language instead (cli/preview/takeShots.ts) on a fresh database, and
 * with `--compare OLD_DIR` diffs them against an earlier folder and writes DIR/report.html.
 */
export function registerPreview(program: Command): void {
  program
    .command('preview')
    .description(
      'QA: tenants side by side, signed in as demo users (/preview), or screenshots of every screen (--shots)',
    )
    .argument('[tenants...]', 'tenant ids (default: all)')
    .option(
      '-r, --route <route>',
      'screen to open in every tenant: a route id (orders, faq, subscription…) or a path',
      'orders',
    )
    .option('-w, --width <px>', 'viewport width of each portal on the page', '360')
    .option(
      '-p, --port <port>',
      `port to listen on (default: the first free one from ${DEFAULT_PREVIEW_PORT})`,
      (v) => Number(v),
    )
    .option(
      '--lang <lang>',
      'language of the portals: de or en (default: the tenant default; with --shots every language a tenant offers)',
      language,
    )
    .option(
      '--user <email>',
      'demo login to sign the frames and the shots in with (default: demo@portal.example; "" = signed out on the page)',
    )
    .option('--shots <dir>', 'take screenshots into DIR (<tenant>/<route-id>.<width>.<lang>.png) and exit')
    .option(
      '--compare <oldDir>',
      'with --shots: pixel diff against an earlier shots folder, report in DIR/report.html',
    )
    .option('--widths <list>', 'with --shots: widths in px (default: 360,1280)', widthList)
    .option('--routes <list>', 'with --shots: route ids to take (default: every screen)', list)
    .option(
      '--fail-on-change',
      'with --compare: exit 1 when a screenshot changed, was added or went away',
      false,
    )
    .option(
      '--skip-build',
      'serve the existing dist/ without rebuilding (built anyway when a tenant has none)',
      false,
    )
    .option(
      '--data-dir <dir>',
      'data folder of the preview database (default: <data>/preview; with --shots a fresh temp folder)',
    )
    .action(async (ids: string[], options: PreviewCommandOptions) => {
      const started = Date.now();
      if (options.compare && !options.shots)
        throw new Error('--compare needs --shots DIR: the new screenshots to compare with OLD_DIR');
      const { existsSync, mkdtempSync, rmSync } = await import('node:fs');
      const os = await import('node:os');
      const path = await import('node:path');
      const { loadValidTenants } = await import('./loadValidTenants');
      const { buildTenants } = await import('../build/buildTenants');
      const { startServer } = await import('../../server/main');
      const { seedDemo, SHARED_DEMO_EMAIL } = await import('../../server/seed');
      const { DIST_DIR, ENGINE_BUILD_DIR } = await import('../paths');
      const { choosePort } = await import('./freePort');
      const { workbenchServerOptions } = await import('./serverOptions');
      const tenants = await loadValidTenants();
      const unknown = ids.filter((id) => !tenants.some((t) => t.id === id));
      if (unknown.length)
        throw new Error(
          `unknown tenant(s): ${unknown.join(', ')}. Known: ${tenants.map((t) => t.id).join(', ')}`,
        );
      // Built like `portal start` does, so the preview shows the engine as it is now (a stale dist/ would not).
      if (!options.skipBuild || tenants.some((t) => !existsSync(path.join(DIST_DIR, t.id, 'index.html')))) {
        await buildTenants(tenants, {
          distDir: DIST_DIR,
          engineDir: ENGINE_BUILD_DIR,
          progress: (m) => console.error(m),
        });
      }
      // Its own database: never the folder (and embedded cluster) of a running `npm start`.
      const temporary =
        options.shots && !options.dataDir ? mkdtempSync(path.join(os.tmpdir(), 'portal-shots-')) : undefined;
      const workbench = await workbenchServerOptions('preview');
      const dataDir = path.resolve(options.dataDir ?? temporary ?? workbench.dataDir);
      // Shots need no address to remember: any free port, so they never collide with a preview page.
      const chosen =
        options.port !== undefined || options.shots
          ? { port: options.port ?? 0 }
          : await choosePort(DEFAULT_PREVIEW_PORT);
      if (chosen.notice) console.error(chosen.notice);
      const port = chosen.port;
      const server = await startServer({
        tenants,
        // A workbench's settings (no DATABASE_URL, SMTP or webhooks), in the folder chosen above.
        ...workbench,
        dataDir,
        port,
        outboxViewer: true,
        devPages: true,
        demoDataInEveryTenant: true,
        log: () => undefined,
        beforeListen: async (db) => {
          // Its own database, made to be looked at: every tenant gets subscribers, demo or not, so
          // a new publisher's signed-in screens can be checked before its data arrives.
          await seedDemo(db, tenants, { everyTenant: true });
        },
      }).catch((error: unknown) => {
        if (temporary) rmSync(temporary, { recursive: true, force: true });
        throw error;
      });
      const user = options.user ?? SHARED_DEMO_EMAIL;

      if (!options.shots) {
        const query = new URLSearchParams({ route: options.route, width: options.width });
        if (ids.length) query.set('tenants', ids.join(','));
        if (options.lang) query.set('lang', options.lang);
        if (user) query.set('user', user);
        console.log(
          `\nready in ${Date.now() - started} ms on port ${new URL(server.url).port}${options.port ? '' : ' (the first free one)'}; database in ${dataDir}`,
        );
        console.log(`preview: ${server.url}/preview?${query}`);
        console.log(`outbox:  ${server.url}/outbox`);
        const stop = () => void server.close().then(() => process.exit(0));
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
        return;
      }

      let failed = false;
      try {
        const { takeShots } = await import('../preview/takeShots');
        const outDir = path.resolve(options.shots);
        console.error(`taking screenshots from ${server.url} into ${outDir}`);
        const shots = await takeShots({
          baseUrl: server.url,
          outDir,
          tenants: ids,
          routes: options.routes,
          widths: options.widths,
          langs: options.lang ? [options.lang] : undefined,
          user: user || SHARED_DEMO_EMAIL,
          log: (line) => console.error(line),
        });
        const taken = shots.filter((s) => !s.skipped);
        for (const skipped of shots.filter((s) => s.skipped))
          console.log(`skipped  ${skipped.file}: ${skipped.skipped}`);
        console.log(
          `${taken.length} screenshot(s) in ${outDir} (${Math.round((Date.now() - started) / 1000)} s)`,
        );
        if (options.compare) {
          const { compareShotFolders, formatComparison } = await import('../preview/compareShots');
          const { writeShotReport } = await import('../preview/shotReport');
          const oldDir = path.resolve(options.compare);
          if (!existsSync(oldDir))
            throw new Error(
              `--compare: ${oldDir} does not exist; take the earlier shots first (portal preview --shots ${options.compare})`,
            );
          const results = compareShotFolders(outDir, oldDir);
          console.log(formatComparison(results));
          console.log(`report: ${writeShotReport(results, outDir, oldDir)}`);
          failed = options.failOnChange && results.some((r) => r.status !== 'unchanged');
        }
      } finally {
        await server.close();
        if (temporary) rmSync(temporary, { recursive: true, force: true });
      }
      if (failed) process.exitCode = 1;
    });
}
