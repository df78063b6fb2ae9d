/**
 * SQL of the operator API's change feed (migration 018): the tenant's account events in a
 * gap-free order with their acknowledgement, the acknowledgements themselves, and the rejections a
 * subscriber sees. Every query is scoped by tenant_id.
 */
import type { Queryable } from '../db/database';

export type ChangeStatus = 'pending' | 'confirmed' | 'rejected';

/** Per locale the reason's text, e.g. { "de-DE": "…", "en-GB": "…" }. */
export type LocalizedReason = Record<string, string>;

export interface StoredAcknowledgement {
  status: 'confirmed' | 'rejected';
  reason: LocalizedReason | null;
  mailLocale: string | null;
  keyId: string | null;
  acknowledgedAt: string;
  rejectionEventId: string | null;
  /** A rejection's: whether it took anything back (null: rejected before this was kept, or confirmed). */
  undone: boolean | null;
}

export interface FeedEvent {
  /** `<xact_id>.<seq>`: where the event stands in the feed. */
  cursor: string;
  id: string;
  type: string;
  userId: string | null;
  subject: { type: string; id: string };
  data: unknown;
  createdAt: string;
  /** The language of the screen the change was made on; null where none was named (migration 051). */
  locale: string | null;
  acknowledgement: StoredAcknowledgement | null;
}

/**
 * Types that are not subscribers' changes: the portal's record of the order system's own decisions,
 * and a flow opened (counted by the retention insights, nothing to take over).
 */
export const FEED_EXCLUDED_TYPES: readonly string[] = ['change.rejected', 'offer_flow.started'];

interface FeedRow {
  xact_id: string;
  seq: string;
  id: string;
  type: string;
  user_id: string | null;
  subject_type: string;
  subject_id: string;
  data: unknown;
  locale: string | null;
  created_at: Date | string;
  /** created_at as PostgreSQL keeps it, to the microsecond (a Date keeps milliseconds). */
  created_at_text: string;
  ack_status: 'confirmed' | 'rejected' | null;
  ack_reason: LocalizedReason | null;
  ack_mail_locale: string | null;
  ack_key_id: string | null;
  ack_at: Date | string | null;
  ack_rejection_event_id: string | null;
  ack_undone: boolean | null;
}

function acknowledgementOf(row: FeedRow): StoredAcknowledgement | null {
  if (!row.ack_status) return null;
  return {
    status: row.ack_status,
    reason: row.ack_reason,
    mailLocale: row.ack_mail_locale,
    keyId: row.ack_key_id,
    acknowledgedAt: new Date(row.ack_at!).toISOString(),
    rejectionEventId: row.ack_rejection_event_id,
    undone: row.ack_undone,
  };
}

function feedEventOf(row: FeedRow): FeedEvent {
  return {
    cursor: `${row.xact_id}.${row.seq}`,
    id: row.id,
    type: row.type,
    userId: row.user_id,
    subject: { type: row.subject_type, id: row.subject_id },
    data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data,
    createdAt: new Date(row.created_at).toISOString(),
    locale: row.locale,
    acknowledgement: acknowledgementOf(row),
  };
}

const FEED_SELECT = `select e.xact_id::text as xact_id, e.seq::text as seq, e.id::text as id, e.type, e.user_id,
       e.subject_type, e.subject_id, e.data, e.locale, e.created_at, e.created_at::text as created_at_text,
       a.status as ack_status, a.reason as ack_reason, a.mail_locale as ack_mail_locale,
       a.key_id::text as ack_key_id, a.acknowledged_at as ack_at,
       a.rejection_event_id::text as ack_rejection_event_id, a.undone as ack_undone
  from account_events e
  left join change_acknowledgements a on a.tenant_id = e.tenant_id and a.event_id = e.id`;

/**
 * Whether a cursor names a transaction that has not begun yet: no page ever answered it (a cursor is
 * an event's, of a transaction that ended), so it is mistyped, or of another database (a restore
 * from elsewhere); read after it, the feed would stay empty until the database's transactions
 * reached it.
 */
export async function isCursorAhead(db: Queryable, xactId: string): Promise<boolean> {
  const [row] = await db.query<{ ahead: boolean }>(
    `select $1::xid8 >= pg_snapshot_xmax(pg_current_snapshot()) as ahead`,
    [xactId],
  );
  return row.ahead;
}

/**
 * One page of the feed: events after the cursor, in feed order, only of transactions older than
 * every running one (migration 018 says why), optionally of one acknowledgement state. Reads one
 * more than `limit` to tell whether more follow.
 */
export async function listFeedEvents(
  db: Queryable,
  tenantId: string,
  options: { after?: { xactId: string; seq: string }; limit: number; status?: ChangeStatus },
): Promise<{ events: FeedEvent[]; hasMore: boolean }> {
  // Two statements rather than one with "cursor is null or …": the row comparison after a cursor must
  // reach the index (tenant_id, xact_id, seq) as a range, so a page deep in the feed costs what the
  // first one does. The horizon is read once (an init plan), not per row.
  const params: unknown[] = [tenantId, FEED_EXCLUDED_TYPES, options.status ?? null, options.limit + 1];
  let afterCursor = '';
  if (options.after) {
    params.push(options.after.xactId, options.after.seq);
    afterCursor = 'and (e.xact_id, e.seq) > ($5::xid8, $6::bigint)';
  }
  const rows = await db.query<FeedRow>(
    `${FEED_SELECT}
      where e.tenant_id = $1
        and e.type <> all($2::text[])
        and e.xact_id < (select pg_snapshot_xmin(pg_current_snapshot()))
        ${afterCursor}
        and ($3::text is null or coalesce(a.status, 'pending') = $3)
      order by e.xact_id, e.seq
      limit $4`,
    params,
  );
  return { events: rows.slice(0, options.limit).map(feedEventOf), hasMore: rows.length > options.limit };
}

