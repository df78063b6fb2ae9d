/** E-cards hold a personal message and two people's names: a card that went out is kept E_CARD_RETENTION_DAYS. */
import { describe, expect, it } from 'vitest';
import { deleteExpiredRows, E_CARD_RETENTION_DAYS } from '../../../server/store/housekeepingStore';
import { getTestDatabase, uniqueTenantId } from '../../support/database';

describe('retention of e-cards', () => {
  it('deletes sent and failed cards past the retention, never a scheduled one', async () => {
    const db = await getTestDatabase();
    const tenant = uniqueTenantId('ecard-retention');
    const now = new Date();
    const old = new Date(now.getTime() - (E_CARD_RETENTION_DAYS + 1) * 86_400_000).toISOString();
    const recent = new Date(now.getTime() - 86_400_000).toISOString();
    await db.query(`insert into users (tenant_id, id, email) values ($1, 'u1', 'karte@example.org')`, [
      tenant,
    ]);
    const card = async (id: string, status: string, createdAt: string, sentAt: string | null) =>
      db.query(
        `insert into e_cards (tenant_id, id, user_id, template_name, template_category, from_name, to_name, to_email, message, locale, send_at, status, sent_at, created_at)
         values ($1, $2, 'u1', 'birthday', 'birthday', 'Anna', 'Bert', 'bert@example.org', 'Alles Gute!', 'de-DE', $3, $4, $5, $3)`,
        [tenant, id, createdAt, status, sentAt],
      );
    await card('old-sent', 'sent', old, old);
    await card('old-failed', 'failed', old, null);
    await card('old-scheduled', 'scheduled', old, null);
    await card('recent-sent', 'sent', old, recent);

    await deleteExpiredRows(db, now);

    const left = (
      await db.query<{ id: string }>(`select id from e_cards where tenant_id = $1 order by id`, [tenant])
    ).map((row) => row.id);
    expect(left).toEqual(['old-scheduled', 'recent-sent']);
  });
});
