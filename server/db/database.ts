/**
 * The one database interface the server, the CLI and the tests use: PostgreSQL through a `pg` pool,
 * either the embedded cluster the portal runs itself (data under `data/`) or an external server
 * given by DATABASE_URL (docs/architecture.md "Data and the server"). One driver, one SQL dialect.
 */
export interface Queryable {
  /** Runs one parameterised statement ($1, $2, ...) and returns its rows. */
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /**
   * Streams text into a `COPY … FROM STDIN` statement (pg-copy-streams): bulk loads such as
   * `portal import` write staging tables this way, many times faster than inserts.
   * The chunks are COPY's text format, lines ending in a newline.
   */
  copyFrom?(sql: string, chunks: AsyncIterable<string> | Iterable<string>): Promise<void>;
}

export interface Database extends Queryable {
  /** `embedded`: the cluster this process started; `postgres`: a server given by URL. */
  readonly kind: 'embedded' | 'postgres';
  /** Where it is, for logs and messages: the URL with its password masked. */
  readonly description: string;
  /** Runs fn inside BEGIN/COMMIT; any throw rolls everything back (no half-applied changes). */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Closes the pool (and stops the embedded cluster). */
  close(): Promise<void>;
  /**
   * The pool's connections now (docs/going-live.md "Operations": portal_db_pool_*); absent in test doubles.
   */
  poolStats?(): { total: number; idle: number; waiting: number };
  /**
   * Calls `onNotify` whenever a committed transaction NOTIFYs `channel`, on a connection of its own
   * outside the pool, and once each time that connection is (re)made, since notifications sent while
   * it was down are lost. Returns a function that stops listening. Absent in test doubles: a job
   * then only polls.
   */
  listen?(channel: string, onNotify: () => void): () => Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… — an external PostgreSQL (15 or newer); otherwise the embedded cluster. */
  url?: string;
  /** Folder of the embedded cluster's files (`<dataDir>/postgres`); required without a URL. */
  dataDir?: string;
  /** Connections of the pool (default PG_POOL_MAX or 20). */
  poolSize?: number;
  /** Connect to the embedded cluster another portal process runs instead of refusing (the CLI's tools). */
  shareRunning?: boolean;
}

/** The database cannot be reached (down, restarting, refusing connections): callers answer 503. */
export class DatabaseUnavailableError extends Error {
  readonly code = 'database_unavailable';
}

/** postgres://user:secret@host/db → postgres://user:***@host/db */
export function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/:\/\/([^:/@]+):[^@]*@/, '://$1:***@');
  }
}

const CONNECTION_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's protocol_violation is in the connection-exception class 08 but says nothing about
 * the connection: the server answers it to a statement it was sent wrongly (a bind message with
 * more or fewer parameters than the statement has), and the connection stays usable. It is a bug
 * or bad input, never "try again later" (PostgreSQL manual, Appendix A "Error Codes").
 */
const PROTOCOL_VIOLATION = '08P01';

/**
 * Errors that mean "the database is not there right now" rather than "this query is wrong":
 * refused or dropped connections, PostgreSQL shutting down or starting (class 57P), connection
 * exceptions (class 08, but for 08P01 above), and pg's own connection time-out. Only these answer
 * 503 with Retry-After (server/http/errors.ts): a client is told to retry only when retrying can help.
 */
export function isConnectionError(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e) return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (code === PROTOCOL_VIOLATION) return false;
  if (CONNECTION_ERRNOS.has(code) || code.startsWith('08') || code.startsWith('57P')) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
    message,
  );
}
