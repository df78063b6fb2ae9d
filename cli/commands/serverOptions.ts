import type { StartOptions } from '../../server/main';

/**
 * The server settings every serving command reads from the environment (README "Configuration of
 * the server"): data folder, PostgreSQL URL and SMTP URL.
 */
export async function serverOptionsFromEnv(): Promise<
  Pick<StartOptions, 'distDir' | 'dataDir' | 'databaseUrl' | 'smtpUrl'>
> {
  const { DATA_DIR, DIST_DIR } = await import('../paths');
  return {
    distDir: DIST_DIR,
    dataDir: process.env.PORTAL_DATA_DIR ?? DATA_DIR,
    databaseUrl: process.env.DATABASE_URL,
    smtpUrl: process.env.SMTP_URL,
  };
}
