/**
 * Finished imports (migration 034) are kept for the metrics: the newest of each tenant and result
 * always, since PortalImportFailed compares them, the others for EVENT_RETENTION_DAYS.
 */
import { describe, expect, it } from 'vitest';
import { deleteExpiredRows, EVENT_RETENTION_DAYS } from '../../../server/store/housekeepingStore';
import { getTestDatabase, uniqueTenantId } from '../../support/database';

describe('retention of finished imports', () => {
  it('keeps the newest run of each result and the recent ones', async () => {
    const db = await getTestDatabase();
    const tenant = uniqueTenantId('import-runs');
    const now = new Date();
    const daysAgo = (n: number) => new Date(now.getTime() - n * 86_400_000).toISOString();
    const run = (result: string, finishedAt: string) =>
      db.query(`insert into import_runs (tenant_id, finished_at, result, via) values ($1, $2, $3, 'cli')`, [
        tenant,
        finishedAt,
        result,
      ]);
    await run('written', daysAgo(EVENT_RETENTION_DAYS + 30));
    await run('written', daysAgo(EVENT_RETENTION_DAYS + 10));
    await run('written', daysAgo(2));
    await run('refused', daysAgo(EVENT_RETENTION_DAYS + 20));
    await run('refused', daysAgo(EVENT_RETENTION_DAYS + 5));

    await deleteExpiredRows(db, now);

    const left = await db.query<{ result: string; days: number }>(
      `select result, round(extract(epoch from now() - finished_at) / 86400)::int as days
         from import_runs where tenant_id = $1 order by result, finished_at`,
      [tenant],
    );
    expect(left).toEqual([
      // The newest refused one stays, however old: the alert compares it with the newest written.
      { result: 'refused', days: EVENT_RETENTION_DAYS + 5 },
      { result: 'written', days: 2 },
    ]);
  });
});
