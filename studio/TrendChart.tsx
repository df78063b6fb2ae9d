/**
 * A weekly trend of the insights page, drawn with uPlot: a small (about 22 KB
 * gzipped), maintained canvas chart library without dependencies. It is imported by the studio's
 * own entry only, so no subscriber bundle holds it (tests/cli/studioBundle.test.ts).
 *
 * One chart draws one unit — counts or per cent — on one labelled axis (docs/operators.md "Retention
 * insights"): counts drawn against a percent axis read as rates, so the page shows the flows
 * started and the save rates as two charts.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface TrendSeries {
  label: string;
  /** Counts, or per cent (0–100) in a percent chart; null where there is none (no closed flow). */
  values: Array<number | null>;
  color: string;
}

export function TrendChart(props: {
  /** Monday of each week, YYYY-MM-DD. */
  weeks: string[];
  series: TrendSeries[];
  /** What the chart shows, for screen readers. */
  label: string;
  /** The value axis' label, with its unit. */
  axisLabel: string;
  unit: 'count' | 'percent';
  locale: string;
  testId: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const { weeks, series, label, axisLabel, unit, locale, testId } = props;

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const width = Math.max(320, Math.min(element.clientWidth || 720, 960));
    const x = weeks.map((week) => Date.parse(`${week}T00:00:00Z`) / 1000);
    const number = new Intl.NumberFormat(locale, { maximumFractionDigits: unit === 'percent' ? 1 : 0 });
    const format = (value: number) =>
      unit === 'percent' ? `${number.format(value)} %` : number.format(value);
    const chart = new uPlot(
      {
        width,
        height: 240,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: {
          x: { time: true },
          y:
            unit === 'percent'
              ? { range: [0, 100] }
              : { range: (_chart, _min, max) => [0, Math.max(1, Math.ceil(max * 1.1))] },
        },
        axes: [
          {
            // Each tick as a day of the operator's language (uPlot's default is the US style).
            values: (_chart, ticks) =>
              ticks.map((tick) =>
                new Date(tick * 1000).toLocaleDateString(locale, {
                  day: 'numeric',
                  month: 'short',
                  timeZone: 'UTC',
                }),
              ),
          },
          {
            scale: 'y',
            label: axisLabel,
            size: 60,
            // Counts are whole flows: no tick at 0.5.
            incrs: unit === 'count' ? [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] : undefined,
            values: (_chart, ticks) => ticks.map(format),
          },
        ],
        series: [
          {},
          ...series.map((s) => ({
            label: s.label,
            stroke: s.color,
            width: 2,
            scale: 'y',
            points: { show: true, size: 6 },
            value: (_: uPlot, value: number | null) => (value === null ? '–' : format(value)),
          })),
        ],
      },
      [x, ...series.map((s) => s.values)] as uPlot.AlignedData,
      element,
    );
    return () => chart.destroy();
  }, [weeks, series, axisLabel, unit, locale]);

  return <div ref={box} className="insights-chart" role="img" aria-label={label} data-testid={testId} />;
}
