/**
 * SQL of the account events and their webhook deliveries (migration 007,
 * docs/going-live.md "Account events and webhooks"). Services write events through
 * server/events/recordEvent.ts inside their own transaction; the deliverer
 * (server/events/webhookDeliverer.ts) dispatches them into delivery rows and claims, attempts and
 * settles those, and disables an endpoint that answers 410 Gone; `portal events` lists events,
 * deliveries and disabled endpoints. Writes are tenant-scoped; the deliverer's claims read across
 * the tenants the instance serves, as the mail sender does.
 */
import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../db/database';
import { LINK_CHANGES_SELECT, LINK_CHANGES_WITH } from './orderSystemOverlays';
import { maskBankAccount } from '../../engine/domain/iban';

export interface NewAccountEvent {
  tenantId: string;
  /** The idempotency id (a random UUID). */
  id: string;
  type: string;
  userId: string | null;
  subject: { type: string; id: string };
  data: unknown;
  /** The language of the screen the change was made on; null where none was named (migration 051). */
  locale?: string | null;
}

/**
 * A row of the account's activity record (account_activity, the data export's "activity"), written
 * with the event that reports the same change.
 */
export interface ActivityEntry {
  userId: string;
  action: string;
  subjectId?: string;
  details?: Record<string, unknown>;
}

/**
 * Writes one event. Pass the transaction of the change, so both commit or neither. With
 * `linkChanges`, the same statement names it as the event of the transaction's changes to the order
 * system's records (store/orderSystemOverlays.ts); with `activity`, it also writes the activity
 * record's row: one round trip for all of them, since each round trip to the database costs a
 * write (docs/testing.md "Tests and measurements").
 */
export async function insertAccountEvent(
  tx: Queryable,
  event: NewAccountEvent,
  options: { linkChanges?: boolean; activity?: ActivityEntry } = {},
): Promise<void> {
  const insert = `insert into account_events (tenant_id, id, type, user_id, subject_type, subject_id, data, locale)
    values ($1, $2::uuid, $3, $4, $5, $6, $7::jsonb, $8)`;
  const params: unknown[] = [
    event.tenantId,
    event.id,
    event.type,
    event.userId,
    event.subject.type,
    event.subject.id,
    JSON.stringify(event.data),
    event.locale ?? null,
  ];
  const parts: string[] = [];
  const { activity } = options;
  if (activity) {
    parts.push(`activity as (
      insert into account_activity (tenant_id, user_id, action, subject_id, details)
      values ($1, $9, $10, $11, $12::jsonb))`);
    params.push(
      activity.userId,
      activity.action,
      activity.subjectId ?? null,
      JSON.stringify(activity.details ?? {}),
    );
  }
  if (options.linkChanges) parts.push(`event as (${insert})`, LINK_CHANGES_WITH);
  const sql = options.linkChanges
    ? `with ${parts.join(', ')} ${LINK_CHANGES_SELECT}`
    : parts.length > 0
      ? `with ${parts.join(', ')} ${insert}`
      : insert;
  await tx.query(sql, params);
}

// --- dispatch: events -> delivery rows ----------------------------------------------------------

export interface UndispatchedEvent {
  tenantId: string;
  id: string;
  type: string;
}

/**
 * Locks up to `limit` events of these tenants that have no delivery rows yet, oldest first. Call
 * inside a transaction that then writes their deliveries and marks them dispatched: `skip locked`
 * lets other instances dispatch other events meanwhile instead of waiting.
 */
export async function lockUndispatchedEvents(
  tx: Queryable,
  tenantIds: readonly string[],
  limit: number,
): Promise<UndispatchedEvent[]> {
  const rows = await tx.query<{ tenant_id: string; id: string; type: string }>(
    `select tenant_id, id::text as id, type from account_events
      where dispatched_at is null and tenant_id = any($1::text[])
      order by seq
      limit $2
      for update skip locked`,
    [tenantIds, limit],
  );
  return rows.map((row) => ({ tenantId: row.tenant_id, id: row.id, type: row.type }));
}

/** One delivery row per event and endpoint; a pair that exists already is left as it is. */
export async function insertDeliveries(
  tx: Queryable,
  deliveries: ReadonlyArray<{ tenantId: string; eventId: string; url: string }>,
): Promise<void> {
  if (deliveries.length === 0) return;
  await tx.query(
    `insert into webhook_deliveries (tenant_id, event_id, endpoint_url)
     select * from unnest($1::text[], $2::uuid[], $3::text[])
     on conflict do nothing`,
    [deliveries.map((d) => d.tenantId), deliveries.map((d) => d.eventId), deliveries.map((d) => d.url)],
  );
}

