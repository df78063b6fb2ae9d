/**
 * The studio's insights page (docs/operators.md "Retention insights"): for a tenant and period,
 * what the flows that show offers kept — per flow, per publication and cancellation reason, per ISO
 * week (charts and their table) — and each offer experiment's variants with their 95 % intervals
 * and whether they differ yet. It reads `/studio/api/insights` (this server's database; operators
 * only, loopback). Experiments are edited in the editor's form (Flows → offerExperiments), which
 * the tenant schema generates.
 *
 * docs/operators.md "Retention insights": flows whose outcome window is still open are shown as open and in
 * no rate; reasons and offers by the order system's words in the page's language; money with its
 * currency; counts and rates each on their own chart and axis.
 */
import { useEffect, useMemo, useState } from 'react';
import type {
  ExperimentInsights,
  FlowInsights,
  InsightNames,
  RetentionInsights,
  SegmentFigures,
} from '../schemas/generated/retention-insights';
import { studioApi } from './studioApi';
import { formatMoney, formatRate, offerName, reasonName } from './insightWords';
import { insightsText, type InsightsTextKey } from './insightsTexts';
import { studioLang } from './texts';
import { TrendChart, type TrendSeries } from './TrendChart';

const lang = studioLang(window.location.search);
const t = (key: InsightsTextKey, values?: Record<string, string | number>) => insightsText(lang, key, values);
const numberFormat = new Intl.NumberFormat(lang, { maximumFractionDigits: 1, minimumFractionDigits: 1 });
const percent = (rate: number | null | undefined) => formatRate(rate, lang);
const day = (date: Date) => date.toISOString().slice(0, 10);
const weeksAgo = (weeks: number) => day(new Date(Date.now() - (weeks * 7 - 1) * 86_400_000));

const FLOW_COLOURS: Record<FlowInsights['flow'], string> = {
  cancellation: '#1f4fbf',
  renewal: '#1d6b2e',
  upgrade: '#8a5300',
};

function query(name: string): string | undefined {
  return new URLSearchParams(window.location.search).get(name) ?? undefined;
}

export function InsightsPage() {
  const [tenants, setTenants] = useState<Array<{ id: string; name?: string }>>([]);
  const [tenant, setTenant] = useState(query('tenant') ?? '');
  const [from, setFrom] = useState(query('from') ?? weeksAgo(12));
  const [to, setTo] = useState(query('to') ?? day(new Date()));
  const [insights, setInsights] = useState<RetentionInsights>();
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    void studioApi.tenants().then((list) => {
      const ids = [...new Map([...list.served, ...list.files].map((x) => [x.id, x])).values()];
      setTenants(ids);
      setTenant((current) => current || ids[0]?.id || '');
    });
  }, []);

  async function load(id = tenant, first = from, last = to) {
    if (!id) return;
    setLoading(true);
    setError(undefined);
    try {
      setInsights(await studioApi.insights(id, first, last));
      const search = new URLSearchParams(window.location.search);
      search.set('view', 'insights');
      search.set('tenant', id);
      search.set('from', first);
      search.set('to', last);
      window.history.replaceState(null, '', `?${search.toString()}`);
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setLoading(false);
    }
  }

  useEffect(() => {
    if (tenant) void load(tenant);
    // Loads on the first tenant known; later loads are the form's.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the tenant is first known
  }, [tenant === '']);

  const backHref = `/studio/?${new URLSearchParams({ lang, ...(tenant ? { tenant } : {}) }).toString()}`;

  return (
    <div className="studio insights">
      <header className="studio-bar">
        <h1>{t('title')}</h1>
        <a href={backHref}>{t('back')}</a>
      </header>
      <main className="insights-main">
        <form
          className="insights-period"
          onSubmit={(event) => {
            event.preventDefault();
            void load();
          }}
        >
          <label>
            {t('tenant')}{' '}
            <select value={tenant} onChange={(event) => setTenant(event.target.value)}>
              {tenants.map((x) => (
                <option key={x.id} value={x.id}>
                  {x.id}
                  {x.name ? ` — ${x.name}` : ''}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('from')} <input type="date" value={from} onChange={(event) => setFrom(event.target.value)} />
          </label>
          <label>
            {t('to')} <input type="date" value={to} onChange={(event) => setTo(event.target.value)} />
          </label>
          <button type="submit" className="studio-primary">
            {t('show')}
          </button>
          {[4, 12, 52].map((weeks) => (
            <button
              key={weeks}
              type="button"
              onClick={() => {
                const first = weeksAgo(weeks);
                const last = day(new Date());
                setFrom(first);
                setTo(last);
                void load(tenant, first, last);
              }}
            >
              {t('lastWeeks', { n: weeks })}
            </button>
          ))}
        </form>
        {error && (
          <p className="studio-message" role="alert">
            {error}
          </p>
        )}
        {loading && !insights && <p role="status">{t('loading')}</p>}
        {insights && <InsightsView insights={insights} />}
      </main>
    </div>
  );
}

function InsightsView({ insights }: { insights: RetentionInsights }) {
  const cancellation = insights.flows.find((f) => f.flow === 'cancellation')!;
  const counts = useMemo<TrendSeries[]>(
    () =>
      insights.flows.map((flow) => ({
        label: t(`flow_${flow.flow}`),
        values: flow.weeks.map((w) => w.started),
        color: FLOW_COLOURS[flow.flow],
      })),
    [insights],
  );
  const rates = useMemo<TrendSeries[]>(
    () =>
      insights.flows.map((flow) => ({
        label: t(`flow_${flow.flow}`),
        values: flow.weeks.map((w) => (w.saveRate === null ? null : w.saveRate * 100)),
        color: FLOW_COLOURS[flow.flow],
      })),
    [insights],
  );
  const weeks = useMemo(() => cancellation.weeks.map((w) => w.weekStart), [cancellation]);
  return (
    <>
      <p className="insights-period-note">
        {t('period', { from: insights.from, to: insights.to, days: insights.attributionDays })}
      </p>
      <p className="insights-muted">{t('openNote', { days: insights.attributionDays })}</p>
      <section className="insights-cards" aria-label={t('title')}>
        {insights.flows.map((flow) => (
          <article key={flow.flow} className="insights-card" data-testid={`flow-${flow.flow}`}>
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
        ))}
      </section>
      <p className="insights-muted">{t('moneyNote')}</p>

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
        <details>
          <summary>{t('week')}</summary>
          <table className="insights-table">
            <thead>
              <tr>
                <th scope="col">{t('week')}</th>
                {insights.flows.map((flow) => (
                  <th key={flow.flow} scope="col">
                    {t(`flow_${flow.flow}`)}: {t('started')} ({t('openFlows')})
                  </th>
                ))}
                {insights.flows.map((flow) => (
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
                  {insights.flows.map((flow) => (
                    <td key={flow.flow}>
                      {flow.weeks[i]?.started ?? 0} ({flow.weeks[i]?.open ?? 0})
                    </td>
                  ))}
                  {insights.flows.map((flow) => (
                    <td key={flow.flow}>{percent(flow.weeks[i]?.saveRate)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </section>

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
            <tr key={v.id}>
              <th scope="row">{v.id}</th>
              <td>{v.weight ?? '–'}</td>
              <td className="insights-words">
                {v.offers.length
                  ? v.offers.map((offer) => offerName(names, offer, lang)).join(', ')
                  : t('noOffer')}
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
