import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type {
  FlowInsights,
  RetentionInsights,
  SegmentFigures,
  VariantInsights,
  WeekFigures,
} from '../../schemas/generated/retention-insights';
import { formatMoney, formatRate, offerName, reasonName } from '../../studio/insightWords';
import { isInsightsDay } from '../../server/insights/retentionInsights';

function parseDay(value: string): string {
  if (!isInsightsDay(value))
    throw new InvalidArgumentError('write a day from 1970 to 2999 as YYYY-MM-DD, e.g. 2026-11-01');
  return value;
}

/** The languages the names and number formats come in (the order system's words, studio/insightWords.ts). */
const LANGS = ['en-GB', 'de-DE'] as const;
type Lang = (typeof LANGS)[number];

function parseLang(value: string): Lang {
  const lang = LANGS.find(
    (l) => l.toLowerCase() === value.toLowerCase() || l.slice(0, 2) === value.toLowerCase(),
  );
  if (!lang) throw new InvalidArgumentError(`one of ${LANGS.join(', ')}`);
  return lang;
}

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
    'started' | 'open' | 'offersShown' | 'accepted' | 'cancelled' | 'kept' | 'saveRate' | 'revenueKept'
  >,
  flow: FlowInsights['flow'],
  lang: Lang,
) {
  const outcome = flow === 'cancellation' ? `, ${f.cancelled} cancelled` : '';
  const closed = f.started - f.open;
  return `${f.started} flows started (${f.open} still open), offers shown in ${f.offersShown}, ${f.accepted} accepted and paid${outcome}; of the ${closed} closed ${f.kept} kept, save rate ${formatRate(f.saveRate, lang)}; revenue kept ${formatMoney(f.revenueKept, lang)}`;
}

function variantLine(v: VariantInsights, insights: RetentionInsights, lang: Lang): Array<string | number> {
  const interval = v.interval
    ? `${formatRate(v.interval.low, lang)} – ${formatRate(v.interval.high, lang)}`
    : '–';
  return [
    v.id,
    v.weight ?? '(removed)',
    v.offers.length ? v.offers.map((id) => offerName(insights.names, id, lang)).join(', ') : '(no offer)',
    v.started,
    v.open,
    v.kept,
    formatRate(v.saveRate, lang),
    interval,
  ];
}

/**
 * The text of `portal insights`: per flow its figures, per publication and reason, per week; then
 * the experiments. Reasons and offers by the order system's words in `lang`, rates and money
 * formatted for it (the labels are the CLI's English).
 */
