/**
 * A scrape while the database is away (docs/going-live.md "Operations"): it answers within its wait with the
 * metrics it has, counts the failed reads in portal_scrape_errors_total and says
 * portal_database_up 0; the first connection error spares the other reads the wait.
 */
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database';
import { metricsScraper } from '../../../server/metrics/scrape';
import { parseMetrics, sampleValue } from './parseMetrics';

function databaseAway(behaviour: 'refuses' | 'hangs'): Database & { attempts: number } {
  const db = {
    kind: 'postgres' as const,
    description: 'postgres://portal:***@db/portal',
    attempts: 0,
    query: async () => [],
    async transaction<T>(): Promise<T> {
      db.attempts++;
      if (behaviour === 'hangs') return new Promise<T>(() => undefined);
      throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });
    },
    close: async () => undefined,
    poolStats: () => ({ total: 0, idle: 0, waiting: 3 }),
  };
  return db;
}

describe('a scrape with the database away', () => {
  it('answers, counts the failed reads and reports the database down, trying it once', async () => {
    const db = databaseAway('refuses');
    const samples = parseMetrics(await metricsScraper(db, { cacheMs: 0 })());
    expect(db.attempts).toBe(1);
    expect(sampleValue(samples, 'portal_database_up')).toBe(0);
    expect(sampleValue(samples, 'portal_db_pool_waiting_requests')).toBe(3);
    for (const collector of ['mail_queue', 'webhook_deliveries', 'change_feed', 'payments'])
      expect(sampleValue(samples, 'portal_scrape_errors_total', { collector })).toBe(1);
  });

  it('answers within its wait when the database hangs', async () => {
    const started = Date.now();
    const text = await metricsScraper(databaseAway('hangs'), { cacheMs: 0, waitMs: 200 })();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(text).toContain('portal_build_info');
  });
});
