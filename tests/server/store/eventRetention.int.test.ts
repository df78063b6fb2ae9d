/** Account events hold personal data: they are kept EVENT_RETENTION_DAYS once every delivery has ended. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deleteExpiredRows, EVENT_RETENTION_DAYS } from '../../../server/store/housekeepingStore';
import { getTestDatabase, uniqueTenantId } from '../../support/database';

describe('retention of account events', () => {
  it('deletes dispatched events past the retention whose deliveries have all ended, and nothing else', async () => {
    const db = await getTestDatabase();
    const tenant = uniqueTenantId('retention');
    const now = new Date();
    const old = new Date(now.getTime() - (EVENT_RETENTION_DAYS + 1) * 86_400_000);
    const event = async (createdAt: Date, delivery?: 'delivered' | 'failed' | 'pending') => {
      const id = randomUUID();
      await db.query(
        `insert into account_events (tenant_id, id, type, subject_type, subject_id, data, created_at, dispatched_at)
         values ($1, $2, 'contact_message.created', 'contact_message', 'm1', '{"message":"Bitte rufen Sie mich an."}', $3, $3)`,
        [tenant, id, createdAt.toISOString()],
      );
      if (delivery) {
        await db.query(
          `insert into webhook_deliveries (tenant_id, event_id, endpoint_url, state) values ($1, $2, 'https://crm.example/in', $3)`,
          [tenant, id, delivery],
        );
      }
      return id;
    };
    const oldDelivered = await event(old, 'delivered');
    const oldFailed = await event(old, 'failed');
    const oldPending = await event(old, 'pending');
    const oldWithout = await event(old);
    const recent = await event(now, 'delivered');

    await deleteExpiredRows(db, now);

    const left = (
      await db.query<{ id: string }>(`select id from account_events where tenant_id = $1`, [tenant])
    ).map((row) => row.id);
    expect(left.sort()).toEqual([oldPending, recent].sort());
    expect(left).not.toContain(oldDelivered);
    expect(left).not.toContain(oldFailed);
    expect(left).not.toContain(oldWithout);
    const deliveries = await db.query(`select 1 from webhook_deliveries where tenant_id = $1`, [tenant]);
    expect(deliveries).toHaveLength(2);
  });
});
