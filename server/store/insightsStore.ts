/**
 * SQL of the retention insights (migrations 022 and 032): flows that showed offers and what came
 * of them, counted from account_events and, for the days whose flows have all closed, from the
 * daily summary (docs/operators.md "Retention insights"). Nothing but SQL; server/insights/ turns
 * the counts into rates, intervals and tests.
 *
 * A flow is one offer_flow.started event (one per subscription, flow and UTC day). An outcome
 * belongs to the latest start of the same subscription and flow before it, within
 * ATTRIBUTION_DAYS and before the next start: a cancellation (cancellation flow), or an applied
 * offer of the flow's source (offer.accepted is recorded when an offer applies — at once, or once
 * its payment succeeded — so "accepted" is "accepted and paid"). The starts of the ATTRIBUTION_DAYS
 * after the period are read too, only so that an outcome after the period's end goes to a newer
 * start rather than to one of the period.
 *
 * A flow is *open* while its window (ATTRIBUTION_DAYS from its start) has not closed at `now`: what
 * it keeps is not known yet, so it is counted as open and in no rate. Only a flow whose window
 * closed is *kept*: without a cancellation (cancellation flow), with an accepted offer (the others).
 * Revenue is summed per currency (an offer's price is in its own currency).
 */
import type { Queryable } from '../db/database';

/**
 * An outcome (the event `e`) the order system rejected did not happen: a cancellation off the
 * record, an offer whose acceptance failed (docs/going-live.md "Whose data is it"). Its rejection
 * makes the summary forget the days it touched (migration 052).
 */
const NOT_REJECTED = `not exists (select 1 from change_acknowledgements r
                       where r.tenant_id = e.tenant_id and r.event_id = e.id and r.status = 'rejected')`;

/** How long after its start an outcome still counts for a flow. */
export const ATTRIBUTION_DAYS = 14;

export type InsightFlow = 'cancellation' | 'renewal' | 'upgrade';

/** An amount of money in one currency. */
export interface Money {
  currency: string;
  amount: number;
}

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
  /** Flows whose window has not closed yet. */
  open: number;
  offersShown: number;
  accepted: number;
  cancelled: number;
  /** Flows whose window closed without a cancellation (cancellation flow) or with an accepted offer. */
  kept: number;
  /** The accepted offers' prices, per currency (sorted by currency). */
  revenue: Money[];
}

/** A row of the grouped counts as SQL answers it (both the direct and the summarised query). */
interface CountsSqlRow {
  kind: 'counts' | 'revenue';
  grouping: number;
  flow: InsightFlow;
  publication: string | null;
  reason: string | null;
  week: string | null;
  experiment: string | null;
  variant: string | null;
  started: string | null;
  open: string | null;
  offers_shown: string | null;
  accepted: string | null;
  cancelled: string | null;
  kept: string | null;
  revenue: string | null;
  currency: string | null;
}

type WithTransaction = Queryable & {
  transaction?: <T>(work: (tx: Queryable) => Promise<T>) => Promise<T>;
};

/**
 * Each outcome (a cancellation, an accepted offer) given to the latest flow start of its
 * subscription and flow within ATTRIBUTION_DAYS before it ($4), and per start whether an offer was
 * accepted or the subscription cancelled: the same in the direct query and the summary's live part.
 */
const ATTRIBUTED_OUTCOMES_SQL = `
    attributed as (
      select distinct on (o.id) o.id, s.id as start_id, o.type, o.amount, o.currency
        from outcomes o
        join starts s on s.subject_id = o.subject_id and s.flow = o.flow
         and s.created_at <= o.created_at and o.created_at < s.created_at + make_interval(days => $4)
       order by o.id, s.created_at desc),
    per_start as (
      select start_id, bool_or(type = 'offer.accepted') as accepted, bool_or(type = 'subscription.cancelled') as cancelled
        from attributed group by start_id),`;

/**
 * Counts of one tenant's flows started in [from, to) (to exclusive, timestamps), grouped four ways
 * in one pass over the period's events: per flow; per flow, publication and reason; per flow and
 * ISO week; per flow, experiment and variant. `now` decides which flows are still open.
 *
 * The direct query: every flow of the period matched with its outcomes from the events. The
 * insights answer from the daily summary instead (flowCounts below); this one is what that answer
 * is held against (tests/server/insights/retentionSummary.int.test.ts, bench/insights.ts).
 */