export async function markDispatched(tx: Queryable, events: readonly UndispatchedEvent[]): Promise<void> {
  if (events.length === 0) return;
  await tx.query(
    `update account_events e set dispatched_at = clock_timestamp()
       from unnest($1::text[], $2::uuid[]) as k(tenant_id, id)
      where e.tenant_id = k.tenant_id and e.id = k.id`,
    [events.map((e) => e.tenantId), events.map((e) => e.id)],
  );
}

// --- deliveries ---------------------------------------------------------------------------------

export interface ClaimedDelivery {
  tenantId: string;
  eventId: string;
  url: string;
  /** Attempts including this one. */
  attempts: number;
  claimToken: string;
  type: string;
  data: unknown;
  /** When the event was recorded (ISO). */
  createdAt: string;
}

/**
 * Claims up to `limit` due deliveries of these tenants for `leaseMs`, with their events. As the
 * mail queue (server/store/mailQueueStore.ts): due-ness and leases use the database's clock, shared by
 * every instance; `for update skip locked` keeps two instances from taking the same row, and the
 * lease keeps it away from others after this statement commits — so one attempt at a time per
 * event and endpoint — and hands it back when the claiming instance dies.
 */
export async function claimDueDeliveries(
  db: Queryable,
  options: { tenantIds: readonly string[]; limit: number; leaseMs: number },
): Promise<ClaimedDelivery[]> {
  const claimToken = randomUUID();
  const rows = await db.query<{
    tenant_id: string;
    event_id: string;
    endpoint_url: string;
    attempts: number;
    type: string;
    data: unknown;
    created_at: Date;
  }>(
    `with claimed as (
       update webhook_deliveries d
          set claim_token = $1, claimed_until = clock_timestamp() + $2 * interval '1 millisecond',
              attempts = d.attempts + 1, last_attempt_at = clock_timestamp()
        where (d.tenant_id, d.event_id, d.endpoint_url) in (
          select tenant_id, event_id, endpoint_url from webhook_deliveries
           where state = 'pending' and next_attempt_at <= clock_timestamp()
             and (claimed_until is null or claimed_until < clock_timestamp())
             and tenant_id = any($4::text[])
             and not exists (select 1 from webhook_disabled_endpoints x
                              where x.tenant_id = webhook_deliveries.tenant_id and x.endpoint_url = webhook_deliveries.endpoint_url)
           order by next_attempt_at, created_at
           limit $3
           for update skip locked)
       returning d.tenant_id, d.event_id, d.endpoint_url, d.attempts)
     select c.tenant_id, c.event_id::text as event_id, c.endpoint_url, c.attempts, e.type, e.data, e.created_at
       from claimed c join account_events e on e.tenant_id = c.tenant_id and e.id = c.event_id`,
    [claimToken, options.leaseMs, options.limit, options.tenantIds],
  );
  return rows.map((row) => ({
    tenantId: row.tenant_id,
    eventId: row.event_id,
    url: row.endpoint_url,
    attempts: Number(row.attempts),
    claimToken,
    type: row.type,
    data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data,
    createdAt: new Date(row.created_at).toISOString(),
  }));
}

const claimed = `tenant_id = $1 and event_id = $2 and endpoint_url = $3 and claim_token = $4`;
const keyOf = (row: ClaimedDelivery) => [row.tenantId, row.eventId, row.url, row.claimToken];

/** The endpoint answered 2xx. False when the lease was lost (another instance owns the row now). */
export async function markDelivered(db: Queryable, row: ClaimedDelivery, status: number): Promise<boolean> {
  const updated = await db.query(
    `update webhook_deliveries
        set state = 'delivered', done_at = clock_timestamp(), claim_token = null, claimed_until = null, last_status = $5, last_error = null
      where ${claimed} returning 1`,
    [...keyOf(row), status],
  );
  return updated.length > 0;
}

/**
 * A failed attempt: try again in `retryInMs`, unless that would be later than `retryForMs` after
 * the delivery row was written — then (or when retryInMs is null) it is given up as `failed`.
 * Answers the state the row is left in, or null when the lease was lost.
 */
export async function markAttemptFailed(
  db: Queryable,
  row: ClaimedDelivery,
  outcome: { status: number | null; error: string; retryInMs: number | null; retryForMs: number },
): Promise<'pending' | 'failed' | null> {
  const updated = await db.query<{ state: 'pending' | 'failed' }>(
    `update webhook_deliveries
        set state = case when give_up then 'failed' else 'pending' end,
            next_attempt_at = case when give_up then next_attempt_at else clock_timestamp() + $7::bigint * interval '1 millisecond' end,
            done_at = case when give_up then clock_timestamp() else null end,
            claim_token = null, claimed_until = null, last_status = $5, last_error = $6
       from (select $7::bigint is null
                    or created_at + $8::bigint * interval '1 millisecond' < clock_timestamp() + $7::bigint * interval '1 millisecond' as give_up
               from webhook_deliveries where ${claimed}) as decision
      where ${claimed}
      returning state`,
    [...keyOf(row), outcome.status, outcome.error.slice(0, 1000), outcome.retryInMs, outcome.retryForMs],
  );
  return updated[0]?.state ?? null;
}

