/**
 * What readiness adds to "the database answers" (docs/going-live.md "Operations"): whether every migration
 * this code knows is applied (an instance of a newer release on an older schema answers wrongly), and
 * whether each background job of this instance still completes rounds (a job that stopped is
 * invisible otherwise until its queue grows). /readyz's handler (server/app.ts) reports the
 * database itself; it can spread `await readinessDetails(db)` into its answer and answer 503 when
 * `ok` is false. Liveness (/healthz) stays without any of it: it must stay cheap.
 */
import type { Queryable } from '../db/database';
import { loadMigrations } from '../db/migrate';
import { jobStates } from '../jobs/periodicJob';

export interface JobReadiness {
  name: string;
  /** ISO time of the last round that ended without an error; absent before the first. */
  lastSuccessAt?: string;
  lastError?: string;
  /** No good round for 10 intervals (5 minutes at least): the job stopped or fails every round. */
  stalled: boolean;
}

export interface ReadinessDetails {
  ok: boolean;
  migrations: { applied: number; pending: string[] };
  jobs: JobReadiness[];
}

let knownMigrations: Promise<string[]> | undefined;

/** A job is stalled after this long without a good round: 10 of its intervals, 5 minutes at least. */
export function stallAfterMs(intervalMs: number): number {
  return Math.max(10 * intervalMs, 300_000);
}

export async function readinessDetails(db: Queryable, now: number = Date.now()): Promise<ReadinessDetails> {
  knownMigrations ??= loadMigrations().then((migrations) => migrations.map((migration) => migration.name));
  const names = await knownMigrations;
  const applied = new Set(
    (await db.query<{ name: string }>('select name from schema_migrations')).map((row) => row.name),
  );
  const pending = names.filter((name) => !applied.has(name));
  const jobs: JobReadiness[] = [...jobStates()].map(([name, state]) => ({
    name,
    ...(state.lastSuccessAt ? { lastSuccessAt: new Date(state.lastSuccessAt).toISOString() } : {}),
    ...(state.lastError && (state.lastFailureAt ?? 0) > (state.lastSuccessAt ?? 0)
      ? { lastError: state.lastError }
      : {}),
    stalled: now - (state.lastSuccessAt ?? state.startedAt) > stallAfterMs(state.intervalMs),
  }));
  return {
    ok: pending.length === 0 && jobs.every((job) => !job.stalled),
    migrations: { applied: applied.size, pending },
    jobs,
  };
}
