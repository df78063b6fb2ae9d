import type { StartOptions } from '../../server/main';

/**
 * The server settings every serving command reads from the environment (docs/reference.md "Configuration of
 * the server"): data folder, PostgreSQL URL and SMTP URL; and the engine's and the studio's builds,
 * which /studio runs when dist has none (the server imports neither cli/ nor studio/, docs/architecture.md
 * "Layers", so they are handed in).
 */
export async function serverOptionsFromEnv(): Promise<
  Pick<StartOptions, 'distDir' | 'dataDir' | 'databaseUrl' | 'smtpUrl' | 'buildEngine' | 'buildStudio'>
> {
  const { DATA_DIR, DIST_DIR } = await import('../paths');
  return {
    distDir: DIST_DIR,
    dataDir: process.env.PORTAL_DATA_DIR ?? DATA_DIR,
    databaseUrl: process.env.DATABASE_URL,
    smtpUrl: process.env.SMTP_URL,
    buildEngine,
    buildStudio,
  };
}

/** The CLI's Vite build of the engine, loaded only when it runs. */
export async function buildEngine(engineDir: string): Promise<unknown> {
  return (await import('../build/engineBuild')).buildEngine(engineDir);
}

/** The studio's Vite build (studio/buildStudio.ts), loaded only when it runs. */
export async function buildStudio(studioDir: string): Promise<unknown> {
  return (await import('../../studio/buildStudio')).ensureStudioBuilt(studioDir);
}
