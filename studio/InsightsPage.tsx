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
 * currency; counts and rates each on their own chart and axis. This file holds the page, its state
 * (useInsights) and the period form; the figures' panels are InsightsPanels'.
 */
import { useEffect, useState } from 'react';
import type { RetentionInsights } from '../schemas/generated/retention-insights';
import { studioApi } from './studioApi';
import { insightsWords as t, lang } from './pageLang';
import { InsightsView } from './InsightsPanels';

const day = (date: Date) => date.toISOString().slice(0, 10);
const weeksAgo = (weeks: number) => day(new Date(Date.now() - (weeks * 7 - 1) * 86_400_000));

function query(name: string): string | undefined {
  return new URLSearchParams(window.location.search).get(name) ?? undefined;
}

/** The tenants to choose from, the period, and the insights loaded for them (kept in the URL). */
function useInsights() {
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

  /** The last few weeks up to today, shown at once. */
  function lastWeeks(weeks: number) {
    const first = weeksAgo(weeks);
    const last = day(new Date());
    setFrom(first);
    setTo(last);
    void load(tenant, first, last);
  }

  return { tenants, tenant, setTenant, from, setFrom, to, setTo, insights, error, loading, load, lastWeeks };
}

type Insights = ReturnType<typeof useInsights>;

export function InsightsPage() {
  const state = useInsights();
  const { tenant, insights, error, loading } = state;
  const backHref = `/studio/?${new URLSearchParams({ lang, ...(tenant ? { tenant } : {}) }).toString()}`;

  return (
    <div className="studio insights">
      <header className="studio-bar">
        <h1>{t('title')}</h1>
        <a href={backHref}>{t('back')}</a>
      </header>
      <main className="insights-main">
        <p className="field-description">{t('source')}</p>
        <PeriodForm state={state} />
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

/** The tenant and the period: dates of one's own, or the last 4, 12 or 52 weeks. */
function PeriodForm({ state }: { state: Insights }) {
  const { tenants, tenant, setTenant, from, setFrom, to, setTo, load, lastWeeks } = state;
  return (
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
        <button key={weeks} type="button" onClick={() => lastWeeks(weeks)}>
          {t('lastWeeks', { n: weeks })}
        </button>
      ))}
    </form>
  );
}