export function formatInsights(insights: RetentionInsights, lang: Lang = 'en-GB'): string {
  const lines = [
    `Retention insights of ${insights.tenant}, ${insights.from} to ${insights.to} (an outcome counts for the flow started up to ${insights.attributionDays} days before it; a flow is open until then, and only closed flows are kept or in a save rate)`,
  ];
  for (const flow of insights.flows) {
    lines.push('', `${FLOW_NAMES[flow.flow]}: ${summary(flow, flow.flow, lang)}`);
    if (flow.started === 0) continue;
    const reasonColumn = flow.flow === 'cancellation';
    lines.push(
      ...table(
        [
          'publication',
          ...(reasonColumn ? ['reason'] : []),
          'started',
          'open',
          'offers shown',
          'accepted',
          ...(reasonColumn ? ['cancelled'] : []),
          'kept',
          'save rate',
          'revenue kept',
        ],
        flow.segments.map((s) => [
          s.publication,
          ...(reasonColumn ? [reasonName(insights.names, s.reason, lang, s.publication)] : []),
          s.started,
          s.open,
          s.offersShown,
          s.accepted,
          ...(reasonColumn ? [s.cancelled] : []),
          s.kept,
          formatRate(s.saveRate, lang),
          formatMoney(s.revenueKept, lang),
        ]),
      ),
    );
    lines.push(
      '',
      ...table(
        ['week', 'from', 'started', 'open', 'kept', 'save rate'],
        flow.weeks.map((w) => [w.week, w.weekStart, w.started, w.open, w.kept, formatRate(w.saveRate, lang)]),
      ),
    );
  }
  lines.push('', insights.experiments.length ? 'Offer experiments:' : 'Offer experiments: none.');
  for (const experiment of insights.experiments) {
    const where = `${experiment.flow}${experiment.reason ? `, reason ${reasonName(insights.names, experiment.reason, lang)}` : ''}`;
    const verdict = experiment.significant
      ? 'the save rates differ significantly (5 %)'
      : 'the difference is not (yet) significant';
    lines.push(
      `  ${experiment.id} (${where}${experiment.inTenantFile ? '' : ', no longer in the tenant file'}): ${verdict}`,
    );
    lines.push(
      ...table(
        ['variant', 'weight', 'offers', 'started', 'open', 'kept', 'save rate', '95 % interval'],
        experiment.variants.map((v) => variantLine(v, insights, lang)),
      ).map((line) => `  ${line}`),
    );
    for (const c of experiment.comparisons)
      lines.push(
        `    ${c.variant} against ${c.control}: ${c.difference === null ? 'no closed flows yet' : `${c.difference >= 0 ? '+' : ''}${(c.difference * 100).toFixed(1)} points, p = ${c.pValue === null ? '–' : c.pValue.toFixed(3)}`}${c.significant ? ' (significant)' : ''}`,
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
  'reasonName',
  'week',
  'weekStart',
  'experiment',
  'variant',
  'started',
  'open',
  'offersShown',
  'accepted',
  'cancelled',
  'kept',
  'saveRate',
];

const csvCell = (value: string | number | null | undefined) => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/**
 * One CSV table (RFC 4180) of every figure, one row per flow, segment, week and variant: `kind`
 * says which. Revenue has a column per currency of the period (`revenueKept:EUR`), reasons their
 * code and their name in `lang`.
 */
export function insightsCsv(insights: RetentionInsights, lang: Lang = 'en-GB'): string {
  type Figured = SegmentFigures | WeekFigures | FlowInsights | VariantInsights;
  const all: Figured[] = [
    ...insights.flows.flatMap((f) => [f, ...f.segments, ...f.weeks]),
    ...insights.experiments.flatMap((e) => e.variants),
  ];
  const currencies = [...new Set(all.flatMap((f) => f.revenueKept.map((m) => m.currency)))].sort();
  const rows: Array<Array<string | number | null>> = [];
  const figures = (f: Figured) => [
    f.started,
    f.open,
    f.offersShown,
    f.accepted,
    f.cancelled,
    f.kept,
    f.saveRate,
    ...currencies.map((c) => f.revenueKept.find((m) => m.currency === c)?.amount ?? 0),
  ];
  const reason = (code: string | null, publication?: string) =>
    code ? [code, reasonName(insights.names, code, lang, publication)] : [code, null];
  for (const flow of insights.flows) {
    rows.push(['flow', flow.flow, null, null, null, null, null, null, null, ...figures(flow), null, null]);
    for (const s of flow.segments)
      rows.push([
        'segment',
        flow.flow,
        s.publication,
        ...reason(s.reason, s.publication),
        null,
        null,
        null,
        null,
        ...figures(s),
        null,
        null,
      ]);
    for (const w of flow.weeks)
      rows.push([
        'week',
        flow.flow,
        null,
        null,
        null,
        w.week,
        w.weekStart,
        null,
        null,
        ...figures(w),
        null,
        null,
      ]);
  }
  for (const e of insights.experiments)
    for (const v of e.variants)
      rows.push([
        'variant',
        e.flow,
        null,
        ...reason(e.reason),
        null,
        null,
        e.id,
        v.id,
        ...figures(v),
        v.interval?.low ?? null,
        v.interval?.high ?? null,
      ]);
  const head = [...CSV_HEAD, ...currencies.map((c) => `revenueKept:${c}`), 'intervalLow', 'intervalHigh'];
  return [head, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n');
}

/** `portal insights <tenant> [--from] [--to] [--json | --csv]`: the retention insights of one tenant. */
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
    .option(
      '--lang <locale>',
      "language of the reasons' and offers' names and of the number formats: en-GB or de-DE",
      parseLang,
      'en-GB' as Lang,
    )
    .action(
      async (
        tenantId: string,
        options: { from?: string; to?: string; json: boolean; csv: boolean; lang: Lang },
      ) => {
        if (options.json && options.csv) throw new Error('choose one of --json and --csv');
        const { loadValidTenants } = await import('./loadValidTenants');
        const [tenant] = await loadValidTenants([tenantId]);
        const { insightsPeriod, insightsPeriodProblem, retentionInsights, MAX_INSIGHTS_PERIOD_DAYS } =
          await import('../../server/insights/retentionInsights');
        const period = insightsPeriod(new Date(), options.from, options.to);
        const problem = insightsPeriodProblem(period);
        if (problem === 'after_to') throw new Error(`--from ${period.from} is after --to ${period.to}`);
        if (problem === 'too_long')
          throw new Error(
            `--from ${period.from} to --to ${period.to} is longer than 20 years (${MAX_INSIGHTS_PERIOD_DAYS} days): ask for a shorter period`,
          );
        const { withDatabase } = await import('./db');
        await withDatabase(async (db) => {
          const insights = await retentionInsights(db, tenant, period, new Date());
          if (options.json) console.log(JSON.stringify(insights, null, 2));
          else if (options.csv) console.log(insightsCsv(insights, options.lang));
          else console.log(formatInsights(insights, options.lang));
        });
      },
    );
}