export async function directFlowCounts(
  db: WithTransaction,
  tenantId: string,
  period: { from: string; to: string },
  now: Date,
): Promise<FlowCountsRow[]> {
  // The hash of a year's flow starts needs more than the default 4 MB of work_mem, else it spills
  // to disk and takes a third longer (bench/insights.ts); only for this statement's transaction.
  if (db.transaction) return db.transaction((tx) => directFlowCounts(tx, tenantId, period, now));
  await db.query(`set local work_mem = '32MB'`);
  const rows = await db.query<CountsSqlRow>(
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
              and e.created_at >= $2 and e.created_at < $3::timestamptz + make_interval(days => $4)
              and ${NOT_REJECTED}),
         ${ATTRIBUTED_OUTCOMES_SQL}
         flows as (
           select s.id, s.flow, s.publication, s.reason, s.offers_shown, s.experiment, s.variant,
                  date_trunc('week', s.created_at at time zone 'UTC')::date as week,
                  coalesce(p.accepted, false) as accepted, coalesce(p.cancelled, false) as cancelled,
                  s.created_at + make_interval(days => $4) > $5::timestamptz as open
             from starts s left join per_start p on p.start_id = s.id
            where s.created_at < $3)
         select 'counts' as kind, grouping(publication, reason, week, experiment, variant) as grouping,
                flow, publication, reason, to_char(week, 'YYYY-MM-DD') as week, experiment, variant,
                count(*) as started, count(*) filter (where open) as open,
                count(*) filter (where offers_shown) as offers_shown,
                count(*) filter (where accepted) as accepted, count(*) filter (where cancelled) as cancelled,
                count(*) filter (where not open and case when flow = 'cancellation' then not cancelled else accepted end) as kept,
                null::numeric as revenue, null::text as currency
           from flows
          group by grouping sets ((flow), (flow, publication, reason), (flow, week), (flow, experiment, variant))
         union all
         select 'revenue', grouping(f.publication, f.reason, f.week, f.experiment, f.variant),
                f.flow, f.publication, f.reason, to_char(f.week, 'YYYY-MM-DD'), f.experiment, f.variant,
                null, null, null, null, null, null, sum(a.amount), a.currency
           from flows f join attributed a on a.start_id = f.id and a.type = 'offer.accepted' and a.amount is not null
          group by grouping sets ((f.flow, a.currency), (f.flow, f.publication, f.reason, a.currency),
                                  (f.flow, f.week, a.currency), (f.flow, f.experiment, f.variant, a.currency))
          order by flow, publication, reason, week, experiment, variant, currency`,
    [tenantId, period.from, period.to, ATTRIBUTION_DAYS, now.toISOString()],
  );
  return countsRows(rows);
}

/** The SQL rows as FlowCountsRow: counts, with each group's revenue per currency. */
function countsRows(rows: readonly CountsSqlRow[]): FlowCountsRow[] {
  // grouping(): a bit per argument left out of the row's set, first argument highest.
  const GROUPINGS: Record<number, FlowCountsRow['grouping']> = {
    0b11111: 'total',
    0b00111: 'segment',
    0b11011: 'week',
    0b11100: 'variant',
  };
  const keyOf = (row: CountsSqlRow) =>
    [row.grouping, row.flow, row.publication, row.reason, row.week, row.experiment, row.variant].join(
      '\u0000',
    );
  const counted = new Map<string, FlowCountsRow>();
  for (const row of rows.filter((r) => r.kind === 'counts'))
    counted.set(keyOf(row), {
      grouping: GROUPINGS[row.grouping],
      flow: row.flow,
      publication: row.publication,
      reason: row.reason,
      week: row.week,
      experiment: row.experiment,
      variant: row.variant,
      started: Number(row.started),
      open: Number(row.open),
      offersShown: Number(row.offers_shown),
      accepted: Number(row.accepted),
      cancelled: Number(row.cancelled),
      kept: Number(row.kept),
      revenue: [],
    });
  // Every accepted offer belongs to a counted flow, so each revenue row finds its counts.
  for (const row of rows.filter((r) => r.kind === 'revenue'))
    counted.get(keyOf(row))?.revenue.push({
      currency: row.currency ?? '',
      amount: Math.round(Number(row.revenue ?? 0) * 100) / 100,
    });
  return [...counted.values()];
}

const DAY_MS = 86_400_000;

/**
 * The flows started in [$6, $7) whose day is not among the summed days $8, each with what came of
 * it — the direct query's matching (above), read only in the windows [$2[i], $3[i]) (disjoint, each
 * reaching ATTRIBUTION_DAYS past its flows, as the direct query reads its period). A flow's
 * outcomes lie in its own window and only a later start of the same subscription and flow takes
 * them, so a flow counts the same whichever window it is read in: the summary
 * (server/store/retentionSummaryStore.ts) and the live part of flowCounts use this one text.
 * Parameters: $1 tenant, $2/$3 the windows, $4 ATTRIBUTION_DAYS, $5 now (open flows), $6/$7 the
 * flows' period, $8 the days left out.
 */
export const FLOWS_OF_WINDOWS_SQL = `
    windows as (select * from unnest($2::timestamptz[], $3::timestamptz[]) as w(w_from, w_to)),
    starts as (
      select s.id, s.subject_id, s.created_at, s.data->>'flow' as flow,
             s.data->>'publication' as publication, coalesce(s.data->>'reason', '') as reason,
             jsonb_array_length(coalesce(s.data->'offerIds', '[]'::jsonb)) > 0 as offers_shown,
             s.data->'experiment'->>'id' as experiment, s.data->'experiment'->>'variant' as variant
        from windows w
        join lateral (
          select * from account_events s
           where s.tenant_id = $1 and s.type = 'offer_flow.started'
             and s.created_at >= w.w_from and s.created_at < w.w_to) s on true),
    outcomes as (
      select e.id, e.subject_id, e.created_at, e.type,
             case when e.type = 'offer.accepted' then e.data->>'source' else 'cancellation' end as flow,
             case when e.type = 'offer.accepted' then (e.data->>'amount')::numeric end as amount,
             e.data->>'currency' as currency
        from windows w
        join lateral (
          select * from account_events e
           where e.tenant_id = $1 and e.type in ('subscription.cancelled', 'offer.accepted')
             and e.created_at >= w.w_from and e.created_at < w.w_to
             and ${NOT_REJECTED}) e on true),
    ${ATTRIBUTED_OUTCOMES_SQL}
    flows as (
      select s.id, s.flow, s.publication, s.reason, s.offers_shown, s.experiment, s.variant,
             (s.created_at at time zone 'UTC')::date as day,
             coalesce(p.accepted, false) as accepted, coalesce(p.cancelled, false) as cancelled,
             s.created_at + make_interval(days => $4) > $5::timestamptz as open
        from starts s left join per_start p on p.start_id = s.id
       where s.created_at >= $6::timestamptz and s.created_at < $7::timestamptz
         and (s.created_at at time zone 'UTC')::date <> all($8::date[]))`;

/**
 * The windows the live part reads: each run of days not summed, [first, last + ATTRIBUTION_DAYS),
 * runs whose windows overlap joined into one (an event is read once).
 */
export function liveWindows(
  period: { from: number; to: number },
  summarised: readonly string[],
): { from: string[]; to: string[] } {
  const runs: Array<[number, number]> = [];
  let cursor = period.from;
  for (const day of summarised) {
    const start = Date.parse(`${day}T00:00:00Z`);
    if (start > cursor) runs.push([cursor, start]);
    cursor = Math.max(cursor, start + DAY_MS);
  }
  if (cursor < period.to) runs.push([cursor, period.to]);
  const windows: Array<[number, number]> = [];
  for (const [first, end] of runs) {
    const reach = end + ATTRIBUTION_DAYS * DAY_MS;
    const last = windows[windows.length - 1];
    if (last && first <= last[1]) last[1] = Math.max(last[1], reach);
    else windows.push([first, reach]);
  }
  return {
    from: windows.map(([first]) => new Date(first).toISOString()),
    to: windows.map(([, reach]) => new Date(reach).toISOString()),
  };
}

/**
 * What flowCounts answers from the summary and what from the events: the summed days of the period
 * (whole days inside [from, to)) whose flows have all closed at `now` — a day's last flow closes
 * ATTRIBUTION_DAYS after the day ends; before that its open flows are judged live.
 */
async function summarisedDays(
  db: Queryable,
  tenantId: string,
  period: { from: number; to: number },
  now: Date,
): Promise<string[]> {
  const firstWhole = Math.ceil(period.from / DAY_MS) * DAY_MS;
  const endWhole = Math.floor(period.to / DAY_MS) * DAY_MS;
  const lastClosed = Math.floor((now.getTime() - (ATTRIBUTION_DAYS + 1) * DAY_MS) / DAY_MS) * DAY_MS;
  const end = Math.min(endWhole, lastClosed + DAY_MS);
  if (end <= firstWhole) return [];
  const rows = await db.query<{ day: string }>(
    `select to_char(day, 'YYYY-MM-DD') as day from retention_summary_days
      where tenant_id = $1 and day >= $2::date and day < $3::date order by day`,
    [tenantId, new Date(firstWhole).toISOString().slice(0, 10), new Date(end).toISOString().slice(0, 10)],
  );
  return rows.map((row) => row.day);
}

/**
 * The same counts as directFlowCounts, from the daily summary (migration 032) where a day is summed
 * and closed, and from the events for the rest: today, the days whose flows are still open, and a
 * day an event written late or deleted made the summary forget. One statement adds both up, so the
 * groups, the order and the revenue's sums are the direct query's. In its own transaction at
 * repeatable read when given the database, so the summed days it looks up are the ones it adds up
 * although a late event makes the summary forget one meanwhile (a caller's transaction should be
 * at repeatable read for the same reason).
 */
export async function flowCounts(
  db: WithTransaction,
  tenantId: string,
  period: { from: string; to: string },
  now: Date,
): Promise<FlowCountsRow[]> {
  if (db.transaction)
    return db.transaction(async (tx) => {
      await tx.query(`set transaction isolation level repeatable read`);
      return flowCounts(tx, tenantId, period, now);
    });
  // As the direct query: the live part's hash of flow starts would spill to disk with 4 MB.
  await db.query(`set local work_mem = '32MB'`);
  const span = { from: Date.parse(period.from), to: Date.parse(period.to) };
  const summarised = await summarisedDays(db, tenantId, span, now);
  const windows = liveWindows(span, summarised);
  const week = (day: string) => `(${day} - (extract(isodow from ${day})::int - 1))`;
  const rows = await db.query<CountsSqlRow>(
    `with ${FLOWS_OF_WINDOWS_SQL},
         units as (
           select flow, publication, reason, ${week('day')} as week, experiment, variant,
                  1 as started, open::int as open, offers_shown::int as offers_shown,
                  accepted::int as accepted, cancelled::int as cancelled,
                  (not open and case when flow = 'cancellation' then not cancelled else accepted end)::int as kept
             from flows
           union all
           select flow, publication, reason, ${week('day')}, experiment, variant,
                  started, 0, offers_shown, accepted, cancelled, kept
             from retention_daily_flows where tenant_id = $1 and day = any($8::date[])),
         money as (
           select f.flow, f.publication, f.reason, ${week('f.day')} as week, f.experiment, f.variant, a.currency, a.amount
             from flows f join attributed a on a.start_id = f.id and a.type = 'offer.accepted' and a.amount is not null
           union all
           select flow, publication, reason, ${week('day')}, experiment, variant, currency, amount
             from retention_daily_revenue where tenant_id = $1 and day = any($8::date[]))
     select 'counts' as kind, grouping(publication, reason, week, experiment, variant) as grouping,
            flow, publication, reason, to_char(week, 'YYYY-MM-DD') as week, experiment, variant,
            sum(started) as started, sum(open) as open, sum(offers_shown) as offers_shown,
            sum(accepted) as accepted, sum(cancelled) as cancelled, sum(kept) as kept,
            null::numeric as revenue, null::text as currency
       from units
      group by grouping sets ((flow), (flow, publication, reason), (flow, week), (flow, experiment, variant))
     union all
     select 'revenue', grouping(publication, reason, week, experiment, variant),
            flow, publication, reason, to_char(week, 'YYYY-MM-DD'), experiment, variant,
            null, null, null, null, null, null, sum(amount), currency
       from money
      group by grouping sets ((flow, currency), (flow, publication, reason, currency),
                              (flow, week, currency), (flow, experiment, variant, currency))
      order by flow, publication, reason, week, experiment, variant, currency`,
    [
      tenantId,
      windows.from,
      windows.to,
      ATTRIBUTION_DAYS,
      now.toISOString(),
      period.from,
      period.to,
      summarised,
    ],
  );
  return countsRows(rows);
}

/**
 * The titles per locale of the tenant's offers among `ids`, as the order system sent them (the
 * offer's texts); an id the data does not have is left out.
 */
export async function offerTitles(
  db: Queryable,
  tenantId: string,
  ids: readonly string[],
): Promise<Record<string, Record<string, string>>> {
  if (ids.length === 0) return {};
  const rows = await db.query<{ id: string; texts: Record<string, { title?: string }> | null }>(
    `select id, offer->'texts' as texts from offers where tenant_id = $1 and id = any($2::text[])`,
    [tenantId, ids],
  );
  return Object.fromEntries(
    rows.map((row) => [
      row.id,
      Object.fromEntries(
        Object.entries(row.texts ?? {}).flatMap(([locale, texts]) =>
          texts?.title ? [[locale, texts.title]] : [],
        ),
      ),
    ]),
  );
}

/** The tenant's cancellation reasons: per publication and code, the description per locale. */
export async function reasonDescriptions(
  db: Queryable,
  tenantId: string,
): Promise<Record<string, Record<string, Record<string, string>>>> {
  const rows = await db.query<{
    publication: string;
    code: string;
    descriptions: Record<string, string> | null;
  }>(
    `select publication, code, descriptions from cancellation_reasons where tenant_id = $1 order by publication, position, code`,
    [tenantId],
  );
  const reasons: Record<string, Record<string, Record<string, string>>> = {};
  for (const row of rows) (reasons[row.publication] ??= {})[row.code] = row.descriptions ?? {};
  return reasons;
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
