/**
 * Opens the one database the server, the CLI and the tests talk to (DESIGN.md "Data and the
 * server"): PostgreSQL through a `pg` pool when a URL is given, otherwise embedded PGlite with its
 * data under `dataDir` (or in memory).
 *
 * Both implementations hand back the same JavaScript values, so a store never needs to know which
 * one it runs on:
 *  - `date` columns come back as 'YYYY-MM-DD' strings (never a Date shifted by the time zone),
 *  - `bigint` / `int8` (e.g. count(*)) come back as numbers,
 *  - `numeric` comes back as a string (exact decimal), `timestamptz` as a Date, json/jsonb parsed.
 *
 * `query(sql)` without parameters may contain several statements separated by semicolons (a
 * migration file); the rows of the last statement are returned. With parameters it is exactly one
 * statement (PostgreSQL's extended protocol).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Database, DatabaseOptions, Queryable } from './database';

const DATE_OID = 1082;
const INT8_OID = 20;

const parseDate = (value: string): string => value;
const parseInt8 = (value: string): number => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`int8 value ${value} does not fit a JavaScript number`);
  return n;
};

function hasParams(params: unknown[] | undefined): params is unknown[] {
  return params !== undefined && params.length > 0;
}

export async function openDatabase(opts: DatabaseOptions = {}): Promise<Database> {
  if (opts.url) return openPostgres(opts.url);
  return openPglite(opts.dataDir);
}

function isMemoryDir(dataDir: string | undefined): boolean {
  return dataDir === undefined || dataDir === '' || dataDir === 'memory://';
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  const { PGlite, types } = await import('@electric-sql/pglite');
  let dir: string | undefined;
  if (!isMemoryDir(dataDir)) {
    dir = path.resolve(dataDir as string);
    await mkdir(dir, { recursive: true });
  }
  const pg = await PGlite.create({
    dataDir: dir,
    parsers: { [types.DATE]: parseDate, [types.INT8]: parseInt8 },
  });

  type PgliteLike = Pick<typeof pg, 'query' | 'exec'>;
  const run = async <Row>(target: PgliteLike, sql: string, params?: unknown[]): Promise<Row[]> => {
    if (hasParams(params)) {
      const result = await target.query<Row>(sql, params);
      return result.rows;
    }
    const results = await target.exec(sql);
    const last = results[results.length - 1];
    return (last?.rows ?? []) as Row[];
  };

  return {
    kind: 'pglite',
    query: <Row = Record<string, unknown>>(sql: string, params?: unknown[]) => run<Row>(pg, sql, params),
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) =>
      pg.transaction((tx) =>
        fn({ query: <Row = Record<string, unknown>>(sql: string, params?: unknown[]) => run<Row>(tx, sql, params) }),
      ),
    close: () => pg.close(),
  };
}

async function openPostgres(url: string): Promise<Database> {
  const { default: pg } = await import('pg');
  const typeParsers: Record<number, (value: string) => unknown> = {
    [DATE_OID]: parseDate,
    [INT8_OID]: parseInt8,
  };
  const pool = new pg.Pool({
    connectionString: url,
    max: Number(process.env.PG_POOL_MAX ?? 10),
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        (format ?? 'text') === 'text' && typeParsers[oid]
          ? typeParsers[oid]
          : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection (server restart) must not crash the process; the next
  // query simply gets a fresh connection.
  pool.on('error', () => {});

  type ClientLike = { query: (sql: string, params?: unknown[]) => Promise<unknown> };
  const run = async <Row>(target: ClientLike, sql: string, params?: unknown[]): Promise<Row[]> => {
    const result = (await target.query(sql, hasParams(params) ? params : undefined)) as
      | { rows: Row[] }
      | Array<{ rows: Row[] }>;
    // Several statements without parameters answer one result per statement.
    if (Array.isArray(result)) return result.length ? result[result.length - 1].rows : [];
    return result.rows;
  };

  return {
    kind: 'postgres',
    query: <Row = Record<string, unknown>>(sql: string, params?: unknown[]) => run<Row>(pool, sql, params),
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query('BEGIN');
        const value = await fn({
          query: <Row = Record<string, unknown>>(sql: string, params?: unknown[]) => run<Row>(client, sql, params),
        });
        await client.query('COMMIT');
        return value;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true; // connection unusable: drop it from the pool instead of reusing it
        }
        throw error;
      } finally {
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
