/**
 * `portal insights` against a real database: the figures of a seeded event history of
 * the demo tenant technikwelt as text, JSON and CSV — reasons and offers by the order system's
 * words in the chosen language, money with its currency, open flows apart — and the period's checks.
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
  // Started an hour ago: its window is open.
  await start('S4', new Date(Date.now() - 3_600_000).toISOString(), 'PREIS');
  await db.query(
    `insert into publications (tenant_id, publication, client_id, description) values ($1, 'TWD', 'TWD', 'Technikwelt Digital')`,
    [TENANT],
  );
  await db.query(
    `insert into cancellation_reasons (tenant_id, publication, code, position, descriptions) values ($1, 'TWD', 'PREIS', 1, $2::jsonb)`,
    [TENANT, JSON.stringify({ 'de-DE': 'Zu teuer', 'en-GB': 'Too expensive' })],
  );
});

describe('portal insights', () => {
  it('prints the figures per flow, publication and reason (named), and week; money with its currency', async () => {
    const text = await portal(TENANT, '--from', '2026-11-02', '--to', '2026-11-15');
    expect(text).toContain('Retention insights of technikwelt, 2026-11-02 to 2026-11-15');
    expect(text).toContain(
      'Cancellations: 3 flows started (0 still open), offers shown in 3, 1 accepted and paid, 1 cancelled; of the 3 closed 2 kept, save rate 66.7%; revenue kept €29.90',
    );
    // The reason by its description; ZEIT has none in the order system's data, so its code.
    expect(text).toMatch(/TWD\s+Too expensive\s+2\s+0\s+2\s+1\s+1\s+1\s+50\.0%\s+€29\.90/);
    expect(text).toMatch(/TWD\s+ZEIT\s+1\s+0\s+1\s+0\s+0\s+1\s+100\.0%\s+–/);
    expect(text).not.toMatch(/\bPREIS\b/);
    expect(text).toMatch(/2026-W45\s+2026-11-02\s+2\s+0\s+1\s+50\.0%/);
    expect(text).toMatch(/2026-W46\s+2026-11-09\s+1\s+0\s+1\s+100\.0%/);
    expect(text).toContain('Renewals offered: 0 flows started (0 still open)');
    expect(text).toContain('save rate –; revenue kept –');
  });

  it('counts a flow started an hour ago as open, in no rate', async () => {
    const text = await portal(TENANT, '--from', '2026-11-02');
    expect(text).toContain(
      'Cancellations: 4 flows started (1 still open), offers shown in 4, 1 accepted and paid, 1 cancelled; of the 3 closed 2 kept, save rate 66.7%',
    );
  });

  it('names and formats in German with --lang de-DE', async () => {
    const text = (
      await portal(TENANT, '--from', '2026-11-02', '--to', '2026-11-15', '--lang', 'de-DE')
    ).replace(/\u00a0/g, ' ');
    expect(text).toContain('save rate 66,7 %; revenue kept 29,90 €');
    expect(text).toMatch(/TWD\s+Zu teuer\s+2\s+0\s+2/);
  });

  it('prints JSON for tools', async () => {
    const insights = JSON.parse(await portal(TENANT, '--from', '2026-11-02', '--to', '2026-11-15', '--json'));
    expect(insights.flows[0]).toMatchObject({
      flow: 'cancellation',
      started: 3,
      open: 0,
      kept: 2,
      revenueKept: [{ currency: 'EUR', amount: 29.9 }],
    });
    expect(insights.names.reasons.TWD.PREIS['en-GB']).toBe('Too expensive');
  });

  it('prints one CSV table with a row per flow, segment, week and variant', async () => {
    const csv = await portal(TENANT, '--from', '2026-11-02', '--to', '2026-11-15', '--csv');
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      'kind,flow,publication,reason,reasonName,week,weekStart,experiment,variant,started,open,offersShown,accepted,cancelled,kept,saveRate,revenueKept:EUR,intervalLow,intervalHigh',
    );
    expect(lines).toContain('segment,cancellation,TWD,PREIS,Too expensive,,,,,2,0,2,1,1,1,0.5,29.9,,');
    expect(lines).toContain('week,cancellation,,,,2026-W46,2026-11-09,,,1,0,1,0,0,1,1,0,,');
  });

  it('refuses a period that ends before it starts, and a day that is not one', async () => {
    await expect(portal(TENANT, '--from', '2026-11-15', '--to', '2026-11-02')).rejects.toThrow(
      '--from 2026-11-15 is after --to 2026-11-02',
    );
    const error = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await expect(portal(TENANT, '--from', '15.11.2026')).rejects.toThrow(/YYYY-MM-DD/);
      // The operator API's days and period (server/operator/insights): from 1970, at most 20 years.
      await expect(portal(TENANT, '--from', '1900-01-01')).rejects.toThrow(/from 1970 to 2999/);
    } finally {
      error.mockRestore();
    }
    await expect(portal(TENANT, '--from', '1990-01-01', '--to', '2026-11-02')).rejects.toThrow(
      /longer than 20 years/,
    );
  });
});
