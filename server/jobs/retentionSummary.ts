/**
 * The retention insights' daily summary (docs/operators.md "Retention insights", "Speed"): every
 * instance runs this job; each round sums, per served tenant, the closed days not summed yet —
 * after midnight UTC the day whose flows' windows just closed, and any day a late or deleted event
 * made the summary forget (migration 032). Two instances summing the same days wait for each other
 * on the tenant's lock and write the same rows. The clock is a parameter, so tests run a round "at"
 * a time.
 */
import type { Database } from '../db/database';
import { startPeriodicJob } from './periodicJob';
import { retentionSummaryDays } from '../metrics/registry';
import { summariseRetention } from '../insights/retentionSummary';

/** Sums every served tenant's closed days not summed yet; answers how many days were summed. */
export async function summariseRetentionDays(
  db: Database,
  tenantIds: readonly string[],
  now: Date,
  isStopping: () => boolean = () => false,
): Promise<number> {
  let summed = 0;
  for (const tenantId of tenantIds) {
    if (isStopping()) break;
    const days = await summariseRetention(db, tenantId, now, isStopping);
    retentionSummaryDays.inc(days);
    summed += days;
  }
  return summed;
}

/**
 * Starts the job, every 5 minutes: a new day closes once a day and a forgotten day is counted live
 * meanwhile, so the interval only bounds how long such a day costs the reader more; a round with
 * nothing to sum is one indexed look per tenant. Well inside the "job stopped" alert's 15 minutes
 * (ops/prometheus/alerts.yml) even when a round sums a year.
 */
export function startRetentionSummary(
  db: Database,
  deps: {
    tenants: readonly { id: string }[];
    log?: (entry: Record<string, unknown>) => void;
    intervalMs?: number;
  },
): () => Promise<void> {
  const ids = deps.tenants.map((tenant) => tenant.id);
  return startPeriodicJob(
    'retention summary',
    (isStopping) => summariseRetentionDays(db, ids, new Date(), isStopping),
    { intervalMs: deps.intervalMs ?? 300_000, log: deps.log },
  );
}
