/**
 * Retention insights (docs/operators.md "Retention insights"): for one tenant and period, the flows
 * that showed offers (cancellation, renewal, upgrade) and what came of them — per publication and
 * cancellation reason, per ISO week, and per offer experiment variant with its 95 % interval and
 * whether it differs from the control by more than chance. Counted in SQL
 * (server/store/insightsStore.ts): the days summed by the daily summary (migration 032,
 * server/insights/retentionSummary.ts) from it, the rest from the events; operators only: the
 * studio (loopback, development pages), `portal insights` and GET /operator/v1/insights read it,
 * no subscriber route does.
 */
import type { Queryable } from '../db/database';
import type {
  ExperimentInsights,
  FlowInsights,
  InsightNames,
  RetentionInsights,
  SegmentFigures,
  VariantComparison,
  VariantInsights,
  WeekFigures,
} from '../../schemas/generated/retention-insights';
import type { OfferExperiment } from '../../engine/domain/offerExperiments';
import { twoProportionTest, wilsonInterval } from '../../engine/domain/proportions';
import { utcDay } from '../../engine/domain/dates';
import {
  ATTRIBUTION_DAYS,
  directFlowCounts,
  flowCounts,
  offerTitles,
  reasonDescriptions,
  type FlowCountsRow,
  type InsightFlow,
} from '../store/insightsStore';

const FLOWS: readonly InsightFlow[] = ['cancellation', 'renewal', 'upgrade'];
const DAY_MS = 86_400_000;
/** The period when none is given: the last 12 full weeks and this one. */
export const DEFAULT_PERIOD_DAYS = 90;

type Figures = Pick<
  SegmentFigures,
  'started' | 'open' | 'offersShown' | 'accepted' | 'cancelled' | 'kept' | 'saveRate' | 'revenueKept'
>;

/**
 * A group's figures. What a flow kept is known once its window closed (server/store/insightsStore.ts):
 * the rate is of those flows only, so a flow started minutes ago is open, not "kept".
 */
function figures(row: FlowCountsRow | undefined): Figures {
  const started = row?.started ?? 0;
  const open = row?.open ?? 0;
  const kept = row?.kept ?? 0;
  const closed = started - open;
  return {
    started,
    open,
    offersShown: row?.offersShown ?? 0,
    accepted: row?.accepted ?? 0,
    cancelled: row?.cancelled ?? 0,
    kept,
    saveRate: closed > 0 ? kept / closed : null,
    revenueKept: row?.revenue ?? [],
  };
}

