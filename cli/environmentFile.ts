import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The settings file the server and the commands share (docs/going-live.md "One environment for the
 * server and the commands"): `.env` in the folder `portal` runs from, or the file PORTAL_ENV_FILE
 * names, read before any command, so that `portal serve` and `portal import` started from one folder
 * reach the same PORTAL_DATA_DIR, PORTAL_TENANTS_DIR and DATABASE_URL. A variable already set in the
 * shell wins over the file. `PORTAL_ENV_FILE=` (empty) reads none. Returns the file read, if any.
 */
export function loadEnvironmentFile(
  cwd: string = process.cwd(),
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  const named = env.PORTAL_ENV_FILE;
  if (named === '') return null;
  const file = path.resolve(cwd, named ?? '.env');
  if (!existsSync(file)) {
    if (named !== undefined) throw new Error(`PORTAL_ENV_FILE names ${file}, which does not exist`);
    return null;
  }
  process.loadEnvFile(file);
  return file;
}
