/**
 * The events the retention insights count are kept INSIGHT_EVENT_RETENTION_DAYS, so a
 * year compares with the year before; every other event still goes after EVENT_RETENTION_DAYS.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  deleteExpiredRows,
  EVENT_RETENTION_DAYS,
  INSIGHT_EVENT_RETENTION_DAYS,
} from '../../../server/store/housekeepingStore';
import { getTestDatabase, uniqueTenantId } from '../../support/database';

describe('retention of the events the insights count', () => {
  it('keeps flow starts, cancellations and accepted offers for 400 days, and the others for 90', async () => {
    const db = await getTestDatabase();
    const tenant = uniqueTenantId('insight-retention');
    const now = new Date();
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
    const event = async (type: string, createdAt: string) => {
      await db.query(
        `insert into account_events (tenant_id, id, type, subject_type, subject_id, data, created_at, dispatched_at)
         values ($1, $2, $3, 'subscription', 'S1', '{}', $4, $4)`,
        [tenant, randomUUID(), type, createdAt],
      );
    };
    const halfYear = daysAgo(EVENT_RETENTION_DAYS + 90);
    const tooOld = daysAgo(INSIGHT_EVENT_RETENTION_DAYS + 1);
    for (const type of [
      'offer_flow.started',
      'subscription.cancelled',
      'offer.accepted',
      'address.changed',
    ]) {
      await event(type, halfYear);
      await event(type, tooOld);
    }

    await deleteExpiredRows(db, now);

    const left = await db.query<{ type: string; created_at: Date }>(
      `select type, created_at from account_events where tenant_id = $1 order by type`,
      [tenant],
    );
    expect(left.map((row) => [row.type, row.created_at.toISOString()])).toEqual([
      ['offer.accepted', halfYear],
      ['offer_flow.started', halfYear],
      ['subscription.cancelled', halfYear],
    ]);
  });
});
