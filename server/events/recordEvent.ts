import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database';
import type { Locale } from '../../engine/domain/locales';
import { insertAccountEvent, type ActivityEntry } from '../store/accountEventStore';
import { FEED_EXCLUDED_TYPES } from '../store/changeFeedStore';
import { currentScreenLocale } from './eventLocale';
import { eventSubject, eventUserId, type AccountEventData, type AccountEventType } from './eventTypes';

/**
 * Events of the portal's own records, which take no change of the order system's: a new account is
 * the portal's, so the writes of its transaction (a licence accepted, a manager's appointment
 * confirmed) stay for the event of that change, whose rejection takes them back.
 */
const OWN_RECORD_TYPES: readonly string[] = ['account.created'];

/**
 * Records an account event (docs/going-live.md "Account events and webhooks"). Call it with the
 * transaction `tx` of the change it reports —
 * `db.transaction(async (tx) => { change(tx); await recordEvent(tx, …) })` — so a change that
 * rolls back records nothing and a committed change is never without its event
 * (docs/architecture.md "Quality bars": every state-changing call runs in one transaction and is recorded).
 * Nothing is sent here: the webhook deliverer picks the event up after the commit. Answers the event's
 * idempotency id (a random UUID; the id receivers see). A change the account's activity record
 * lists as well (linking, invoice requests, order attributes) passes its `activity` row, written in
 * the event's statement. The event keeps the language of the screen the change was made on
 * (server/events/eventLocale.ts), or `locale` where the caller knows it better.
 */
export async function recordEvent<T extends AccountEventType>(
  tx: Queryable,
  tenantId: string,
  type: T,
  data: AccountEventData<T>,
  options: { activity?: ActivityEntry; locale?: Locale } = {},
): Promise<string> {
  const id = randomUUID();
  // The writes of this change to the order system's records are the portal's pending change on
  // top of them until the order system answers this event (store/orderSystemOverlays.ts).
  await insertAccountEvent(
    tx,
    {
      tenantId,
      id,
      type,
      userId: eventUserId(type, data),
      subject: eventSubject(type, data),
      data,
      locale: options.locale ?? currentScreenLocale() ?? null,
    },
    {
      linkChanges: !FEED_EXCLUDED_TYPES.includes(type) && !OWN_RECORD_TYPES.includes(type),
      activity: options.activity,
    },
  );
  return id;
}
