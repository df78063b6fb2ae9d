/**
 * Retention of the feed's changes: past EVENT_RETENTION_DAYS an event goes as before,
 * unless a rejection of it still shows on the subscriber's orders page, or it waits for its
 * acknowledgement while the tenant has a key that reads the feed (then up to
 * UNACKNOWLEDGED_CHANGE_RETENTION_DAYS).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  deleteExpiredRows,
  EVENT_RETENTION_DAYS,
  UNACKNOWLEDGED_CHANGE_RETENTION_DAYS,
} from '../../../server/store/housekeepingStore';
import { insertAcknowledgement } from '../../../server/store/changeFeedStore';
import { createOperatorKey } from '../../../server/operator/keys/operatorKeys';
import { getTestDatabase, uniqueTenantId } from '../../support/database';

const DAY = 86_400_000;

describe('retention of the change feed', () => {
  it('keeps recent rejections and, for a tenant that reads the feed, unacknowledged changes up to a year', async () => {
    const db = await getTestDatabase();
    const reading = uniqueTenantId('retention-feed');
    const silent = uniqueTenantId('retention-nofeed');
    const now = new Date();
    const old = new Date(now.getTime() - (EVENT_RETENTION_DAYS + 1) * DAY);
    const ancient = new Date(now.getTime() - (UNACKNOWLEDGED_CHANGE_RETENTION_DAYS + 1) * DAY);
    await createOperatorKey(db, reading, { name: 'ERP', scopes: ['read', 'write'], now });
    const event = async (tenant: string, createdAt: Date, type = 'order_attribute.changed') => {
      const id = randomUUID();
      await db.query(
        `insert into account_events (tenant_id, id, type, subject_type, subject_id, data, created_at, dispatched_at)
         values ($1, $2, $3, 'subscription', '4711', '{}', $4, $4)`,
        [tenant, id, type, createdAt.toISOString()],
      );
      return id;
    };
    const acknowledge = (tenant: string, id: string, at: Date, status: 'confirmed' | 'rejected') =>
      insertAcknowledgement(db, tenant, id, {
        status,
        reason: status === 'rejected' ? { 'de-DE': 'Nein', 'en-GB': 'No' } : null,
        mailLocale: status === 'rejected' ? 'de-DE' : null,
        keyId: null,
        acknowledgedAt: at.toISOString(),
        rejectionEventId: null,
        undone: status === 'rejected' ? true : null,
      });

    const waiting = await event(reading, old);
    await event(reading, ancient); // waited longer than a year: goes
    const confirmedLongAgo = await event(reading, old);
    await acknowledge(reading, confirmedLongAgo, old, 'confirmed');
    const rejectedLately = await event(reading, old);
    await acknowledge(reading, rejectedLately, new Date(now.getTime() - 5 * DAY), 'rejected');
    await event(reading, old, 'change.rejected'); // the portal's own record: never acknowledged, goes
    await event(silent, old); // no key reads this tenant's feed: goes

    await deleteExpiredRows(db, now);

    const left = async (tenant: string) =>
      (await db.query<{ id: string }>(`select id from account_events where tenant_id = $1`, [tenant])).map(
        (row) => row.id,
      );
    expect((await left(reading)).sort()).toEqual([waiting, rejectedLately].sort());
    expect(await left(silent)).toEqual([]);
  });
});
