/**
 * The weekly trend of the insights page (issue 27), drawn with uPlot: a small (about 22 KB
 * gzipped), maintained canvas chart library without dependencies. It is imported by the studio's
 * own entry only, so no subscriber bundle holds it (tests/cli/studioBundle.test.ts).
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface TrendSeries {
  label: string;
  values: Array<number | null>;
  color: string;
  /** Drawn against the right-hand axis, in per cent. */
  percent?: boolean;
}

export function TrendChart(props: {
  /** Monday of each week, YYYY-MM-DD. */
  weeks: string[];
  series: TrendSeries[];
  label: string;
  locale: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const { weeks, series, label, locale } = props;

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const width = Math.max(320, Math.min(element.clientWidth || 720, 960));
    const x = weeks.map((week) => Date.parse(`${week}T00:00:00Z`) / 1000);
    const chart = new uPlot(
      {
        width,
        height: 260,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { x: { time: true }, percent: { range: [0, 100] } },
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
          { label: '#', size: 50 },
          { scale: 'percent', side: 1, label: '%', grid: { show: false }, size: 50 },
        ],
        series: [
          {},
          ...series.map((s) => ({
            label: s.label,
            stroke: s.color,
            width: 2,
            scale: s.percent ? 'percent' : undefined,
            dash: s.percent ? [6, 4] : undefined,
            points: { show: true, size: 6 },
            value: (_: uPlot, value: number | null) =>
              value === null ? '–' : s.percent ? `${value.toFixed(1)} %` : String(value),
          })),
        ],
      },
      [x, ...series.map((s) => s.values)] as uPlot.AlignedData,
      element,
    );
    return () => chart.destroy();
  }, [weeks, series, locale]);

  return <div ref={box} className="insights-chart" role="img" aria-label={label} data-testid="trend-chart" />;
}
