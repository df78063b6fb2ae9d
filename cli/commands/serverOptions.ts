import type { StartOptions } from '../../server/main';

/**
 * The server settings every serving command reads from the environment (README "Configuration of
 * the server"): data folder, PostgreSQL URL and SMTP URL; and the engine's build, which the
 * studio's preview runs when dist has no engine (the server never imports cli/, so it is handed in).
 */
export async function serverOptionsFromEnv(): Promise<
  Pick<StartOptions, 'distDir' | 'dataDir' | 'databaseUrl' | 'smtpUrl' | 'buildEngine'>
> {
  const { DATA_DIR, DIST_DIR } = await import('../paths');
  return {
    distDir: DIST_DIR,
    dataDir: process.env.PORTAL_DATA_DIR ?? DATA_DIR,
    databaseUrl: process.env.DATABASE_URL,
    smtpUrl: process.env.SMTP_URL,
    buildEngine,
  };
}

/** The CLI's Vite build of the engine, loaded only when it runs. */
export async function buildEngine(engineDir: string): Promise<unknown> {
  return (await import('../build/engineBuild')).buildEngine(engineDir);
}
