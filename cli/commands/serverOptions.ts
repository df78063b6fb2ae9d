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

/**
 * The settings of a workbench (`portal dev`, `portal studio`, `portal preview`): its own embedded database in
 * `<PORTAL_DATA_DIR>/<name>`, beside a running portal's and never the one DATABASE_URL names; mails
 * in its outbox, never through SMTP_URL; no webhook deliveries and no metrics listener. A deployment's settings are the live
 * portal's, and what an operator tries out there must not reach its subscribers or its publisher.
 */
export async function workbenchServerOptions(
  name: 'dev' | 'studio' | 'preview',
): Promise<Awaited<ReturnType<typeof serverOptionsFromEnv>> & { deliverWebhooks: false; metricsPort: null }> {
  const { DATA_DIR } = await import('../paths');
  const { join } = await import('node:path');
  return {
    ...(await serverOptionsFromEnv()),
    dataDir: join(process.env.PORTAL_DATA_DIR ?? DATA_DIR, name),
    databaseUrl: undefined,
    smtpUrl: undefined,
    deliverWebhooks: false,
    // METRICS_PORT is the running portal's (the shared .env names it): a workbench beside it
    // opens no metrics listener, which would find the port taken and stop the workbench.
    metricsPort: null,
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
