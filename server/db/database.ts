/**
 * The one database interface the server, the CLI and the tests use. Two implementations:
 * PGlite (embedded PostgreSQL in WASM, data under `data/`) when no DATABASE_URL is given, and
 * PostgreSQL through `pg` when it is (DESIGN.md "Data and the server"). Same SQL for both.
 */
export interface Queryable {
  /** Runs one parameterised statement ($1, $2, ...) and returns its rows. */
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn inside BEGIN/COMMIT; any throw rolls everything back (no half-applied changes). */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… — when set, PostgreSQL is used; otherwise PGlite. */
  url?: string;
  /** PGlite data directory; `memory://` (or undefined) keeps it in memory. */
  dataDir?: string;
}
