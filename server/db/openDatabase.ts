/**
 * Opens the one database the server, the CLI and the tests talk to (docs/architecture.md "Data and the
 * server"): a `pg` pool on PostgreSQL, either at DATABASE_URL or on the embedded cluster this
 * process starts from the npm registry's binaries (server/db/embeddedPostgres.ts), data under
 * `<dataDir>/postgres`, database `portal`.
 *
 * Values every store can rely on:
 *  - `date` columns come back as 'YYYY-MM-DD' strings (never a Date shifted by the time zone),
 *  - `bigint` / `int8` (e.g. count(*)) come back as numbers,
 *  - `numeric` comes back as a string (exact decimal), `timestamptz` as a Date, json/jsonb parsed.
 *
 * `query(sql)` without parameters may contain several statements separated by semicolons (a
 * migration file); the rows of the last statement are returned. With parameters it is exactly one
 * statement (PostgreSQL's extended protocol).
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import {
  DatabaseUnavailableError,
  maskUrl,
  isConnectionError,
  type Database,
  type DatabaseOptions,
  type Queryable,
} from './database';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embeddedPostgres';

const DATE_OID = 1082;
const INT8_OID = 20;
/** The embedded cluster's database of the portal. */
export const EMBEDDED_DATABASE = 'portal';

const parseDate = (value: string): string => value;
const parseInt8 = (value: string): number => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`int8 value ${value} does not fit a JavaScript number`);
  return n;
};

const statementNames = new Map<string, string>();
function statementName(sql: string): string | undefined {
  let name = statementNames.get(sql);
  // A bounded set: SQL text built at run time must not fill every connection with statements.
  if (!name && statementNames.size >= 1_000) return undefined;
  if (!name) {
    name = `s${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`;
    statementNames.set(sql, name);
  }
  return name;
}

function hasParams(params: unknown[] | undefined): params is unknown[] {
  return params !== undefined && params.length > 0;
}

