/**
 * What /readyz says about the database (docs/architecture.md "Running more than one instance"): while it is
 * unreachable, why and since when; once it is back, the last outage this instance saw (from /readyz
 * itself or from a request answered 503), so an operator who looks afterwards still learns what
 * happened without reading logs.
 */
export interface DatabaseOutage {
  since: string;
  reason: string;
  /** When this instance reached the database again; absent while it is still down. */
  until?: string;
}

export interface DatabaseHealth {
  down(error: unknown): void;
  up(): void;
  lastOutage(): DatabaseOutage | null;
}

/** `57P01 terminating connection due to administrator command`, `ECONNREFUSED …`: code and first line. */
export function databaseErrorReason(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = (typeof e?.message === 'string' ? e.message : String(error)).split('\n')[0].slice(0, 200);
  return code && !message.includes(code) ? `${code} ${message}` : message;
}

export function createDatabaseHealth(now: () => Date): DatabaseHealth {
  let outage: DatabaseOutage | null = null;
  return {
    down(error) {
      if (!outage || outage.until)
        outage = { since: now().toISOString(), reason: databaseErrorReason(error) };
    },
    up() {
      if (outage && !outage.until) outage.until = now().toISOString();
    },
    lastOutage: () => (outage ? { ...outage } : null),
  };
}
