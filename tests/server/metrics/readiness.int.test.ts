/**
 * Readiness details (server/metrics/readiness.ts, docs/going-live.md "Operations"): pending migrations and
 * background jobs that stopped completing rounds.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readinessDetails, stallAfterMs } from '../../../server/metrics/readiness';
import { startPeriodicJob } from '../../../server/jobs/periodicJob';
import { getTestDatabase } from '../../support/database';

const stops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const stop of stops) await stop();
});

describe('readiness details', () => {
  it('is ok with every migration applied and jobs completing rounds', async () => {
    const db = await getTestDatabase();
    stops.push(startPeriodicJob('good job', async () => undefined, { intervalMs: 60_000 }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const details = await readinessDetails(db);
    expect(details.migrations.pending).toEqual([]);
    expect(details.migrations.applied).toBeGreaterThan(20);
    expect(details.jobs.find((job) => job.name === 'good job')).toMatchObject({ stalled: false });
    expect(details.ok).toBe(true);
  });

  it('names a job whose rounds fail once it has had none good for its stall time', async () => {
    const db = await getTestDatabase();
    stops.push(
      startPeriodicJob(
        'failing job',
        async () => {
          throw Object.assign(new Error('550 5.1.1 <anna.schmidt@example.org>: Recipient address rejected'), {
            code: 'EENVELOPE',
          });
        },
        { intervalMs: 60_000 },
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    const later = Date.now() + stallAfterMs(60_000) + 1_000;
    const details = await readinessDetails(db, later);
    expect(details.jobs.find((job) => job.name === 'failing job')).toEqual({
      name: 'failing job',
      // The kind only: the message named a recipient, which belongs in the log.
      lastError: 'Error (EENVELOPE)',
      stalled: true,
    });
    expect(details.ok).toBe(false);
  });
});
