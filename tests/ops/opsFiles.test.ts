/**
 * What an operator installs next to the portal (docs/going-live.md "Operations"): every metric the alerting
 * rules (ops/prometheus/alerts.yml) and the Grafana dashboards (ops/grafana/) name exists in the
 * portal's registry, so a renamed metric cannot leave an alert that never fires.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { collectNodeMetrics, registry } from '../../server/metrics/registry';
// Defines the metrics read at scrape time (pool, queues, feed) in the registry.
import '../../server/metrics/scrape';

const OPS = new URL('../../ops/', import.meta.url);

/** Metric names in a PromQL text: portal_*, nodejs_*, process_*, without a histogram's suffixes. */
function metricNames(text: string): string[] {
  const names = new Set<string>();
  for (const [name] of text.matchAll(/\b(?:portal|nodejs|process)_[a-z0-9_]+/g))
    names.add(name.replace(/_(bucket|sum|count)$/, ''));
  return [...names];
}

async function registered(): Promise<Set<string>> {
  collectNodeMetrics();
  return new Set((await registry.getMetricsAsJSON()).map((metric) => metric.name));
}

describe('ops files', () => {
  it('the alerting rules name only metrics the portal has, and cover the issue list', async () => {
    const text = readFileSync(new URL('prometheus/alerts.yml', OPS), 'utf8');
    const known = await registered();
    const names = metricNames(text);
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) expect(known, `${name} in alerts.yml`).toContain(name);
    for (const alert of [
      'PortalMailQueueStuck',
      'PortalWebhookEndpointFailing',
      'PortalChangeFeedLagging',
      'PortalHigh5xxRatio',
      'PortalImportFailed',
      'PortalDatabaseUnreachable',
    ])
      expect(text).toContain(`alert: ${alert}`);
  });

  it('every dashboard is Grafana JSON naming only metrics the portal has', async () => {
    const known = await registered();
    const files = readdirSync(new URL('grafana/', OPS)).filter((file) => file.endsWith('.json'));
    expect(files.sort()).toEqual([
      'portal-change-feed-and-imports.json',
      'portal-http.json',
      'portal-jobs-and-queues.json',
    ]);
    for (const file of files) {
      const dashboard = JSON.parse(readFileSync(new URL(`grafana/${file}`, OPS), 'utf8'));
      // Grafana addresses a dashboard by its uid: one of ours, stable across imports.
      expect(dashboard.uid).toMatch(/^portal-[a-z-]+$/);
      expect(dashboard.panels.length).toBeGreaterThan(0);
      const exprs: string[] = dashboard.panels.flatMap((panel: any) =>
        panel.targets.map((target: any) => target.expr),
      );
      for (const name of metricNames(exprs.join('\n') + JSON.stringify(dashboard.templating)))
        expect(known, `${name} in ${file}`).toContain(name);
    }
  });
});
