/**
 * SQL of the retention insights' daily summary (migration 032, docs/operators.md "Retention
 * insights"): which days of a tenant wait to be summed, and summing a run of days from the events
 * with the very matching the insights use (FLOWS_OF_WINDOWS_SQL). Nothing but SQL;
 * server/insights/retentionSummary.ts decides which days and when.
 */
import type { Queryable } from '../db/database';
import { ATTRIBUTION_DAYS, FLOWS_OF_WINDOWS_SQL } from './insightsStore';

/** The first key of the summary's advisory lock (the second: the tenant's hash); migration 032 takes it shared. */
const SUMMARY_LOCK_CLASS = 727_150_032;

/**
 * The tenant's summary, exclusively to the end of the transaction: a writer of a counted event
 * waits until the summed days are committed, then forgets those its event touches (migration 032).
 */
export async function lockSummary(tx: Queryable, tenantId: string): Promise<void> {
  await tx.query(`select pg_advisory_xact_lock($1, hashtext($2))`, [SUMMARY_LOCK_CLASS, tenantId]);
}

/**
 * The days up to `lastDay` (included) that are not summed, from the tenant's first counted event
 * on (before it there is nothing to sum, and the live count of an empty stretch costs nothing).
 */
export async function daysToSummarise(db: Queryable, tenantId: string, lastDay: string): Promise<string[]> {
  const rows = await db.query<{ day: string }>(
    `with first as (
       select (min(created_at) at time zone 'UTC')::date as day from (
         select min(created_at) as created_at from account_events
          where tenant_id = $1 and type = 'offer_flow.started'
         union all
         select min(created_at) from account_events where tenant_id = $1 and type = 'subscription.cancelled'
         union all
         select min(created_at) from account_events where tenant_id = $1 and type = 'offer.accepted') m)
     select to_char(d.day, 'YYYY-MM-DD') as day
       from first, generate_series(first.day::timestamp, $2::date::timestamp, interval '1 day') as d(day)
      where not exists (select 1 from retention_summary_days s where s.tenant_id = $1 and s.day = d.day::date)
      order by d.day`,
    [tenantId, lastDay],
  );
  return rows.map((row) => row.day);
}

/**
 * Sums the days [firstDay, endDay) of a tenant anew: their rows go, then each day gets its row in
 * retention_summary_days (a day without flows too) and its counts. Kept is counted as if every
 * window had closed: the caller sums only days whose flows all closed, and the reader uses a day
 * only once they have (server/store/insightsStore.ts, flowCounts). Call it in a transaction that
 * holds lockSummary.
 */
export async function summariseDays(
  tx: Queryable,
  tenantId: string,
  firstDay: string,
  endDay: string,
): Promise<void> {
  await tx.query(`delete from retention_summary_days where tenant_id = $1 and day >= $2 and day < $3`, [
    tenantId,
    firstDay,
    endDay,
  ]);
  await tx.query(
    `insert into retention_summary_days (tenant_id, day)
     select $1, d::date from generate_series($2::date::timestamp, ($3::date - 1)::timestamp, interval '1 day') as d`,
    [tenantId, firstDay, endDay],
  );
  const from = `${firstDay}T00:00:00Z`;
  const to = `${endDay}T00:00:00Z`;
  const reach = new Date(Date.parse(to) + ATTRIBUTION_DAYS * 86_400_000).toISOString();
  await tx.query(
    `with ${FLOWS_OF_WINDOWS_SQL},
         counted as (
           insert into retention_daily_flows
             (tenant_id, day, flow, publication, reason, experiment, variant, started, offers_shown, accepted, cancelled, kept)
           select $1, day, flow, publication, reason, experiment, variant, count(*),
                  count(*) filter (where offers_shown), count(*) filter (where accepted),
                  count(*) filter (where cancelled),
                  count(*) filter (where case when flow = 'cancellation' then not cancelled else accepted end)
             from flows group by day, flow, publication, reason, experiment, variant
           returning 1)
     insert into retention_daily_revenue (tenant_id, day, flow, publication, reason, experiment, variant, currency, amount)
     select $1, f.day, f.flow, f.publication, f.reason, f.experiment, f.variant, a.currency, sum(a.amount)
       from flows f join attributed a on a.start_id = f.id and a.type = 'offer.accepted' and a.amount is not null
      group by f.day, f.flow, f.publication, f.reason, f.experiment, f.variant, a.currency`,
    [tenantId, [from], [reach], ATTRIBUTION_DAYS, 'infinity', from, to, []],
  );
}