// --- endpoints disabled by 410 Gone (migration 021) -------------------------------------------

/** Why a delivery to a disabled endpoint was not attempted, as `portal events` shows it. */
export const DISABLED_ENDPOINT_ERROR =
  'not sent: the endpoint answered 410 Gone and is disabled (portal webhooks enable, or a new URL in the tenant file, turns it back on)';

/**
 * The endpoint answered 410 Gone: in one transaction this delivery fails with that answer, the
 * endpoint is recorded as disabled, and its other pending deliveries fail too, so no instance
 * attempts another. A row claimed by another instance at this moment keeps its one attempt.
 * False when this instance's lease was lost (then nothing is written).
 */
export async function disableEndpoint(
  db: Database,
  row: ClaimedDelivery,
  outcome: { status: number; error: string },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const updated = await tx.query(
      `update webhook_deliveries
          set state = 'failed', done_at = clock_timestamp(), claim_token = null, claimed_until = null, last_status = $5, last_error = $6
        where ${claimed} returning 1`,
      [...keyOf(row), outcome.status, outcome.error.slice(0, 1000)],
    );
    if (updated.length === 0) return false;
    await tx.query(
      `insert into webhook_disabled_endpoints (tenant_id, endpoint_url, status, event_id) values ($1, $2, $3, $4)
       on conflict (tenant_id, endpoint_url) do update set disabled_at = now(), status = excluded.status, event_id = excluded.event_id`,
      [row.tenantId, row.url, outcome.status, row.eventId],
    );
    await failDeliveriesToDisabledEndpoints(tx, [row.tenantId]);
    return true;
  });
}

/**
 * Pending deliveries to disabled endpoints (left from before the 410, or of events dispatched
 * since) fail at once, unclaimed ones only, with DISABLED_ENDPOINT_ERROR. The deliverer runs it
 * every round; cheap while webhook_disabled_endpoints is empty, as it mostly is.
 */
export async function failDeliveriesToDisabledEndpoints(
  db: Queryable,
  tenantIds: readonly string[],
): Promise<number> {
  const rows = await db.query(
    `update webhook_deliveries d
        set state = 'failed', done_at = clock_timestamp(), last_error = $2
       from webhook_disabled_endpoints x
      where d.tenant_id = x.tenant_id and d.endpoint_url = x.endpoint_url
        and d.state = 'pending' and d.tenant_id = any($1::text[])
        and (d.claimed_until is null or d.claimed_until < clock_timestamp())
      returning 1`,
    [tenantIds, DISABLED_ENDPOINT_ERROR],
  );
  return rows.length;
}

/** Turns a disabled endpoint back on (`portal webhooks enable`). False when it was not disabled. */
export async function enableEndpoint(db: Queryable, tenantId: string, url: string): Promise<boolean> {
  const rows = await db.query(
    `delete from webhook_disabled_endpoints where tenant_id = $1 and endpoint_url = $2 returning 1`,
    [tenantId, url],
  );
  return rows.length > 0;
}

export interface DisabledEndpoint {
  tenantId: string;
  url: string;
  disabledAt: string;
  status: number;
  eventId: string;
}

/** Disabled endpoints of one tenant or of all, newest first. */
export async function listDisabledEndpoints(
  db: Queryable,
  options: { tenantId?: string } = {},
): Promise<DisabledEndpoint[]> {
  const rows = await db.query<{
    tenant_id: string;
    endpoint_url: string;
    disabled_at: Date;
    status: number;
    event_id: string;
  }>(
    `select tenant_id, endpoint_url, disabled_at, status, event_id::text as event_id from webhook_disabled_endpoints
      where ($1::text is null or tenant_id = $1)
      order by disabled_at desc, tenant_id, endpoint_url`,
    [options.tenantId ?? null],
  );
  return rows.map((row) => ({
    tenantId: row.tenant_id,
    url: row.endpoint_url,
    disabledAt: new Date(row.disabled_at).toISOString(),
    status: Number(row.status),
    eventId: row.event_id,
  }));
}

