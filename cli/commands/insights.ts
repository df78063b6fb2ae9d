import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type {
  FlowInsights,
  RetentionInsights,
  SegmentFigures,
  VariantInsights,
  WeekFigures,
} from '../../schemas/generated/retention-insights';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function parseDay(value: string): string {
  if (!DAY.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)))
    throw new InvalidArgumentError('write a day as YYYY-MM-DD, e.g. 2026-11-01');
  return value;
}

const percent = (rate: number | null) => (rate === null ? '–' : `${(rate * 100).toFixed(1)} %`);
const money = (amount: number, currency: string | null) =>
  `${amount.toFixed(2)}${currency ? ` ${currency}` : ''}`;

/** Columns padded to their widest cell; numbers right-aligned. */
function table(head: string[], rows: Array<Array<string | number>>): string[] {
  const cells = [head, ...rows.map((row) => row.map(String))];
  const widths = head.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  const numeric = head.map((_, i) => rows.length > 0 && rows.every((row) => typeof row[i] === 'number'));
  return cells.map(
    (row) =>
      '  ' +
      row
        .map((cell, i) => (numeric[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
        .join('  ')
        .trimEnd(),
  );
}

const FLOW_NAMES: Record<FlowInsights['flow'], string> = {
  cancellation: 'Cancellations',
  renewal: 'Renewals offered',
  upgrade: 'Upgrades offered',
};

function summary(
  f: Pick<
    SegmentFigures,
    'started' | 'offersShown' | 'accepted' | 'cancelled' | 'kept' | 'saveRate' | 'revenueKept'
  >,
  currency: string | null,
  flow: FlowInsights['flow'],
) {
  const outcome = flow === 'cancellation' ? `, ${f.cancelled} cancelled, ${f.kept} kept` : `, ${f.kept} kept`;
  return `${f.started} flows started, offers shown in ${f.offersShown}, ${f.accepted} accepted and paid${outcome}; save rate ${percent(f.saveRate)}, revenue kept ${money(f.revenueKept, currency)}`;
}

function variantLine(v: VariantInsights): Array<string | number> {
  const interval = v.interval ? `${percent(v.interval.low)} – ${percent(v.interval.high)}` : '–';
  return [
    v.id,
    v.weight ?? '(removed)',
    v.offers.length ? v.offers.join(' ') : '(no offer)',
    v.started,
    v.kept,
    percent(v.saveRate),
    interval,
  ];
}

/** The text of `portal insights`: per flow its figures, per publication and reason, per week; then the experiments. */
export function formatInsights(insights: RetentionInsights): string {
  const lines = [
    `Retention insights of ${insights.tenant}, ${insights.from} to ${insights.to} (an outcome counts for the flow started up to ${insights.attributionDays} days before it)`,
  ];
  for (const flow of insights.flows) {
    lines.push('', `${FLOW_NAMES[flow.flow]}: ${summary(flow, insights.currency, flow.flow)}`);
    if (flow.started === 0) continue;
    const reasonColumn = flow.flow === 'cancellation';
    lines.push(
      ...table(
        [
          'publication',
          ...(reasonColumn ? ['reason'] : []),
          'started',
          'offers shown',
          'accepted',
          ...(reasonColumn ? ['cancelled'] : []),
          'kept',
          'save rate',
          'revenue kept',
        ],
        flow.segments.map((s) => [
          s.publication,
          ...(reasonColumn ? [s.reason] : []),
          s.started,
          s.offersShown,
          s.accepted,
          ...(reasonColumn ? [s.cancelled] : []),
          s.kept,
          percent(s.saveRate),
          money(s.revenueKept, insights.currency),
        ]),
      ),
    );
    lines.push(
      '',
      ...table(
        ['week', 'from', 'started', 'kept', 'save rate'],
        flow.weeks.map((w) => [w.week, w.weekStart, w.started, w.kept, percent(w.saveRate)]),
      ),
    );
  }
  lines.push('', insights.experiments.length ? 'Offer experiments:' : 'Offer experiments: none.');
  for (const experiment of insights.experiments) {
    const where = `${experiment.flow}${experiment.reason ? `, reason ${experiment.reason}` : ''}`;
    const verdict = experiment.significant
      ? 'the save rates differ significantly (5 %)'
      : 'the difference is not (yet) significant';
    lines.push(
      `  ${experiment.id} (${where}${experiment.inTenantFile ? '' : ', no longer in the tenant file'}): ${verdict}`,
    );
    lines.push(
      ...table(
        ['variant', 'weight', 'offers', 'started', 'kept', 'save rate', '95 % interval'],
        experiment.variants.map(variantLine),
      ).map((line) => `  ${line}`),
    );
    for (const c of experiment.comparisons)
      lines.push(
        `    ${c.variant} against ${c.control}: ${c.difference === null ? 'no flows yet' : `${c.difference >= 0 ? '+' : ''}${(c.difference * 100).toFixed(1)} points, p = ${c.pValue === null ? '–' : c.pValue.toFixed(3)}`}${c.significant ? ' (significant)' : ''}`,
      );
    const unknown = experiment.variants.flatMap((v) => v.unknownOffers.map((offer) => `${v.id}: ${offer}`));
    if (unknown.length) lines.push(`    offers the order system does not have: ${unknown.join(', ')}`);
    if (experiment.unknownReason)
      lines.push(`    the reason ${experiment.reason} is not among the order system's cancellation reasons`);
  }
  return lines.join('\n');
}

const CSV_HEAD = [
  'kind',
  'flow',
  'publication',
  'reason',
  'week',
  'weekStart',
  'experiment',
  'variant',
  'started',
  'offersShown',
  'accepted',
  'cancelled',
  'kept',
  'saveRate',
  'revenueKept',
  'currency',
  'intervalLow',
  'intervalHigh',
];

const csvCell = (value: string | number | null | undefined) => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** One CSV table (RFC 4180) of every figure, one row per flow, segment, week and variant: `kind` says which. */
export function insightsCsv(insights: RetentionInsights): string {
  const rows: Array<Array<string | number | null>> = [];
  const figures = (f: SegmentFigures | WeekFigures | FlowInsights | VariantInsights) => [
    f.started,
    f.offersShown,
    f.accepted,
    f.cancelled,
    f.kept,
    f.saveRate,
    f.revenueKept,
    insights.currency,
  ];
  for (const flow of insights.flows) {
    rows.push(['flow', flow.flow, null, null, null, null, null, null, ...figures(flow), null, null]);
    for (const s of flow.segments)
      rows.push([
        'segment',
        flow.flow,
        s.publication,
        s.reason,
        null,
        null,
        null,
        null,
        ...figures(s),
        null,
        null,
      ]);
    for (const w of flow.weeks)
      rows.push(['week', flow.flow, null, null, w.week, w.weekStart, null, null, ...figures(w), null, null]);
  }
  for (const e of insights.experiments)
    for (const v of e.variants)
      rows.push([
        'variant',
        e.flow,
        null,
        e.reason,
        null,
        null,
        e.id,
        v.id,
        ...figures(v),
        v.interval?.low ?? null,
        v.interval?.high ?? null,
      ]);
  return [CSV_HEAD, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n');
}

/** `portal insights <tenant> [--from] [--to] [--json | --csv]` (issue 27): the retention insights of one tenant. */
export function registerInsights(program: Command): void {
  program
    .command('insights')
    .description(
      'retention insights of a tenant: flows that showed offers (cancellation, renewal, upgrade), what they kept, per publication, reason and week, and the offer experiments (DATABASE_URL, or the embedded PostgreSQL under data/)',
    )
    .argument('<tenant>', 'tenant id (its file must pass `portal validate`)')
    .option('--from <day>', 'first day, YYYY-MM-DD (default: 89 days before --to)', parseDay)
    .option('--to <day>', 'last day, included, YYYY-MM-DD (default: today, UTC)', parseDay)
    .option('--json', 'print the insights as JSON (schemas/api/retention-insights.schema.json)', false)
    .option('--csv', 'print every figure as one CSV table', false)
    .action(
      async (tenantId: string, options: { from?: string; to?: string; json: boolean; csv: boolean }) => {
        if (options.json && options.csv) throw new Error('choose one of --json and --csv');
        const { loadValidTenants } = await import('./loadValidTenants');
        const [tenant] = await loadValidTenants([tenantId]);
        const { insightsPeriod, retentionInsights } = await import('../../server/insights/retentionInsights');
        const period = insightsPeriod(new Date(), options.from, options.to);
        if (period.from > period.to) throw new Error(`--from ${period.from} is after --to ${period.to}`);
        const { withDatabase } = await import('./db');
        await withDatabase(async (db) => {
          const insights = await retentionInsights(db, tenant, period);
          if (options.json) console.log(JSON.stringify(insights, null, 2));
          else if (options.csv) console.log(insightsCsv(insights));
          else console.log(formatInsights(insights));
        });
      },
    );
}
