/**
 * The insights page's panels (docs/operators.md "Retention insights"): a card per flow, the weekly
 * trend (counts and rates each on their own chart, and the table beneath), the figures per
 * publication and reason, and each offer experiment with its variants' intervals.
 */
import { useMemo } from 'react';
import type {
  ExperimentInsights,
  FlowInsights,
  InsightNames,
  RetentionInsights,
  SegmentFigures,
} from '../schemas/generated/retention-insights';
import { formatMoney, offerName, reasonName } from './insightWords';
import { insightsWords as t, lang, percent } from './pageLang';
import { TrendChart, type TrendSeries } from './TrendChart';

const numberFormat = new Intl.NumberFormat(lang, { maximumFractionDigits: 1, minimumFractionDigits: 1 });

const FLOW_COLOURS: Record<FlowInsights['flow'], string> = {
  cancellation: '#1f4fbf',
  renewal: '#1d6b2e',
  upgrade: '#8a5300',
};

type Variant = ExperimentInsights['variants'][number];

export function InsightsView({ insights }: { insights: RetentionInsights }) {
  return (
    <>
      <p className="insights-period-note">
        {t('period', { from: insights.from, to: insights.to, days: insights.attributionDays })}
      </p>
      <p className="insights-muted">{t('openNote', { days: insights.attributionDays })}</p>
      <section className="insights-cards" aria-label={t('title')}>
        {insights.flows.map((flow) => (
          <FlowCard key={flow.flow} flow={flow} />
        ))}
      </section>
      <p className="insights-muted">{t('moneyNote')}</p>

      <TrendSection flows={insights.flows} />

      {insights.flows.map((flow) => (
        <SegmentTable key={flow.flow} flow={flow} names={insights.names} />
      ))}

      <section aria-labelledby="insights-experiments">
        <h2 id="insights-experiments">{t('experiments')}</h2>
        {insights.experiments.length === 0 && <p>{t('noExperiments')}</p>}
        {insights.experiments.map((experiment) => (
          <ExperimentView
            key={`${experiment.flow}-${experiment.id}`}
            experiment={experiment}
            names={insights.names}
          />
        ))}
      </section>
    </>
  );
}

/** A flow's save rate over its closed flows, and its counts. */
function FlowCard({ flow }: { flow: FlowInsights }) {
  return (
    <article className="insights-card" data-testid={`flow-${flow.flow}`}>
      <h2>{t(`flow_${flow.flow}`)}</h2>
      <p className="insights-rate">{percent(flow.saveRate)}</p>
      <p className="insights-muted" data-testid={`closed-${flow.flow}`}>
        {t('ofClosed', { n: flow.started - flow.open, open: flow.open })}
      </p>
      <dl>
        <dt>{t('started')}</dt>
        <dd>{flow.started}</dd>
        <dt>{t('openFlows')}</dt>
        <dd data-testid={`open-${flow.flow}`}>{flow.open}</dd>
        <dt>{t('offersShown')}</dt>
        <dd>{flow.offersShown}</dd>
        <dt>{t('accepted')}</dt>
        <dd>{flow.accepted}</dd>
        {flow.flow === 'cancellation' && (
          <>
            <dt>{t('cancelled')}</dt>
            <dd>{flow.cancelled}</dd>
          </>
        )}
        <dt>{t('kept')}</dt>
        <dd>{flow.kept}</dd>
        <dt>{t('revenueKept')}</dt>
        <dd data-testid={`revenue-${flow.flow}`}>{formatMoney(flow.revenueKept, lang)}</dd>
      </dl>
    </article>
  );
}

/** The weeks' flows started and save rates, each on its own chart, and the table of both. */
function TrendSection({ flows }: { flows: FlowInsights[] }) {
  const cancellation = flows.find((f) => f.flow === 'cancellation')!;
  const counts = useMemo<TrendSeries[]>(
    () =>
      flows.map((flow) => ({
        label: t(`flow_${flow.flow}`),
        values: flow.weeks.map((w) => w.started),
        color: FLOW_COLOURS[flow.flow],
      })),
    [flows],
  );
  const rates = useMemo<TrendSeries[]>(
    () =>
      flows.map((flow) => ({
        label: t(`flow_${flow.flow}`),
        values: flow.weeks.map((w) => (w.saveRate === null ? null : w.saveRate * 100)),
        color: FLOW_COLOURS[flow.flow],
      })),
    [flows],
  );
  const weeks = useMemo(() => cancellation.weeks.map((w) => w.weekStart), [cancellation]);
  return (
    <section aria-labelledby="insights-trend">
      <h2 id="insights-trend">{t('trend')}</h2>
      <h3>{t('trendCounts')}</h3>
      <TrendChart
        weeks={weeks}
        series={counts}
        label={t('trendCountsLabel')}
        axisLabel={t('countAxis')}
        unit="count"
        locale={lang}
        testId="trend-counts"
      />
      <h3>{t('trendRates')}</h3>
      <TrendChart
        weeks={weeks}
        series={rates}
        label={t('trendRatesLabel')}
        axisLabel={t('rateAxis')}
        unit="percent"
        locale={lang}
        testId="trend-rates"
      />
      <WeeksTable flows={flows} cancellation={cancellation} />
    </section>
  );
}

