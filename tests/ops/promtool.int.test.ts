/**
 * Debian's promtool (package `prometheus`, installed by .ci/run) checks the alerting rules and a
 * scrape of a running server: `promtool check rules` and `promtool check metrics` (docs/going-live.md
 * "Operations"). Without promtool the test is skipped with a message, except under CI=true, where
 * it fails.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/main';
import { silentLogger } from '../../server/http/requestLog';
import { createTestDatabase, uniqueTenantId } from '../support/database';
import { makeServerTenant } from '../support/builders';

function findPromtool(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v promtool'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

const promtool = findPromtool();
if (!promtool && process.env.CI !== 'true')
  console.warn(
    'promtool is missing: skipping the promtool checks (apt-get install prometheus; .ci/run installs it)',
  );
const RULES = new URL('../../ops/prometheus/alerts.yml', import.meta.url);

describe.skipIf(!promtool && process.env.CI !== 'true')('promtool', () => {
  let server: RunningServer;

  beforeAll(async () => {
    if (!promtool)
      throw new Error('promtool is missing under CI=true: .ci/run installs Debian package prometheus');
    const { db, url } = await createTestDatabase({ poolSize: 2 });
    await db.close();
    const dir = mkdtempSync(path.join(tmpdir(), 'portal-promtool-'));
    const tenant = makeServerTenant({
      id: uniqueTenantId('promtool'),
      name: 'Verlag Promtool',
      hosts: ['promtool.test'],
      defaultLocale: 'de-DE',
      locales: ['de-DE'],
      features: [],
    });
    server = await startServer({
      tenants: [tenant],
      distDir: path.join(dir, 'dist'),
      dataDir: dir,
      port: 0,
      databaseUrl: url,
      metricsPort: 0,
      log: silentLogger,
    });
    for (const route of [`/t/${tenant.id}/api/subscriptions`, '/healthz', '/nothing/here'])
      await fetch(`${server.url}${route}`);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('checks the alerting rules', () => {
    const output = execFileSync(promtool!, ['check', 'rules', RULES.pathname], { encoding: 'utf8' });
    expect(output).toMatch(/SUCCESS: \d+ rules found/);
  });

  // Each alert's unit tests, with the labels and words it fires with: an expression that drops a
  // label its description names passes `check rules` but says nothing here.
  it.each([
    ['PortalImportFailed while the newest import of a tenant wrote nothing', 'importAlert.rules-test.yml'],
    ['PortalDatabasePoolSaturated per instance, naming it', 'poolAlert.rules-test.yml'],
  ])('fires %s', (_alert, file) => {
    const tests = new URL(`./${file}`, import.meta.url).pathname;
    const checked = spawnSync(promtool!, ['test', 'rules', tests], { encoding: 'utf8' });
    expect(`${checked.stdout}${checked.stderr}`).toContain('SUCCESS');
    expect(checked.status).toBe(0);
  });

  it('checks a scrape of the running server, which only the metrics port answers', async () => {
    expect(server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const scrape = await (await fetch(server.metricsUrl!)).text();
    expect(scrape).toContain('portal_http_requests_total{');
    expect(scrape).toContain('portal_mail_queue_depth ');
    expect(scrape).toContain('nodejs_eventloop_lag_seconds ');
    const checked = spawnSync(promtool!, ['check', 'metrics'], { input: scrape, encoding: 'utf8' });
    // Clean as it is, the Node metrics included: an operator's own promtool check passes.
    expect(`${checked.stdout}${checked.stderr}`.split('\n').filter(Boolean)).toEqual([]);
    expect(checked.error).toBeUndefined();
    expect(checked.status).toBe(0);
    expect(scrape).toContain('nodejs_active_handles{');
    // Not on the portal's own port.
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
  });
});