/** ISO 8601 week of a day: the year of its Thursday and the week number. */
export function isoWeek(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  const weekday = (date.getUTCDay() + 6) % 7;
  const thursday = new Date(date.getTime() + (3 - weekday) * DAY_MS);
  const yearStart = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  const week = Math.floor((thursday.getTime() - yearStart) / DAY_MS / 7) + 1;
  return `${thursday.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/** The Mondays of every ISO week that has a day in [from, to]. */
function mondaysOf(from: string, to: string): string[] {
  const start = new Date(`${from}T00:00:00Z`);
  let monday = start.getTime() - ((start.getUTCDay() + 6) % 7) * DAY_MS;
  const end = Date.parse(`${to}T00:00:00Z`);
  const mondays: string[] = [];
  for (; monday <= end; monday += 7 * DAY_MS) mondays.push(utcDay(new Date(monday)));
  return mondays;
}

export interface InsightsPeriod {
  /** First day, YYYY-MM-DD (UTC). */
  from: string;
  /** Last day, included. */
  to: string;
}

/**
 * The longest period one answer covers: 20 years, about 1,050 ISO weeks. The answer lists every
 * week of the period; a period over the whole range of days (1970 to 2999) would be megabytes of
 * empty weeks, built in memory, for one call.
 */
export const MAX_INSIGHTS_PERIOD_DAYS = 7_305;

/** A day the insights answer for: YYYY-MM-DD, from 1970 to 2999 (the operator API's schema). */
export function isInsightsDay(value: string): boolean {
  return /^(19[7-9]\d|2\d{3})-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
}

/**
 * What is wrong with a period, the same for the operator API, the studio and `portal insights`:
 * `after_to` when it ends before it starts, `too_long` past MAX_INSIGHTS_PERIOD_DAYS.
 */
export function insightsPeriodProblem(period: InsightsPeriod): 'after_to' | 'too_long' | null {
  if (period.from > period.to) return 'after_to';
  const days = (Date.parse(period.to) - Date.parse(period.from)) / DAY_MS + 1;
  return days > MAX_INSIGHTS_PERIOD_DAYS ? 'too_long' : null;
}

/** The period asked for, or the last DEFAULT_PERIOD_DAYS days up to today. */
export function insightsPeriod(now: Date, from?: string, to?: string): InsightsPeriod {
  const last = to ?? utcDay(now);
  const first =
    from ?? utcDay(new Date(Date.parse(`${last}T00:00:00Z`) - (DEFAULT_PERIOD_DAYS - 1) * DAY_MS));
  return { from: first, to: last };
}

/**
 * `now`: the moment the outcome windows are judged at (a flow started less than ATTRIBUTION_DAYS
 * before is open). `direct`: count every flow from the events, without the daily summary — the
 * same answer, slower; for the bench and the tests that hold the two against each other.
 */
export async function retentionInsights(
  db: Queryable,
  tenant: { id: string; offerExperiments?: readonly OfferExperiment[] },
  period: InsightsPeriod,
  now: Date,
  options: { direct?: boolean } = {},
): Promise<RetentionInsights> {
  const rows = await (options.direct ? directFlowCounts : flowCounts)(
    db,
    tenant.id,
    {
      from: `${period.from}T00:00:00Z`,
      to: new Date(Date.parse(`${period.to}T00:00:00Z`) + DAY_MS).toISOString(),
    },
    now,
  );
  const mondays = mondaysOf(period.from, period.to);
  const flows: FlowInsights[] = FLOWS.map((flow) => {
    const ofFlow = rows.filter((row) => row.flow === flow);
    const segments: SegmentFigures[] = ofFlow
      .filter((row) => row.grouping === 'segment')
      .map((row) => ({
        publication: row.publication ?? '',
        reason: row.reason ?? '',
        ...figures(row),
      }));
    const byWeek = new Map(ofFlow.filter((row) => row.grouping === 'week').map((row) => [row.week, row]));
    const weeks: WeekFigures[] = mondays.map((monday) => ({
      week: isoWeek(monday),
      weekStart: monday,
      ...figures(byWeek.get(monday)),
    }));
    return {
      flow,
      ...figures(ofFlow.find((row) => row.grouping === 'total')),
      segments,
      weeks,
    };
  });
  const names = await insightNames(db, tenant);
  return {
    tenant: tenant.id,
    from: period.from,
    to: period.to,
    asOf: now.toISOString(),
    attributionDays: ATTRIBUTION_DAYS,
    flows,
    experiments: experimentInsights(tenant, rows, names),
    names,
  };
}

/**
 * The order system's words for the codes the figures name: every cancellation reason of the
 * tenant's publications, and the offers its experiments name (studio/insightWords.ts picks
 * the reader's language).
 */
async function insightNames(
  db: Queryable,
  tenant: { id: string; offerExperiments?: readonly OfferExperiment[] },
): Promise<InsightNames> {
  const offerIds = [
    ...new Set((tenant.offerExperiments ?? []).flatMap((e) => e.variants.flatMap((v) => v.offers))),
  ];
  const [reasons, offers] = await Promise.all([
    reasonDescriptions(db, tenant.id),
    offerTitles(db, tenant.id, offerIds),
  ]);
  return { reasons, offers };
}

/**
 * The experiments of the tenant file, and those that only the period's events still name (ended
 * or renamed ones), each variant's save rate with Wilson's interval, and each variant against the
 * first one (the control).
 */
function experimentInsights(
  tenant: { id: string; offerExperiments?: readonly OfferExperiment[] },
  rows: readonly FlowCountsRow[],
  names: InsightNames,
): ExperimentInsights[] {
  const variantRows = rows.filter((row) => row.grouping === 'variant' && row.experiment !== null);
  const defined = tenant.offerExperiments ?? [];
  const fromEvents = [...new Set(variantRows.map((row) => `${row.flow}\u0000${row.experiment}`))]
    .map((key) => key.split('\u0000') as [InsightFlow, string])
    .filter(([flow, id]) => !defined.some((e) => e.id === id && e.flow === flow));
  const known = new Set(Object.keys(names.offers));
  const reasons = new Set(Object.values(names.reasons).flatMap((byCode) => Object.keys(byCode ?? {})));

  const build = (
    flow: InsightFlow,
    id: string,
    reason: string | null,
    inTenantFile: boolean,
    declared: OfferExperiment['variants'],
  ): ExperimentInsights => {
    const counted = variantRows.filter((row) => row.flow === flow && row.experiment === id);
    const variantIds = [
      ...declared.map((v) => v.id),
      ...counted.map((row) => row.variant ?? '').filter((v) => !declared.some((d) => d.id === v)),
    ];
    const variants: VariantInsights[] = variantIds.map((variantId) => {
      const declaredVariant = declared.find((v) => v.id === variantId);
      const f = figures(counted.find((row) => row.variant === variantId));
      return {
        id: variantId,
        weight: declaredVariant?.weight ?? null,
        offers: [...(declaredVariant?.offers ?? [])],
        unknownOffers: (declaredVariant?.offers ?? []).filter((offer) => !known.has(offer)),
        ...f,
        interval: wilsonInterval(f.kept, f.started),
      };
    });
    const control = variants[0];
    const comparisons: VariantComparison[] = control
      ? variants.slice(1).map((variant) => {
          const test = twoProportionTest(
            { successes: variant.kept, n: variant.started },
            { successes: control.kept, n: control.started },
          );
          return {
            variant: variant.id,
            control: control.id,
            difference:
              variant.saveRate !== null && control.saveRate !== null
                ? variant.saveRate - control.saveRate
                : null,
            z: test?.z ?? null,
            pValue: test?.pValue ?? null,
            significant: test?.significant ?? false,
          };
        })
      : [];
    return {
      id,
      flow,
      reason,
      inTenantFile,
      unknownReason: reason !== null && !reasons.has(reason),
      variants,
      comparisons,
      significant: comparisons.some((c) => c.significant),
    };
  };

  return [
    ...defined.map((e) => build(e.flow, e.id, e.reason ?? null, true, e.variants)),
    ...fromEvents.map(([flow, id]) => build(flow, id, null, false, [])),
  ];
}
