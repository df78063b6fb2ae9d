/**
 * `npm run bench` section 7 (docs/operators.md "Retention insights"): the insights of a large publisher's
 * year — a million account events of one tenant, 200,000 of them flows started and their outcomes —
 * next to a plain `select count(*)` of the same tenant's rows, measured in the same run on the same
 * database: the direct query (every flow matched with its outcomes), the summary job's first
 * round, the answer from the daily summary (migration 032) with every day summed and with the
 * period's last 15 days still open (counted live), and the direct query without migration 022's
 * indexes. Figures, never a failing test.
 * `npx tsx bench/insights.ts` runs it alone (embedded PostgreSQL in a temporary folder, or
 * DATABASE_URL, where the bench tenant's rows are removed again).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Database } from '../server/db/database';

export const TENANT = 'bench-insights';
const EVENTS = 1_000_000;
const FLOWS = 200_000;
const YEAR = { from: '2025-11-01', to: '2026-10-31' };

/** Median of `runs` timed calls after one warm-up, in ms. */
async function median(runs: number, work: () => Promise<unknown>): Promise<number> {
  await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/**
 * A year of events made in the database: FLOWS flow starts spread over the year (7 in 10
 * cancellation, 2 renewal, 1 upgrade; five publications, four reasons, half of them in an
 * experiment), a cancellation after every third cancellation flow, an accepted offer after every
 * fifth flow, and other changes (address changes) up to EVENTS.
 */
export async function seed(db: Database): Promise<number> {
  const yearStart = `${YEAR.from}T00:00:00Z`;
  const step = `${(365 * 86_400) / FLOWS} seconds`;
  await db.query(
    `insert into account_events (tenant_id, id, type, user_id, subject_type, subject_id, data, created_at, dispatched_at)
     select $1, gen_random_uuid(), 'offer_flow.started', 'u' || (i % 120000), 'subscription', 'S' || (i % 120000),
            jsonb_build_object(
              'subscriptionId', 'S' || (i % 120000), 'orderNumber', (4000000000 + i % 120000)::text,
              'publication', 'P' || (i % 5),
              'flow', case when i % 10 < 7 then 'cancellation' when i % 10 < 9 then 'renewal' else 'upgrade' end,
              'reason', case when i % 10 < 7 then (array['PREIS','ZEIT','UMZUG','SONST'])[1 + i % 4] end,
              'offerIds', case when i % 7 = 0 then '[]'::jsonb else '["O1","O2"]'::jsonb end,
              'experiment', case when i % 2 = 0 then jsonb_build_object('id', 'E1', 'variant', case when i % 4 = 0 then 'control' else 'half' end) end),
            $2::timestamptz + i * $3::interval, $2::timestamptz + i * $3::interval
       from generate_series(1, $4) as i`,
    [TENANT, yearStart, step, FLOWS],
  );
  await db.query(
    `insert into account_events (tenant_id, id, type, user_id, subject_type, subject_id, data, created_at, dispatched_at)
     select $1, gen_random_uuid(), 'subscription.cancelled', 'u' || (i % 120000), 'subscription', 'S' || (i % 120000),
            jsonb_build_object('subscriptionId', 'S' || (i % 120000), 'reason', 'PREIS', 'type', 'regular'),
            $2::timestamptz + i * $3::interval + interval '5 minutes', $2::timestamptz
       from generate_series(1, $4) as i where i % 10 < 7 and i % 3 = 0`,
    [TENANT, yearStart, step, FLOWS],
  );
  await db.query(
    `insert into account_events (tenant_id, id, type, user_id, subject_type, subject_id, data, created_at, dispatched_at)
     select $1, gen_random_uuid(), 'offer.accepted', 'u' || (i % 120000), 'subscription', 'S' || (i % 120000),
            jsonb_build_object('subscriptionId', 'S' || (i % 120000), 'offerId', 'O1', 'amount', 30, 'currency', 'EUR',
              'source', case when i % 10 < 7 then 'cancellation' when i % 10 < 9 then 'renewal' else 'upgrade' end),
            $2::timestamptz + i * $3::interval + interval '3 minutes', $2::timestamptz
       from generate_series(1, $4) as i where i % 5 = 0 and i % 3 <> 0`,
    [TENANT, yearStart, step, FLOWS],
  );
  const [{ n }] = await db.query<{ n: string }>(
    `select count(*) as n from account_events where tenant_id = $1`,
    [TENANT],
  );
  const others = EVENTS - Number(n);
  await db.query(
    `insert into account_events (tenant_id, id, type, user_id, subject_type, subject_id, data, created_at, dispatched_at)
     select $1, gen_random_uuid(), 'address.changed', 'u' || (i % 120000), 'business_partner', (8000000000 + i % 120000)::text,
            jsonb_build_object('bpNumber', (8000000000 + i % 120000)::text, 'street', 'Benchstraße', 'city', 'Berlin'),
            $2::timestamptz + (i % 365) * interval '1 day', $2::timestamptz
       from generate_series(1, $3) as i`,
    [TENANT, yearStart, others],
  );
  await db.query(`analyze account_events`);
  return EVENTS;
}

export async function insightsSection(work: string): Promise<void> {
  const { openDatabase } = await import('../server/db/openDatabase');
  const { migrate } = await import('../server/db/migrate');
  const { retentionInsights } = await import('../server/insights/retentionInsights');
  const { summariseRetention } = await import('../server/insights/retentionSummary');
  const dataDir = path.join(work, 'insights-db');
  const db = await openDatabase({ url: process.env.DATABASE_URL, dataDir });
  const ratio = (value: number, base: number) => `${(value / base).toFixed(2)}×`;
  const ms = (value: number) => `${value.toFixed(1).padStart(8)} ms`;
  try {
    await migrate(db);
    await db.query(`delete from account_events where tenant_id = $1`, [TENANT]);
    await db.query(`delete from retention_summary_days where tenant_id = $1`, [TENANT]);
    const seedStart = performance.now();
    const count = await seed(db);
    console.log(
      `\n7. Retention insights: ${count.toLocaleString('en-GB')} account events of one tenant over a year, ${FLOWS.toLocaleString('en-GB')} of them flows started (seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s), ${process.env.DATABASE_URL ? 'PostgreSQL at DATABASE_URL' : 'embedded PostgreSQL'}; median of 5`,
    );
    const tenant = { id: TENANT, offerExperiments: [] };
    const baseline = await median(5, () =>
      db.query(`select count(*) from account_events where tenant_id = $1`, [TENANT]),
    );
    const direct = { direct: true };
    const year = await median(5, () => retentionInsights(db, tenant, YEAR, new Date(), direct));
    const month = await median(5, () =>
      retentionInsights(db, tenant, { from: '2026-10-01', to: '2026-10-31' }, new Date(), direct),
    );
    // The summary job's first round: every closed day of the year (at the end of the seeded year,
    // so its last 15 days stay open), then the rest once the year is long over.
    const yearEnd = new Date(`${YEAR.to}T23:59:59Z`);
    const summaryStart = performance.now();
    const summedAtEnd = await summariseRetention(db, TENANT, yearEnd);
    const summed = summedAtEnd + (await summariseRetention(db, TENANT, new Date()));
    const summing = performance.now() - summaryStart;
    const summarised = await median(5, () => retentionInsights(db, tenant, YEAR, new Date()));
    const openEnd = await median(5, () => retentionInsights(db, tenant, YEAR, yearEnd));
    const summarisedMonth = await median(5, () =>
      retentionInsights(db, tenant, { from: '2026-10-01', to: '2026-10-31' }, new Date()),
    );
    console.log(`   select count(*) of the tenant's events ${ms(baseline)}   1.00×`);
    console.log(`   insights of the year, direct       ${ms(year)}   ${ratio(year, baseline)}`);
    console.log(`   insights of one month, direct      ${ms(month)}   ${ratio(month, baseline)}`);
    console.log(
      `   the summary job's first round      ${ms(summing)}   ${ratio(summing, baseline)}   (${summed} days)`,
    );
    console.log(
      `   insights of the year, summarised   ${ms(summarised)}   ${ratio(summarised, baseline)}   (goal: at most 100 ms; ${ratio(year, summarised)} faster than direct)`,
    );
    console.log(
      `   the same, last 15 days open (live) ${ms(openEnd)}   ${ratio(openEnd, baseline)}   (now = the year's last day)`,
    );
    console.log(
      `   insights of one month, summarised  ${ms(summarisedMonth)}   ${ratio(summarisedMonth, baseline)}`,
    );
    // The same year without migration 022's indexes, in a transaction rolled back afterwards.
    const unindexed = await db
      .transaction(async (tx) => {
        await tx.query(`drop index account_events_insights`);
        await tx.query(`drop index account_events_flow_starts`);
        const time = await median(3, () => retentionInsights(tx, tenant, YEAR, new Date(), direct));
        throw Object.assign(new Error('rollback'), { time });
      })
      .catch((error: { time?: number }) => error.time ?? NaN);
    console.log(
      `   the year direct, without indexes   ${ms(unindexed)}   ${ratio(unindexed, baseline)}   (the indexes: ${ratio(unindexed, year)} faster)`,
    );
    // What migration 032's trigger costs a writer: a counted event written alone (as the flows
    // write them), with the trigger and without it, each in a transaction rolled back afterwards.
    const writes = async (withTrigger: boolean) =>
      db
        .transaction(async (tx) => {
          if (!withTrigger)
            await tx.query(`alter table account_events disable trigger account_events_retention_inserted`);
          const time = await median(3, async () => {
            for (let i = 0; i < 500; i++)
              await tx.query(
                `insert into account_events (tenant_id, id, type, user_id, subject_type, subject_id, data)
                 values ($1, gen_random_uuid(), 'offer_flow.started', 'u1', 'subscription', 'S1', '{"flow":"renewal"}')`,
                [TENANT],
              );
          });
          throw Object.assign(new Error('rollback'), { time: time / 500 });
        })
        .catch((error: { time?: number }) => error.time ?? NaN);
    const us = (value: number) => `${(value * 1000).toFixed(0)} µs`;
    const withTrigger = await writes(true);
    const withoutTrigger = await writes(false);
    console.log(
      `   writing a counted event          ${us(withTrigger)} with the summary's trigger, ${us(withoutTrigger)} without (${ratio(withTrigger, withoutTrigger)})`,
    );
  } finally {
    await db.query(`delete from account_events where tenant_id = $1`, [TENANT]).catch(() => undefined);
    await db
      .query(`delete from retention_summary_days where tenant_id = $1`, [TENANT])
      .catch(() => undefined);
    await db.close();
  }
}

// `npx tsx bench/insights.ts`: this section alone.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const work = mkdtempSync(path.join(tmpdir(), 'portal-bench-insights-'));
  try {
    await insightsSection(work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
