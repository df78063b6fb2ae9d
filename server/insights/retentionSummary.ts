/**
 * The retention insights' daily summary (docs/operators.md "Retention insights", "Speed"): sums each
 * day of a tenant whose flows have all closed, so the insights of a year add up days instead of
 * matching every flow with its outcomes. A day is summed once its last flow's window closed
 * (ATTRIBUTION_DAYS after the day's end): then nothing but a late or deleted event can change it,
 * and migration 032's triggers make the summary forget such a day, which the next round sums anew.
 * The background job (server/jobs/retentionSummary.ts) runs it; a day not summed yet is counted
 * live by the reader, so the answer never waits for the job and is always the direct query's.
 */
import type { Database } from '../db/database';
import { utcDay } from '../../engine/domain/dates';
import { ATTRIBUTION_DAYS } from '../store/insightsStore';
import { daysToSummarise, lockSummary, summariseDays } from '../store/retentionSummaryStore';

const DAY_MS = 86_400_000;
/**
 * Days summed per transaction: a month of a large publisher (17,000 flows) takes about a tenth of a
 * second, the time its writers of counted events may wait for the lock (bench/insights.ts).
 */
export const SUMMARY_DAYS_PER_TRANSACTION = 31;

/** The last day whose flows have all closed at `now`. */
export function lastClosedDay(now: Date): string {
  return utcDay(new Date(now.getTime() - (ATTRIBUTION_DAYS + 1) * DAY_MS));
}

/** Sums the tenant's closed days not summed yet; answers how many days it summed. */
export async function summariseRetention(
  db: Database,
  tenantId: string,
  now: Date,
  isStopping: () => boolean = () => false,
): Promise<number> {
  const days = await daysToSummarise(db, tenantId, lastClosedDay(now));
  // Runs of consecutive days, at most SUMMARY_DAYS_PER_TRANSACTION each.
  const runs: Array<[string, number]> = [];
  for (const day of days) {
    const last = runs[runs.length - 1];
    const next = last && Date.parse(`${last[0]}T00:00:00Z`) + last[1] * DAY_MS;
    if (last && next === Date.parse(`${day}T00:00:00Z`) && last[1] < SUMMARY_DAYS_PER_TRANSACTION)
      last[1] += 1;
    else runs.push([day, 1]);
  }
  let summed = 0;
  for (const [first, length] of runs) {
    if (isStopping()) break;
    const end = utcDay(new Date(Date.parse(`${first}T00:00:00Z`) + length * DAY_MS));
    await db.transaction(async (tx) => {
      await lockSummary(tx, tenantId);
      await summariseDays(tx, tenantId, first, end);
    });
    summed += length;
  }
  return summed;
}
