/**
 * SQL of the retention insights (issue 27, migration 022): flows that showed offers and what came
 * of them, counted from account_events. Nothing but SQL; server/insights/ turns the counts into
 * rates, intervals and tests.
 *
 * A flow is one offer_flow.started event (one per subscription, flow and UTC day). An outcome
 * belongs to the latest start of the same subscription and flow before it, within
 * ATTRIBUTION_DAYS and before the next start: a cancellation (cancellation flow), or an applied
 * offer of the flow's source (offer.accepted is recorded when an offer applies — at once, or once
 * its payment succeeded — so "accepted" is "accepted and paid"). The starts of the ATTRIBUTION_DAYS
 * after the period are read too, only so that an outcome after the period's end goes to a newer
 * start rather than to one of the period.
 */
import type { Queryable } from '../db/database';

/** How long after its start an outcome still counts for a flow. */
export const ATTRIBUTION_DAYS = 14;

export type InsightFlow = 'cancellation' | 'renewal' | 'upgrade';

export interface FlowCountsRow {
  /** Which grouping the row belongs to (the other keys of the row are null). */
  grouping: 'total' | 'segment' | 'week' | 'variant';
  flow: InsightFlow;
  publication: string | null;
  /** '' for flows without a reason (renewal, upgrade). */
  reason: string | null;
  /** Monday of the ISO week (YYYY-MM-DD). */
  week: string | null;
  experiment: string | null;
  variant: string | null;
  started: number;
  offersShown: number;
  accepted: number;
  cancelled: number;
  revenue: number;
  currency: string | null;
}

/**
 * Counts of one tenant's flows started in [from, to) (to exclusive, timestamps), grouped four ways
 * in one pass over the period's events: per flow; per flow, publication and reason; per flow and
 * ISO week; per flow, experiment and variant.
 */
