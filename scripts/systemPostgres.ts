/**
 * The system's PostgreSQL (Debian's postgresql package, 15 here: the oldest major the README
 * promises) as a private throw-away cluster for the `postgres` test project, when no DATABASE_URL
 * is given. Nothing outside a temp folder is touched, no running server is needed.
 *
 *  1. find initdb / pg_ctl (PATH, /usr/local/bin, /usr/lib/postgresql/<newest>/bin),
 *  2. initdb a cluster in a temp folder (trust auth, superuser `postgres`),
 *  3. start it with pg_ctl on a free loopback port, its socket inside the temp folder.
 *
 * PostgreSQL refuses to run as root; when the tests run as root the binaries are run as the
 * `postgres` system user (runuser, or su as a fallback) after handing it the temp folder.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../server/db/embeddedPostgres';

const run = promisify(execFile);

function findBinary(name: string): string {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  dirs.push('/usr/local/bin');
  const pgRoot = '/usr/lib/postgresql';
  if (existsSync(pgRoot)) {
    const versions = readdirSync(pgRoot)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    dirs.push(...versions.map((v) => path.join(pgRoot, v, 'bin')));
  }
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(
    `${name} not found on PATH, in /usr/local/bin or /usr/lib/postgresql/*/bin. ` +
      'Install PostgreSQL (apt-get install postgresql) or run without the postgres project (PORTAL_TEST_POSTGRES=0).',
  );
}

type Runner = (binary: string, args: string[]) => Promise<{ stdout: string; stderr: string }>;

function shellQuote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** How to run a PostgreSQL binary: directly, or as the `postgres` user when we are root. */
async function pickRunner(): Promise<{ runner: Runner; uid?: number; gid?: number }> {
  const direct: Runner = (binary, args) => run(binary, args, { encoding: 'utf8' });
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return { runner: direct };

  const user = process.env.PORTAL_TEST_POSTGRES_USER ?? 'postgres';
  let uid: number;
  let gid: number;
  try {
    uid = Number((await run('id', ['-u', user])).stdout.trim());
    gid = Number((await run('id', ['-g', user])).stdout.trim());
  } catch {
    throw new Error(
      `running as root, and PostgreSQL refuses to run as root, but there is no "${user}" user to run it as. ` +
        'Create one (useradd -r postgres) or set PORTAL_TEST_POSTGRES_USER.',
    );
  }
  const candidates: Array<{ name: string; runner: Runner }> = [
    {
      name: 'runuser',
      runner: (binary, args) => run('runuser', ['-u', user, '--', binary, ...args], { encoding: 'utf8' }),
    },
    {
      name: 'su',
      runner: (binary, args) =>
        run('su', [user, '-s', '/bin/sh', '-c', [binary, ...args].map(shellQuote).join(' ')], {
          encoding: 'utf8',
        }),
    },
  ];
  const failures: string[] = [];
  for (const candidate of candidates) {
    try {
      await candidate.runner('/bin/true', []);
      return { runner: candidate.runner, uid, gid };
    } catch (error) {
      failures.push(`${candidate.name}: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  throw new Error(`running as root, and cannot run commands as "${user}" (${failures.join('; ')})`);
}

/** Starts a private cluster of the system's PostgreSQL; answers its admin URL and how to remove it. */
export async function startSystemPostgres(): Promise<{
  adminUrl: string;
  stop: () => Promise<void>;
  /** pg_ctl restart -m fast: every connection is dropped, the server is back when it answers. */
  restart: () => Promise<void>;
}> {
  const initdb = findBinary('initdb');
  const pgCtl = findBinary('pg_ctl');
  const { runner, uid, gid } = await pickRunner();

  // Short path: the unix socket path must stay under ~100 characters.
  const root = await mkdtemp(path.join(os.tmpdir(), 'portal-pg-'));
  if (uid !== undefined && gid !== undefined) await chown(root, uid, gid);
  const dataDir = path.join(root, 'data');
  const logFile = path.join(root, 'server.log');
  let started = false;

  const stop = async () => {
    if (started) {
      try {
        await runner(pgCtl, ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
      } catch (error) {
        console.warn(`systemPostgres: pg_ctl stop failed: ${(error as Error).message}`);
      }
    }
    await rm(root, { recursive: true, force: true });
  };

  try {
    await runner(initdb, ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-locale']);
    const port = await freePort();
    const serverOptions = [
      `-p ${port}`,
      `-k ${root}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=300',
    ].join(' ');
    try {
      await runner(pgCtl, ['-D', dataDir, '-l', logFile, '-o', serverOptions, '-w', '-t', '60', 'start']);
    } catch (error) {
      const log = await readFile(logFile, 'utf8').catch(() => '');
      throw new Error(`pg_ctl start failed: ${(error as Error).message}\n${log}`);
    }
    started = true;
    const restart = async () => {
      await runner(pgCtl, [
        '-D',
        dataDir,
        '-l',
        logFile,
        '-o',
        serverOptions,
        '-m',
        'fast',
        '-w',
        '-t',
        '60',
        'restart',
      ]);
    };
    return { adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, stop, restart };
  } catch (error) {
    await stop();
    throw error;
  }
}
