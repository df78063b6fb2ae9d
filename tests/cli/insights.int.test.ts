/**
 * `portal insights` (issue 27) against a real database: the figures of a seeded event history of
 * the demo tenant technikwelt as text, JSON and CSV, and the period's checks.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createProgram } from '../../cli/program';
import type { Database } from '../../server/db/database';
import { createTestDatabase } from '../support/database';

let db: Database;
let url: string;
const TENANT = 'technikwelt';

async function portal(...args: string[]) {
  const output: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...parts) => void output.push(parts.join(' ')));
  const previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = url;
  try {
    await createProgram().parseAsync(['node', 'portal', 'insights', ...args]);
  } finally {
    log.mockRestore();
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
  }
  return output.join('\n');
}

const insert = (type: string, subscriptionId: string, at: string, data: Record<string, unknown>) =>
  db.query(
    `insert into account_events (tenant_id, id, type, user_id, subject_type, subject_id, data, created_at)
     values ($1, $2, $3, 'u1', 'subscription', $4, $5::jsonb, $6)`,
    [TENANT, randomUUID(), type, subscriptionId, JSON.stringify({ subscriptionId, ...data }), at],
  );

beforeAll(async () => {
  ({ db, url } = await createTestDatabase());
  const start = (id: string, at: string, reason: string) =>
    insert('offer_flow.started', id, at, {
      flow: 'cancellation',
      publication: 'TWD',
      reason,
      offerIds: ['TWD-KEEP-HALF'],
      experiment: null,
    });
  await start('S1', '2026-11-02T10:00:00Z', 'PREIS');
  await insert('offer.accepted', 'S1', '2026-11-02T10:01:00Z', {
    source: 'cancellation',
    amount: 29.9,
    currency: 'EUR',
  });
  await start('S2', '2026-11-03T10:00:00Z', 'PREIS');
  await insert('subscription.cancelled', 'S2', '2026-11-03T10:01:00Z', { reason: 'PREIS' });
  await start('S3', '2026-11-10T10:00:00Z', 'ZEIT');
});

describe('portal insights', () => {
  it('prints the figures per flow, publication and reason, and week', async () => {
    const text = await portal(TENANT, '--from', '2026-11-02', '--to', '2026-11-15');
    expect(text).toContain('Retention insights of technikwelt, 2026-11-02 to 2026-11-15');
    expect(text).toContain(
      'Cancellations: 3 flows started, offers shown in 3, 1 accepted and paid, 1 cancelled, 2 kept; save rate 66.7 %, revenue kept 29.90 EUR',
    );
    expect(text).toMatch(/TWD\s+PREIS\s+2\s+2\s+1\s+1\s+1\s+50\.0 %\s+29\.90 EUR/);
    expect(text).toMatch(/2026-W45\s+2026-11-02\s+2\s+1\s+50\.0 %/);
    expect(text).toMatch(/2026-W46\s+2026-11-09\s+1\s+1\s+100\.0 %/);
    expect(text).toContain('Renewals offered: 0 flows started');
  });

  it('prints JSON for tools', async () => {
    const insights = JSON.parse(await portal(TENANT, '--from', '2026-11-02', '--to', '2026-11-15', '--json'));
    expect(insights.flows[0]).toMatchObject({ flow: 'cancellation', started: 3, kept: 2, revenueKept: 29.9 });
  });

  it('prints one CSV table with a row per flow, segment, week and variant', async () => {
    const csv = await portal(TENANT, '--from', '2026-11-02', '--to', '2026-11-15', '--csv');
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      'kind,flow,publication,reason,week,weekStart,experiment,variant,started,offersShown,accepted,cancelled,kept,saveRate,revenueKept,currency,intervalLow,intervalHigh',
    );
    expect(lines).toContain('segment,cancellation,TWD,PREIS,,,,,2,2,1,1,1,0.5,29.9,EUR,,');
    expect(lines).toContain('week,cancellation,,,2026-W46,2026-11-09,,,1,1,0,0,1,1,0,EUR,,');
  });

  it('refuses a period that ends before it starts, and a day that is not one', async () => {
    await expect(portal(TENANT, '--from', '2026-11-15', '--to', '2026-11-02')).rejects.toThrow(
      '--from 2026-11-15 is after --to 2026-11-02',
    );
    const error = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await expect(portal(TENANT, '--from', '15.11.2026')).rejects.toThrow(/YYYY-MM-DD/);
    } finally {
      error.mockRestore();
    }
  });
});
