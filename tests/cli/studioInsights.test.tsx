// @vitest-environment jsdom
/**
 * The studio's insights page (docs/operators.md "Retention insights") on a period with open and closed flows,
 * in English and German: the rate is of the flows whose outcome is known and the open ones are
 * counted apart, reasons and offers by the order system's words (the code only without one),
 * money with its currency and per currency, and counts and rates each on their own chart and axis.
 * uPlot draws on a canvas jsdom has not; its options are what is checked.
 */
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RetentionInsights, WeekFigures } from '../../schemas/generated/retention-insights';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

interface ChartOptions {
  scales: { y: { range: unknown } };
  axes: Array<{ label?: string; values?: (chart: unknown, ticks: number[]) => string[] }>;
  series: Array<{ label?: string }>;
}
const charts: Array<{ options: ChartOptions; data: unknown[][] }> = [];
vi.mock('uplot', () => {
  class FakePlot {
    constructor(options: ChartOptions, data: unknown[][]) {
      charts.push({ options, data });
    }
    destroy() {}
    static tzDate(date: Date) {
      return date;
    }
  }
  return { default: FakePlot };
});
vi.mock('uplot/dist/uPlot.min.css', () => ({}));

const figures = { offersShown: 0, accepted: 0, cancelled: 0, revenueKept: [] };
const week = (weekStart: string, isoWeek: string, rest: Partial<WeekFigures>): WeekFigures => ({
  week: isoWeek,
  weekStart,
  started: 0,
  open: 0,
  kept: 0,
  saveRate: null,
  ...figures,
  ...rest,
});
const INSIGHTS: RetentionInsights = {
  tenant: 'technikwelt',
  from: '2026-11-16',
  to: '2026-11-25',
  asOf: '2026-11-25T12:00:00.000Z',
  attributionDays: 14,
  names: {
    reasons: { TWM: { PREIS: { 'de-DE': 'Das Abonnement ist mir zu teuer.', 'en-GB': 'Too expensive.' } } },
    offers: {
      'TWM-KEEP-HALF': { 'de-DE': 'Drei Monate zum halben Preis', 'en-GB': 'Three months at half price' },
    },
  },
  flows: [
    {
      flow: 'cancellation',
      started: 11,
      open: 8,
      offersShown: 10,
      accepted: 1,
      cancelled: 5,
      kept: 2,
      saveRate: 2 / 3,
      revenueKept: [
        { currency: 'CHF', amount: 99.5 },
        { currency: 'EUR', amount: 1315.6 },
      ],
      segments: [
        {
          publication: 'TWM',
          reason: 'PREIS',
          started: 10,
          open: 8,
          offersShown: 10,
          accepted: 1,
          cancelled: 5,
          kept: 1,
          saveRate: 0.5,
          revenueKept: [{ currency: 'EUR', amount: 1315.6 }],
        },
        { publication: 'TWM', reason: 'ZEIT', started: 1, open: 0, kept: 1, saveRate: 1, ...figures },
      ],
      weeks: [
        week('2026-11-16', '2026-W47', { started: 3, kept: 2, saveRate: 2 / 3 }),
        week('2026-11-23', '2026-W48', { started: 8, open: 8 }),
      ],
    },
    ...(['renewal', 'upgrade'] as const).map((flow) => ({
      flow,
      started: 0,
      open: 0,
      kept: 0,
      saveRate: null,
      ...figures,
      segments: [],
      weeks: [week('2026-11-16', '2026-W47', {}), week('2026-11-23', '2026-W48', {})],
    })),
  ],
  experiments: [
    {
      id: 'price-offers',
      flow: 'cancellation',
      reason: 'PREIS',
      inTenantFile: true,
      unknownReason: false,
      significant: false,
      comparisons: [],
      variants: [
        {
          id: 'half-price',
          weight: 1,
          offers: ['TWM-KEEP-HALF', 'TWM-GONE'],
          unknownOffers: ['TWM-GONE'],
          interval: { low: 0.2, high: 0.9 },
          started: 10,
          open: 8,
          kept: 1,
          saveRate: 0.5,
          ...figures,
        },
      ],
    },
  ],
};

vi.mock('../../studio/studioApi', () => ({
  studioApi: {
    tenants: async () => ({ files: [{ id: 'technikwelt' }], served: [] }),
    insights: async () => INSIGHTS,
  },
}));