export async function flowCounts(
  db: Queryable & { transaction?: <T>(work: (tx: Queryable) => Promise<T>) => Promise<T> },
  tenantId: string,
  period: { from: string; to: string },
): Promise<FlowCountsRow[]> {
  // The hash of a year's flow starts needs more than the default 4 MB of work_mem, else it spills
  // to disk and takes a third longer (bench/insights.ts); only for this statement's transaction.
  if (db.transaction) return db.transaction((tx) => flowCounts(tx, tenantId, period));
  await db.query(`set local work_mem = '32MB'`);
  const rows = await db.query<{
    grouping: number;
    flow: InsightFlow;
    publication: string | null;
    reason: string | null;
    week: string | null;
    experiment: string | null;
    variant: string | null;
    started: string;
    offers_shown: string;
    accepted: string;
    cancelled: string;
    revenue: string | null;
    currency: string | null;
  }>(
    `with starts as (
           select s.id, s.subject_id, s.created_at, s.data->>'flow' as flow,
                  s.data->>'publication' as publication, coalesce(s.data->>'reason', '') as reason,
                  jsonb_array_length(coalesce(s.data->'offerIds', '[]'::jsonb)) > 0 as offers_shown,
                  s.data->'experiment'->>'id' as experiment, s.data->'experiment'->>'variant' as variant
             from account_events s
            where s.tenant_id = $1 and s.type = 'offer_flow.started'
              and s.created_at >= $2 and s.created_at < $3::timestamptz + make_interval(days => $4)),
         outcomes as (
           select e.id, e.subject_id, e.created_at, e.type,
                  case when e.type = 'offer.accepted' then e.data->>'source' else 'cancellation' end as flow,
                  case when e.type = 'offer.accepted' then (e.data->>'amount')::numeric end as amount,
                  e.data->>'currency' as currency
             from account_events e
            where e.tenant_id = $1 and e.type in ('subscription.cancelled', 'offer.accepted')
              and e.created_at >= $2 and e.created_at < $3::timestamptz + make_interval(days => $4)),
         attributed as (
           select distinct on (o.id) o.id, s.id as start_id, o.type, o.amount, o.currency
             from outcomes o
             join starts s on s.subject_id = o.subject_id and s.flow = o.flow
              and s.created_at <= o.created_at and o.created_at < s.created_at + make_interval(days => $4)
            order by o.id, s.created_at desc),
         per_start as (
           select start_id, bool_or(type = 'offer.accepted') as accepted, bool_or(type = 'subscription.cancelled') as cancelled,
                  sum(amount) as revenue, min(currency) as currency
             from attributed group by start_id),
         flows as (
           select s.flow, s.publication, s.reason, s.offers_shown, s.experiment, s.variant,
                  date_trunc('week', s.created_at at time zone 'UTC')::date as week,
                  coalesce(p.accepted, false) as accepted, coalesce(p.cancelled, false) as cancelled,
                  coalesce(p.revenue, 0) as revenue, p.currency
             from starts s left join per_start p on p.start_id = s.id
            where s.created_at < $3)
         select grouping(publication, reason, week, experiment, variant) as grouping,
                flow, publication, reason, to_char(week, 'YYYY-MM-DD') as week, experiment, variant,
                count(*) as started, count(*) filter (where offers_shown) as offers_shown,
                count(*) filter (where accepted) as accepted, count(*) filter (where cancelled) as cancelled,
                sum(revenue) as revenue, min(currency) as currency
           from flows
          group by grouping sets ((flow), (flow, publication, reason), (flow, week), (flow, experiment, variant))
          order by flow, publication, reason, week, experiment, variant`,
    [tenantId, period.from, period.to, ATTRIBUTION_DAYS],
  );
  // grouping(): a bit per argument left out of the row's set, first argument highest.
  const GROUPINGS: Record<number, FlowCountsRow['grouping']> = {
    0b11111: 'total',
    0b00111: 'segment',
    0b11011: 'week',
    0b11100: 'variant',
  };
  return rows.map((row) => ({
    grouping: GROUPINGS[row.grouping],
    flow: row.flow,
    publication: row.publication,
    reason: row.reason,
    week: row.week,
    experiment: row.experiment,
    variant: row.variant,
    started: Number(row.started),
    offersShown: Number(row.offers_shown),
    accepted: Number(row.accepted),
    cancelled: Number(row.cancelled),
    revenue: Number(row.revenue ?? 0),
    currency: row.currency,
  }));
}

/** The offer ids of a tenant that the order system's data has (to name an experiment's unknown ones). */
export async function existingOfferIds(
  db: Queryable,
  tenantId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.query<{ id: string }>(
    `select id from offers where tenant_id = $1 and id = any($2::text[])`,
    [tenantId, ids],
  );
  return new Set(rows.map((row) => row.id));
}

/** The cancellation reason codes a tenant's data has, in any publication. */
export async function existingReasonCodes(db: Queryable, tenantId: string): Promise<Set<string>> {
  const rows = await db.query<{ code: string }>(
    `select distinct code from cancellation_reasons where tenant_id = $1`,
    [tenantId],
  );
  return new Set(rows.map((row) => row.code));
}

/**
 * Serializes the recording of one subscription's flow start (a transaction-scoped advisory lock),
 * so two reloads at the same moment write one event, not two.
 */
export async function lockFlowStart(tx: Queryable, tenantId: string, subscriptionId: string, flow: string) {
  await tx.query(`select pg_advisory_xact_lock(hashtext($1))`, [
    `offer_flow.started|${tenantId}|${subscriptionId}|${flow}`,
  ]);
}

/** Whether the subscription has a start of this flow since `since` (the start of today, UTC). */
export async function hasFlowStartSince(
  tx: Queryable,
  tenantId: string,
  subscriptionId: string,
  flow: string,
  since: string,
): Promise<boolean> {
  const rows = await tx.query(
    `select 1 from account_events
      where tenant_id = $1 and subject_id = $2 and type = 'offer_flow.started'
        and created_at >= $3 and data->>'flow' = $4
      limit 1`,
    [tenantId, subscriptionId, since, flow],
  );
  return rows.length > 0;
}