export async function openDatabase(opts: DatabaseOptions = {}): Promise<Database> {
  if (opts.url) return openPool(opts.url, { kind: 'postgres', poolSize: opts.poolSize });
  if (!opts.dataDir)
    throw new Error('openDatabase: give a DATABASE_URL or the data folder of the embedded cluster');
  const cluster = await startEmbeddedPostgres({
    dataDir: path.join(opts.dataDir, 'postgres'),
    shareRunning: opts.shareRunning,
  });
  try {
    await createDatabaseIfMissing(cluster.adminUrl, EMBEDDED_DATABASE);
    const appUrl = await ensureAppRole(cluster, path.join(opts.dataDir, 'postgres.app-password'));
    return await openPool(appUrl, { kind: 'embedded', poolSize: opts.poolSize, cluster });
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

/** The role the portal's pool uses on the embedded cluster: owner of its database, not a superuser. */
export const EMBEDDED_APP_ROLE = 'portal_app';

/**
 * The portal connects to its embedded database as `portal_app`, the owner of database `portal` and
 * of its tables, never as the superuser: a flaw that let SQL through would otherwise reach
 * superuser powers (COPY … TO PROGRAM runs commands on the host). The superuser only creates the
 * database and the role. Its password is kept beside the superuser's (mode 600) and set again at
 * every start; tables an earlier version created as the superuser are handed over.
 */
async function ensureAppRole(cluster: EmbeddedPostgres, passwordFile: string): Promise<string> {
  let password = (await readFile(passwordFile, 'utf8').catch(() => '')).trim();
  if (!password) {
    password = randomBytes(24).toString('base64url');
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  }
  const { default: pgModule } = await import('pg');
  const run = async (url: string, statements: (client: pg.Client) => string[]) => {
    const client = new pgModule.Client({ connectionString: url });
    client.on('error', () => undefined);
    await client.connect();
    try {
      for (const sql of statements(client)) await client.query(sql);
    } finally {
      await client.end();
    }
  };
  const role = EMBEDDED_APP_ROLE;
  await run(cluster.adminUrl, (c) => [
    `do $$ begin if not exists (select from pg_roles where rolname = ${c.escapeLiteral(role)}) then create role ${c.escapeIdentifier(role)} login; end if; end $$`,
    `alter role ${c.escapeIdentifier(role)} with login nosuperuser nocreatedb nocreaterole password ${c.escapeLiteral(password)}`,
    `alter database ${c.escapeIdentifier(EMBEDDED_DATABASE)} owner to ${c.escapeIdentifier(role)}`,
  ]);
  await run(cluster.urlOf(EMBEDDED_DATABASE), (c) => [
    `grant all on schema public to ${c.escapeIdentifier(role)}`,
    `do $$ declare r record; begin
       for r in select format('alter table %I.%I owner to %I', schemaname, tablename, ${c.escapeLiteral(role)}) as sql
                  from pg_tables where schemaname = 'public' and tableowner <> ${c.escapeLiteral(role)} loop
         execute r.sql;
       end loop;
       for r in select format('alter sequence %I.%I owner to %I', sequence_schema, sequence_name, ${c.escapeLiteral(role)}) as sql
                  from information_schema.sequences s
                  where sequence_schema = 'public'
                    and not exists (select 1 from pg_depend d join pg_class c on c.oid = d.objid
                                     where c.relname = s.sequence_name and d.deptype in ('a', 'i')) loop
         execute r.sql;
       end loop;
     end $$`,
  ]);
  const url = new URL(cluster.urlOf(EMBEDDED_DATABASE));
  url.username = role;
  url.password = encodeURIComponent(password);
  return url.toString();
}

/** `create database` is not transactional and has no `if not exists`: check, then create. */
export async function createDatabaseIfMissing(
  adminUrl: string,
  name: string,
  template?: string,
): Promise<void> {
  const { default: pgModule } = await import('pg');
  const client = new pgModule.Client({ connectionString: adminUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (rows.length) return;
    const escape = (id: string) => client.escapeIdentifier(id);
    try {
      await client.query(`create database ${escape(name)}${template ? ` template ${escape(template)}` : ''}`);
    } catch (error) {
      // Another process created it in between (42P04 duplicate_database): that is what we wanted.
      if ((error as { code?: string }).code !== '42P04') throw error;
    }
  } finally {
    await client.end();
  }
}

async function openPool(
  url: string,
  opts: { kind: Database['kind']; poolSize?: number; cluster?: EmbeddedPostgres },
): Promise<Database> {
  const { default: pgModule } = await import('pg');
  const typeParsers: Record<number, (value: string) => unknown> = {
    [DATE_OID]: parseDate,
    [INT8_OID]: parseInt8,
  };
  const description = maskUrl(url);
  const pool = new pgModule.Pool({
    connectionString: url,
    // An embedded server shares the portal's cores: 6 connections keep them busy, and each more
    // is another backend's memory (bench, 200 clients: 20 connections peaked at 430 MB with the
    // database's processes, 8 at 260 to 295 MB, 6 at about 275 MB, at the same throughput). An
    // external server: 20. PG_POOL_MAX sets either.
    max: opts.poolSize ?? Number(process.env.PG_POOL_MAX ?? (opts.kind === 'embedded' ? 6 : 20)),
    // A database that is down must answer 503 quickly, not hold requests until the client gives up.
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        (format ?? 'text') === 'text' && typeParsers[oid]
          ? typeParsers[oid]
          : pgModule.types.getTypeParser(oid, format as 'text')) as typeof pgModule.types.getTypeParser,
    },
  });
  // An idle client losing its connection (server restart) must not crash the process; the next
  // query simply gets a fresh connection.
  pool.on('error', () => {});

  // The database must answer before anything starts on it: a clear message naming it otherwise.
  try {
    await pool.query('select 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseUnavailableError(
      `cannot reach PostgreSQL at ${description}: ${(error as Error).message || (error as { code?: string }).code}`,
      { cause: error },
    );
  }

  type ClientLike = { query: (sql: string | pg.QueryConfig, params?: unknown[]) => Promise<unknown> };
  const run = async <Row>(target: ClientLike, sql: string, params?: unknown[]): Promise<Row[]> => {
    // Parameterised statements are prepared once per connection under a name derived from their
    // text: PostgreSQL then plans the big joins once instead of on every request (planning was
    // about half of GET /subscriptions' query time).
    const result = (await (hasParams(params)
      ? target.query({ name: statementName(sql), text: sql, values: params })
      : target.query(sql))) as { rows: Row[] } | Array<{ rows: Row[] }>;
    // Several statements without parameters answer one result per statement.
    if (Array.isArray(result)) return result.length ? result[result.length - 1].rows : [];
    return result.rows;
  };

  const copy = async (
    client: pg.PoolClient,
    sql: string,
    chunks: AsyncIterable<string> | Iterable<string>,
  ) => {
    // pipeline() ends the COPY when the chunks end and rejects with the server's error otherwise.
    await pipeline(Readable.from(chunks), client.query(copyFrom(sql)));
  };

  // Listening connections (Database.listen), ended by close().
  const listeners = new Set<() => Promise<void>>();

  return {
    kind: opts.kind,
    description,
    query: <Row = Record<string, unknown>>(sql: string, params?: unknown[]) => run<Row>(pool, sql, params),
    async copyFrom(sql, chunks) {
      const client = await pool.connect();
      try {
        await copy(client, sql, chunks);
      } finally {
        client.release();
      }
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client: pg.PoolClient = await pool.connect();
      // A connection lost while checked out emits 'error' on the client, and pg-pool listens only on
      // idle ones: without this, a database restart during a transaction would crash the process.
      // The failing query rejects as well, which is what the caller sees (and answers 503 for).
      const onLostConnection = () => (broken = true);
      client.on('error', onLostConnection);
      let broken = false;
      try {
        await client.query('BEGIN');
        const value = await fn({
          query: <Row = Record<string, unknown>>(sql: string, params?: unknown[]) =>
            run<Row>(client, sql, params),
          copyFrom: (sql, chunks) => copy(client, sql, chunks),
        });
        await client.query('COMMIT');
        return value;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true; // connection unusable: drop it from the pool instead of reusing it
        }
        if (isConnectionError(error)) broken = true;
        throw error;
      } finally {
        client.off('error', onLostConnection);
        client.release(broken);
      }
    },
    async close() {
      await Promise.all([...listeners].map((stop) => stop()));
      await pool.end();
      await opts.cluster?.stop();
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    listen(channel, onNotify) {
      const stop = listenOn(pgModule, url, channel, onNotify);
      const stopOnce = async () => {
        listeners.delete(stopOnce);
        await stop();
      };
      listeners.add(stopOnce);
      return stopOnce;
    },
  };
}

/** How long a lost listening connection waits before it connects again. */
const LISTEN_RECONNECT_MS = 5_000;

/**
 * LISTEN on a connection of its own (a pooled one would go back to the pool and stop hearing):
 * `Database.listen`. A lost connection is made again after a pause, and `onNotify` is called once it
 * listens again, so whoever listens catches up on what was sent meanwhile.
 */
function listenOn(
  pgModule: typeof pg,
  url: string,
  channel: string,
  onNotify: () => void,
): () => Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let connecting: Promise<void> | undefined;
  const connectLater = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      connecting = connect();
    }, LISTEN_RECONNECT_MS);
    retry.unref();
  };
  const connect = async () => {
    const candidate = new pgModule.Client({ connectionString: url });
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (client === candidate) client = undefined;
      candidate.end().catch(() => undefined);
      connectLater();
    };
    candidate.on('error', onLost);
    candidate.on('end', onLost);
    candidate.on('notification', (message) => {
      if (message.channel === channel) onNotify();
    });
    try {
      await candidate.connect();
      await candidate.query(`listen ${channel}`);
    } catch {
      onLost();
      return;
    }
    if (stopped) {
      await candidate.end().catch(() => undefined);
      return;
    }
    client = candidate;
    onNotify();
  };
  connecting = connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await connecting;
    const listening = client;
    client = undefined;
    await listening?.end().catch(() => undefined);
  };
}