/** The charts' figures as a table, a row per week (the cancellation flow's weeks). */
function WeeksTable({ flows, cancellation }: { flows: FlowInsights[]; cancellation: FlowInsights }) {
  return (
    <details>
      <summary>{t('week')}</summary>
      <table className="insights-table">
        <thead>
          <tr>
            <th scope="col">{t('week')}</th>
            {flows.map((flow) => (
              <th key={flow.flow} scope="col">
                {t(`flow_${flow.flow}`)}: {t('started')} ({t('openFlows')})
              </th>
            ))}
            {flows.map((flow) => (
              <th key={flow.flow} scope="col">
                {t(`flow_${flow.flow}`)}: {t('saveRate')}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {cancellation.weeks.map((week, i) => (
            <tr key={week.week}>
              <th scope="row">{week.week}</th>
              {flows.map((flow) => (
                <td key={flow.flow}>
                  {flow.weeks[i]?.started ?? 0} ({flow.weeks[i]?.open ?? 0})
                </td>
              ))}
              {flows.map((flow) => (
                <td key={flow.flow}>{percent(flow.weeks[i]?.saveRate)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

function SegmentTable({ flow, names }: { flow: FlowInsights; names: InsightNames }) {
  const withReason = flow.flow === 'cancellation';
  const id = `insights-${flow.flow}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{t(`flow_${flow.flow}`)}</h2>
      {flow.segments.length === 0 ? (
        <p>{t('noFlows')}</p>
      ) : (
        <table className="insights-table" data-testid={`segments-${flow.flow}`}>
          <thead>
            <tr>
              <th scope="col">{t('publication')}</th>
              {withReason && <th scope="col">{t('reason')}</th>}
              <th scope="col">{t('started')}</th>
              <th scope="col">{t('openFlows')}</th>
              <th scope="col">{t('offersShown')}</th>
              <th scope="col">{t('accepted')}</th>
              {withReason && <th scope="col">{t('cancelled')}</th>}
              <th scope="col">{t('kept')}</th>
              <th scope="col">{t('saveRate')}</th>
              <th scope="col">{t('revenueKept')}</th>
            </tr>
          </thead>
          <tbody>
            {flow.segments.map((s: SegmentFigures) => (
              <tr key={`${s.publication}-${s.reason}`} data-reason={s.reason}>
                <th scope="row">{s.publication}</th>
                {withReason && (
                  <td className="insights-words" title={s.reason}>
                    {reasonName(names, s.reason, lang, s.publication)}
                  </td>
                )}
                <td>{s.started}</td>
                <td>{s.open}</td>
                <td>{s.offersShown}</td>
                <td>{s.accepted}</td>
                {withReason && <td>{s.cancelled}</td>}
                <td>{s.kept}</td>
                <td>{percent(s.saveRate)}</td>
                <td>{formatMoney(s.revenueKept, lang)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function ExperimentView({ experiment, names }: { experiment: ExperimentInsights; names: InsightNames }) {
  const reason = experiment.reason === null ? t('allReasons') : reasonName(names, experiment.reason, lang);
  const where = `${t(`flow_${experiment.flow}`)} · ${reason}`;
  const unknown = experiment.variants.flatMap((v) => v.unknownOffers);
  return (
    <article className="insights-experiment" data-testid={`experiment-${experiment.id}`}>
      <h3>
        {experiment.id} <span className="insights-muted">({where})</span>
        {!experiment.inTenantFile && <span className="insights-muted"> — {t('removed')}</span>}
      </h3>
      <table className="insights-table">
        <thead>
          <tr>
            <th scope="col">{t('variant')}</th>
            <th scope="col">{t('weight')}</th>
            <th scope="col">{t('offers')}</th>
            <th scope="col">{t('started')}</th>
            <th scope="col">{t('openFlows')}</th>
            <th scope="col">{t('kept')}</th>
            <th scope="col">{t('saveRate')}</th>
            <th scope="col">{t('interval')}</th>
          </tr>
        </thead>
        <tbody>
          {experiment.variants.map((v) => (
            <VariantRow key={v.id} variant={v} names={names} />
          ))}
        </tbody>
      </table>
      <p className={experiment.significant ? 'insights-verdict significant' : 'insights-verdict'}>
        {experiment.significant ? t('significant') : t('notSignificant')}
      </p>
      <ul className="insights-comparisons">
        {experiment.comparisons
          .filter((c) => c.difference !== null)
          .map((c) => (
            <li key={c.variant}>
              {t('against', {
                variant: c.variant,
                control: c.control,
                difference: `${c.difference! >= 0 ? '+' : ''}${numberFormat.format(c.difference! * 100)}`,
                p: c.pValue === null ? '–' : c.pValue.toFixed(3),
              })}
            </li>
          ))}
      </ul>
      {unknown.length > 0 && (
        <p className="insights-warning">{t('unknownOffers', { offers: unknown.join(', ') })}</p>
      )}
      {experiment.unknownReason && (
        <p className="insights-warning">{t('unknownReason', { reason: experiment.reason ?? '' })}</p>
      )}
    </article>
  );
}

/** A variant's offers and figures, with its 95 % interval as a bar and in words. */
function VariantRow({ variant: v, names }: { variant: Variant; names: InsightNames }) {
  return (
    <tr>
      <th scope="row">{v.id}</th>
      <td>{v.weight ?? '–'}</td>
      <td className="insights-words">
        {v.offers.length ? v.offers.map((offer) => offerName(names, offer, lang)).join(', ') : t('noOffer')}
      </td>
      <td>{v.started}</td>
      <td>{v.open}</td>
      <td>{v.kept}</td>
      <td>{percent(v.saveRate)}</td>
      <td>
        {v.interval ? (
          <span className="insights-interval">
            <span
              className="insights-interval-bar"
              aria-hidden="true"
              style={{
                marginLeft: `${v.interval.low * 100}%`,
                width: `${Math.max(1, (v.interval.high - v.interval.low) * 100)}%`,
              }}
            />
            {percent(v.interval.low)} – {percent(v.interval.high)}
          </span>
        ) : (
          '–'
        )}
      </td>
    </tr>
  );
}
