/**
 * Runs a command with DATABASE_URL pointing at a private, throw-away cluster of the system's
 * PostgreSQL (Debian's postgresql package: 15, the oldest major the README promises), then removes
 * the cluster. `npm test` runs the integration suite through it, so CI exercises the external
 * DATABASE_URL path as an operator would use it, besides the embedded default.
 *
 *   tsx scripts/withSystemPostgres.ts npx vitest run --project postgres
 */
import { spawn } from 'node:child_process';
import { startSystemPostgres } from './systemPostgres';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: tsx scripts/withSystemPostgres.ts <command> [args…]');
  process.exit(2);
}

const cluster = await startSystemPostgres();
const databaseUrl = new URL(cluster.adminUrl);
console.error(`system PostgreSQL at ${databaseUrl.host} for: ${[command, ...args].join(' ')}`);
const code = await new Promise<number>((resolve) => {
  const child = spawn(command, args, {
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: cluster.adminUrl },
  });
  child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
  child.on('error', () => resolve(1));
});
await cluster.stop();
process.exit(code);
