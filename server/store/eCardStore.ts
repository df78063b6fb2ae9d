/**
 * SQL of the e-cards (migration 011): a card written with its time, the job's claim of due cards
 * (`for update skip locked`, so two instances never take the same card), and the per-user count of
 * the daily cap. Every query of a request is scoped by tenant; the job's claim reads across tenants,
 * as the due-changes job does.
 */
import type { Queryable } from '../db/database';

export interface ECardRow {
  tenantId: string;
  id: string;
  userId: string;
  subscriptionId: string | null;
  templateName: string;
  templateCategory: string;
  fromName: string;
  toName: string;
  toEmail: string;
  message: string;
  locale: string;
  sendAt: Date;
  status: 'scheduled' | 'sent' | 'failed';
}

const COLUMNS = `tenant_id as "tenantId", id, user_id as "userId", subscription_id as "subscriptionId", template_name as "templateName",
  template_category as "templateCategory", from_name as "fromName", to_name as "toName", to_email as "toEmail", message, locale,
  send_at as "sendAt", status`;

export async function insertECard(
  db: Queryable,
  card: Omit<ECardRow, 'id' | 'status'> & { status: 'scheduled' | 'sent'; createdAt: Date },
): Promise<ECardRow> {
  const rows = await db.query<ECardRow>(
    `insert into e_cards (tenant_id, user_id, subscription_id, template_name, template_category, from_name, to_name, to_email, message, locale, send_at, status, sent_at, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, case when $12 = 'sent' then $13::timestamptz end, $13)
     returning ${COLUMNS}`,
    [
      card.tenantId,
      card.userId,
      card.subscriptionId,
      card.templateName,
      card.templateCategory,
      card.fromName,
      card.toName,
      card.toEmail,
      card.message,
      card.locale,
      card.sendAt,
      card.status,
      card.createdAt,
    ],
  );
  return rows[0];
}

/** Cards the user created since `since` (the daily cap, engine/domain/eCard.ts). */
export async function countECardsSince(
  db: Queryable,
  tenantId: string,
  userId: string,
  since: Date,
): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `select count(*)::int as n from e_cards where tenant_id = $1 and user_id = $2 and created_at > $3`,
    [tenantId, userId, since],
  );
  return rows[0].n;
}

/**
 * When the user's card number `rank` (1 = the oldest) since `since` was created: with a cap of N
 * cards in any 24 hours and `count` cards now, a place frees when card count − N + 1 leaves the window.
 */
export async function eCardCreatedAtSince(
  db: Queryable,
  tenantId: string,
  userId: string,
  since: Date,
  rank: number,
): Promise<Date | undefined> {
  const rows = await db.query<{ created_at: Date | string }>(
    `select created_at from e_cards where tenant_id = $1 and user_id = $2 and created_at > $3 order by created_at offset $4 limit 1`,
    [tenantId, userId, since, Math.max(0, rank - 1)],
  );
  return rows[0] ? new Date(rows[0].created_at) : undefined;
}

/**
 * Locks the user's row for the cap check, so two concurrent requests of one user cannot both pass
 * a cap with one card left (the count and the insert run in that transaction).
 */
export async function lockUserForECards(db: Queryable, tenantId: string, userId: string): Promise<void> {
  await db.query(`select 1 from users where tenant_id = $1 and id = $2 for update`, [tenantId, userId]);
}

/** Scheduled cards whose time has come, locked for this transaction; rows another job holds are skipped. */
export async function claimDueECards(db: Queryable, now: Date, limit = 100): Promise<ECardRow[]> {
  return db.query<ECardRow>(
    `select ${COLUMNS} from e_cards where status = 'scheduled' and send_at <= $1 order by send_at limit $2 for update skip locked`,
    [now, limit],
  );
}

export async function markECardSent(db: Queryable, tenantId: string, id: string, at: Date): Promise<void> {
  await db.query(`update e_cards set status = 'sent', sent_at = $3 where tenant_id = $1 and id = $2`, [
    tenantId,
    id,
    at,
  ]);
}

export async function markECardFailed(
  db: Queryable,
  tenantId: string,
  id: string,
  error: string,
): Promise<void> {
  await db.query(`update e_cards set status = 'failed', error = $3 where tenant_id = $1 and id = $2`, [
    tenantId,
    id,
    error.slice(0, 500),
  ]);
}

export async function findECard(db: Queryable, tenantId: string, id: string): Promise<ECardRow | undefined> {
  return (
    await db.query<ECardRow>(`select ${COLUMNS} from e_cards where tenant_id = $1 and id = $2`, [
      tenantId,
      id,
    ])
  )[0];
}

/** The user's timed cards that have not gone out yet, soonest first (GET /e-cards). */
export async function listScheduledECards(
  db: Queryable,
  tenantId: string,
  userId: string,
): Promise<ECardRow[]> {
  return db.query<ECardRow>(
    `select ${COLUMNS} from e_cards where tenant_id = $1 and user_id = $2 and status = 'scheduled' order by send_at, id`,
    [tenantId, userId],
  );
}

/**
 * Deletes one of the user's timed cards while it is still waiting. A card the e-card job is sending
 * at this moment is locked by the job: the delete waits for it, then finds it sent and deletes
 * nothing, so a card is either cancelled or sent, never both.
 */
export async function cancelScheduledECard(
  db: Queryable,
  tenantId: string,
  userId: string,
  id: string,
): Promise<ECardRow | undefined> {
  const rows = await db.query<ECardRow>(
    `delete from e_cards where tenant_id = $1 and user_id = $2 and id = $3 and status = 'scheduled' returning ${COLUMNS}`,
    [tenantId, userId, id],
  );
  return rows[0];
}