/** Deliveries of an endpoint the tenant file no longer lists are given up at once. */
export async function markEndpointGone(db: Queryable, row: ClaimedDelivery, error: string): Promise<void> {
  await db.query(
    `update webhook_deliveries set state = 'failed', done_at = clock_timestamp(), claim_token = null, claimed_until = null, last_error = $5
      where ${claimed}`,
    [...keyOf(row), error],
  );
}

// --- listing (portal events) --------------------------------------------------------------------

export interface DeliveryState {
  url: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
}

export interface ListedEvent {
  id: string;
  tenantId: string;
  type: string;
  userId: string | null;
  subject: { type: string; id: string };
  createdAt: string;
  /** False until the deliverer has written the event's delivery rows. */
  dispatched: boolean;
  deliveries: DeliveryState[];
}

/** The newest `limit` events (of one tenant, or of all), newest first, each with its deliveries. */
export async function listAccountEvents(
  db: Queryable,
  options: { tenantId?: string; limit: number },
): Promise<ListedEvent[]> {
  const rows = await db.query<{
    id: string;
    tenant_id: string;
    type: string;
    user_id: string | null;
    subject_type: string;
    subject_id: string;
    created_at: Date;
    dispatched: boolean;
    deliveries: Array<{
      url: string;
      state: DeliveryState['state'];
      attempts: number;
      last_status: number | null;
      last_error: string | null;
      last_attempt_at: string | null;
      next_attempt_at: string | null;
    }>;
  }>(
    `select e.id::text as id, e.tenant_id, e.type, e.user_id, e.subject_type, e.subject_id, e.created_at,
            e.dispatched_at is not null as dispatched,
            coalesce((select jsonb_agg(jsonb_build_object(
                               'url', d.endpoint_url, 'state', d.state, 'attempts', d.attempts, 'last_status', d.last_status,
                               'last_error', d.last_error, 'last_attempt_at', d.last_attempt_at,
                               'next_attempt_at', case when d.state = 'pending' then d.next_attempt_at end)
                             order by d.endpoint_url)
                        from webhook_deliveries d where d.tenant_id = e.tenant_id and d.event_id = e.id), '[]'::jsonb) as deliveries
       from account_events e
      where ($1::text is null or e.tenant_id = $1)
      order by e.seq desc
      limit $2`,
    [options.tenantId ?? null, options.limit],
  );
  const iso = (value: string | null) => (value ? new Date(value).toISOString() : null);
  return rows.map((row) => ({
    id: row.id,
    tenantId: row.tenant_id,
    type: row.type,
    userId: row.user_id,
    subject: { type: row.subject_type, id: row.subject_id },
    createdAt: new Date(row.created_at).toISOString(),
    dispatched: row.dispatched,
    deliveries: row.deliveries.map((d) => ({
      url: d.url,
      state: d.state,
      attempts: Number(d.attempts),
      lastStatus: d.last_status,
      lastError: d.last_error,
      lastAttemptAt: iso(d.last_attempt_at),
      nextAttemptAt: iso(d.next_attempt_at),
    })),
  }));
}

/** How long an event keeps a bank account whole when the order system does not answer its change. */
export const UNANSWERED_ACCOUNT_DAYS = 30;

/** An event's `account` still whole (neither number masked yet). */
const WHOLE_ACCOUNT = `(e.data ? 'account' and (position('•' in coalesce(e.data->'account'->>'iban', '•')) = 0
                                        or position('•' in coalesce(e.data->'account'->>'debitAccountNumber', '•')) = 0))`;

/**
 * Masks the bank account an event carries for the order system (payment_method.changed `account`,
 * docs/going-live.md "Payment details the order system needs"): of one event once the order system
 * answered its change, or of every event older than `before` it has not answered. Answers how many.
 */
export async function maskEventAccounts(
  db: Queryable,
  which: { tenantId: string; eventId: string } | { before: string },
): Promise<number> {
  const rows = await db.query<{ tenant_id: string; id: string; account: Record<string, unknown> }>(
    'eventId' in which
      ? `select e.tenant_id, e.id::text, e.data->'account' as account from account_events e
          where e.tenant_id = $1 and e.id = $2::uuid and ${WHOLE_ACCOUNT}`
      : `select e.tenant_id, e.id::text, e.data->'account' as account from account_events e
          where e.type = 'payment_method.changed' and e.created_at < $1 and ${WHOLE_ACCOUNT}`,
    'eventId' in which ? [which.tenantId, which.eventId] : [which.before],
  );
  for (const row of rows)
    await db.query(
      `update account_events set data = jsonb_set(data, '{account}', $3::jsonb) where tenant_id = $1 and id = $2::uuid`,
      [row.tenant_id, row.id, JSON.stringify(maskBankAccount(row.account))],
    );
  return rows.length;
}