async function renderPage(lang: 'en-GB' | 'de-DE') {
  window.history.replaceState(null, '', `/studio/?view=insights&tenant=technikwelt&lang=${lang}`);
  vi.resetModules();
  const { InsightsPage } = await import('../../studio/InsightsPage');
  const host = document.createElement('div');
  document.body.append(host);
  const root = createRoot(host);
  await act(async () => root.render(<InsightsPage />));
  await act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
  return { host, unmount: () => act(() => root.unmount()) };
}

const text = (host: HTMLElement, selector: string) =>
  host.querySelector(selector)!.textContent!.replace(/\u00a0/g, ' ');

beforeEach(() => {
  charts.length = 0;
});
afterEach(() => {
  document.body.innerHTML = '';
});

describe('studio: the insights page', () => {
  it('in English: the rate of the closed flows, the open ones apart, names, money per currency', async () => {
    const { host, unmount } = await renderPage('en-GB');
    const card = '[data-testid="flow-cancellation"]';
    expect(text(host, `${card} .insights-rate`)).toBe('66.7%');
    expect(text(host, '[data-testid="closed-cancellation"]')).toBe('of 3 flows with a known outcome; 8 open');
    expect(text(host, '[data-testid="open-cancellation"]')).toBe('8');
    expect(text(host, '[data-testid="revenue-cancellation"]')).toBe('CHF 99.50 · €1,315.60');
    expect(text(host, '[data-testid="revenue-renewal"]')).toBe('–');
    const price = host.querySelector('[data-testid="segments-cancellation"] tr[data-reason="PREIS"]')!;
    expect(price.textContent).toContain('Too expensive.');
    expect(price.textContent).not.toContain('PREIS');
    // No description from the order system: the code.
    expect(host.querySelector('tr[data-reason="ZEIT"]')!.textContent).toContain('ZEIT');
    const experiment = text(host, '[data-testid="experiment-price-offers"]');
    expect(experiment).toContain('Cancellations · Too expensive.');
    expect(experiment).toContain('Three months at half price, TWM-GONE');
    expect(host.textContent).toContain('Open: started less than 14 days ago');
    unmount();
  });

  it('draws counts and rates on charts of their own, each axis labelled with its unit', async () => {
    const { host, unmount } = await renderPage('en-GB');
    expect(host.querySelector('[data-testid="trend-counts"]')!.getAttribute('aria-label')).toMatch(
      /number of flows/,
    );
    expect(host.querySelector('[data-testid="trend-rates"]')!.getAttribute('aria-label')).toMatch(/per cent/);
    expect(charts).toHaveLength(2);
    const [counts, rates] = charts;
    expect(counts.options.axes[1].label).toBe('Flows');
    expect(counts.options.axes[1].values!(null, [0, 5, 10])).toEqual(['0', '5', '10']);
    expect(counts.data.slice(1)).toEqual([
      [3, 8],
      [0, 0],
      [0, 0],
    ]);
    expect(rates.options.axes[1].label).toBe('Save rate (%)');
    expect(rates.options.scales.y.range).toEqual([0, 100]);
    expect(rates.options.axes[1].values!(null, [0, 50])).toEqual(['0 %', '50 %']);
    // The week of open flows has no rate rather than 0 % or 100 %.
    expect(rates.data[1][0]).toBeCloseTo(66.67, 1);
    expect(rates.data[1][1]).toBeNull();
    expect(rates.options.series.slice(1).map((s) => s.label)).toEqual([
      'Cancellations',
      'Renewals offered',
      'Upgrades offered',
    ]);
    unmount();
  });

  it('in German: the order system’s German words and German formats', async () => {
    const { host, unmount } = await renderPage('de-DE');
    expect(text(host, '[data-testid="flow-cancellation"] .insights-rate')).toBe('66,7 %');
    expect(text(host, '[data-testid="closed-cancellation"]')).toBe(
      'von 3 Abläufen mit bekanntem Ergebnis; 8 offen',
    );
    expect(text(host, '[data-testid="revenue-cancellation"]')).toBe('99,50 CHF · 1.315,60 €');
    expect(host.querySelector('tr[data-reason="PREIS"]')!.textContent).toContain(
      'Das Abonnement ist mir zu teuer.',
    );
    expect(text(host, '[data-testid="experiment-price-offers"]')).toContain('Drei Monate zum halben Preis');
    expect(charts[0].options.axes[1].label).toBe('Abläufe');
    expect(charts[1].options.axes[1].label).toBe('Halterate (%)');
    unmount();
  });
});