/**
 * One event of the feed with its acknowledgement (none when unknown, another tenant's or excluded),
 * and `madeAt`: its time to the microsecond, which every row its transaction wrote with now() carries
 * too (server/store/changeRejectionStore.ts finds them by it).
 */
export async function findFeedEvent(
  db: Queryable,
  tenantId: string,
  eventId: string,
  options: { lock?: boolean } = {},
): Promise<(FeedEvent & { madeAt: string }) | undefined> {
  // The event row is locked (not the outer-joined acknowledgement): two acknowledgements of one
  // event wait for each other. The locking statement still shows the acknowledgement as it was
  // when it started, so once the lock is held the event is read again: the second then sees the
  // first's decision (answered as stored, or 409 acknowledgement_conflict), never inserts it twice.
  const read = (lock: boolean) =>
    db.query<FeedRow>(
      `${FEED_SELECT}
        where e.tenant_id = $1 and e.id = $2::uuid and e.type <> all($3::text[])${lock ? ' for update of e' : ''}`,
      [tenantId, eventId, FEED_EXCLUDED_TYPES],
    );
  let rows = await read(options.lock === true);
  if (options.lock && rows[0] && !rows[0].ack_status) rows = await read(false);
  return rows[0] ? { ...feedEventOf(rows[0]), madeAt: rows[0].created_at_text } : undefined;
}

export async function insertAcknowledgement(
  tx: Queryable,
  tenantId: string,
  eventId: string,
  ack: StoredAcknowledgement,
): Promise<void> {
  await tx.query(
    `insert into change_acknowledgements
       (tenant_id, event_id, status, reason, mail_locale, key_id, acknowledged_at, rejection_event_id, undone)
     values ($1, $2::uuid, $3, $4::jsonb, $5, $6::uuid, $7, $8::uuid, $9)`,
    [
      tenantId,
      eventId,
      ack.status,
      ack.reason === null ? null : JSON.stringify(ack.reason),
      ack.mailLocale,
      ack.keyId,
      ack.acknowledgedAt,
      ack.rejectionEventId,
      ack.undone,
    ],
  );
}

export interface RejectedChange {
  eventId: string;
  type: string;
  subject: { type: string; id: string };
  changedAt: string;
  rejectedAt: string;
  reason: LocalizedReason;
  /** Whether the rejection took anything back (rejections before this was kept did). */
  undone: boolean;
  /** The order number of the subscription the change concerned (its event's), else null. */
  orderNumber: string | null;
  /** What was paid online for the change and goes back, where the rejection made a refund due. */
  refund: { amount: number; currency: string; status: 'due' | 'issued' | 'failed' } | null;
}

/**
 * The order number a change was about: its event's own, else that of the subscription the event is
 * about (a link names the subscription only), so the notice and the mail can say which contract the
 * rejection is about. A partner's change (an address) is about no one subscription.
 */
const ORDER_NUMBER_OF_EVENT = `coalesce(e.data->>'orderNumber',
  (select s.order_number from subscriptions s
    where e.subject_type = 'subscription' and s.tenant_id = e.tenant_id and s.id = e.subject_id))`;

/** The order number of one change (ORDER_NUMBER_OF_EVENT). */
export async function orderNumberOfChange(
  db: Queryable,
  tenantId: string,
  eventId: string,
): Promise<string | null> {
  const [row] = await db.query<{ order_number: string | null }>(
    `select ${ORDER_NUMBER_OF_EVENT} as order_number from account_events e where e.tenant_id = $1 and e.id = $2::uuid`,
    [tenantId, eventId],
  );
  return row?.order_number ?? null;
}

/** The rejections of one account's own changes since `since`, newest first (at most `limit`). */
export async function listRejectedChangesOfUser(
  db: Queryable,
  tenantId: string,
  userId: string,
  options: { since: Date; limit: number },
): Promise<RejectedChange[]> {
  const rows = await db.query<{
    id: string;
    type: string;
    subject_type: string;
    subject_id: string;
    created_at: Date | string;
    acknowledged_at: Date | string;
    reason: LocalizedReason;
    undone: boolean;
    order_number: string | null;
    refund_amount: number | null;
    refund_currency: string | null;
    refund_status: 'due' | 'issued' | 'failed' | null;
  }>(
    `select e.id::text as id, e.type, e.subject_type, e.subject_id, e.created_at, a.acknowledged_at, a.reason,
            coalesce(a.undone, true) as undone, ${ORDER_NUMBER_OF_EVENT} as order_number,
            r.amount::float8 as refund_amount, r.currency as refund_currency, r.status as refund_status
       from change_acknowledgements a
       join account_events e on e.tenant_id = a.tenant_id and e.id = a.event_id
       left join payment_refunds r on r.tenant_id = a.tenant_id and r.rejected_event_id = a.event_id
      where a.tenant_id = $1 and a.status = 'rejected' and e.user_id = $2 and a.acknowledged_at >= $3
      order by a.acknowledged_at desc, e.seq desc
      limit $4`,
    [tenantId, userId, options.since.toISOString(), options.limit],
  );
  return rows.map((row) => ({
    eventId: row.id,
    type: row.type,
    subject: { type: row.subject_type, id: row.subject_id },
    changedAt: new Date(row.created_at).toISOString(),
    rejectedAt: new Date(row.acknowledged_at).toISOString(),
    reason: row.reason,
    undone: row.undone,
    orderNumber: row.order_number,
    refund:
      row.refund_status && row.refund_amount !== null && row.refund_currency
        ? { amount: row.refund_amount, currency: row.refund_currency, status: row.refund_status }
        : null,
  }));
}
