/**
 * The change feed of the operator API (docs/architecture.md "Data and the server": Out): the
 * tenant's account events as pages the order system walks with a cursor, and their
 * acknowledgement — confirmed, or rejected with a reason the subscriber reads on the orders page
 * and is told by e-mail. One transaction per acknowledgement: the decision, its event and its mail.
 */
import type { Database } from '../../db/database';
import { badRequest, HttpError } from '../../http/errors';
import { recordEvent } from '../../events/recordEvent';
import type { EventSubject } from '../../events/eventTypes';
import { enqueueMail } from '../../store/mailQueueStore';
import { confirmChangesOf, revertChangesOf } from '../../store/orderSystemOverlays';
import { getUserById } from '../../store/userStore';
import { maskEventAccounts } from '../../store/accountEventStore';
import {
  findFeedEvent,
  insertAcknowledgement,
  isCursorAhead,
  listFeedEvents,
  orderNumberOfChange,
  type FeedEvent,
  type LocalizedReason,
  type StoredAcknowledgement,
} from '../../store/changeFeedStore';
import type { ServerTenant } from '../../tenancy/tenantContext';
import type { Locale } from '../../../engine/domain/locales';
import type { OperatorChangeQuery } from '../../../schemas/generated/operator-change-query';
import type {
  OperatorChange,
  OperatorChangeAcknowledgementAnswer,
  OperatorChangePage,
} from '../../../schemas/generated/operator-change-page';
import type { OperatorChangeAcknowledgement } from '../../../schemas/generated/operator-change-acknowledgement';
import { changeRejectedMail } from './changeRejectedMail';
import { refundOfRejection } from '../../store/paymentRefundStore';
import { changeAcknowledgements, tenantLabel } from '../../metrics/registry';
import { featureRejections, type ChangeRejection } from '../../featureManifest';
import { SERVER_FEATURES } from '../../features';

// The features' undo per event type (FeatureManifest.rejections), made on first use: server/features.ts
// lists this folder's manifest too, so the list is complete only once every module has loaded.
let rejections: Map<string, ChangeRejection[]> | undefined;
const rejectionsOf = (type: string): ChangeRejection[] =>
  (rejections ??= featureRejections(SERVER_FEATURES)).get(type) ?? [];

export interface ChangeFeedDeps {
  db: Database;
  now: () => Date;
  mailFrom: string;
}

function answerOf(eventId: string, ack: StoredAcknowledgement): OperatorChangeAcknowledgementAnswer {
  return {
    eventId,
    status: ack.status,
    ...(ack.reason ? { reason: ack.reason } : {}),
    ...(ack.mailLocale ? { locale: ack.mailLocale } : {}),
    ...(ack.undone !== null ? { undone: ack.undone } : {}),
    acknowledgedAt: ack.acknowledgedAt,
  };
}

function changeOf(tenantId: string, event: FeedEvent): OperatorChange {
  return {
    cursor: event.cursor,
    status: event.acknowledgement?.status ?? 'pending',
    userId: event.userId,
    subject: event.subject,
    // The same body a webhook endpoint gets (server/events/webhookDeliverer.ts), so one parser serves both.
    event: {
      id: event.id,
      type: event.type,
      tenant: tenantId,
      createdAt: event.createdAt,
      data: event.data as OperatorChange['event']['data'],
    },
    locale: event.locale,
    acknowledgement: event.acknowledgement ? answerOf(event.id, event.acknowledgement) : null,
  };
}

/** `<xact_id>.<seq>` as the store reads it; the query schema has checked its shape. */
function parseCursor(cursor: string): { xactId: string; seq: string } {
  const [xactId, seq] = cursor.split('.');
  return { xactId, seq };
}

export async function listChanges(
  deps: ChangeFeedDeps,
  tenant: ServerTenant,
  query: OperatorChangeQuery,
): Promise<OperatorChangePage> {
  const limit = query.limit ?? 100;
  const after = query.after ? parseCursor(query.after) : undefined;
  if (after && (await isCursorAhead(deps.db, after.xactId)))
    throw badRequest('validation_failed', 'The request is not valid.', [
      {
        field: 'query/after',
        message:
          'names a place the feed has not reached: use the cursor of a change or a page’s nextCursor, or leave it out to start at the beginning',
      },
    ]);
  const { events, hasMore } = await listFeedEvents(deps.db, tenant.id, {
    after,
    limit,
    status: query.status,
  });
  return {
    changes: events.map((event) => changeOf(tenant.id, event)),
    nextCursor: events.at(-1)?.cursor ?? query.after ?? null,
    hasMore,
  };
}

/**
 * A rejection's reason needs one text for every locale of the tenant: the subscriber reads it in
 * whichever language the portal shows, and a text in a language the portal does not offer could
 * never be shown. Every problem at once, named by its pointer.
 */
function reasonProblems(tenant: ServerTenant, reason: LocalizedReason, locale: string | undefined) {
  const problems: Array<{ field: string; message: string }> = [];
  for (const wanted of tenant.locales)
    if (!reason[wanted]?.trim())
      problems.push({
        field: `/reason/${wanted}`,
        message: `is required: one text per locale of the tenant (${tenant.locales.join(', ')})`,
      });
  // The subscriber reads it in a mail and a notice: lines may break, but nothing turns the text
  // around where it is shown ("\u202Egnp.exe" reading as "exe.png").
  for (const [given, text] of Object.entries(reason))
    if (typeof text === 'string' && /[\u202A-\u202E\u2066-\u2069]/.test(text))
      problems.push({
        field: `/reason/${given}`,
        message: 'must not hold bidirectional control characters (U+202A to U+202E, U+2066 to U+2069)',
      });
  for (const given of Object.keys(reason))
    if (!tenant.locales.includes(given as never))
      problems.push({
        field: `/reason/${given}`,
        message: `is not a locale of this tenant (${tenant.locales.join(', ')})`,
      });
  if (locale !== undefined && !tenant.locales.includes(locale as never))
    problems.push({ field: '/locale', message: `must be one of ${tenant.locales.join(', ')}` });
  return problems;
}

const sameReason = (a: LocalizedReason | null, b: LocalizedReason | null) =>
  JSON.stringify(Object.entries(a ?? {}).sort()) === JSON.stringify(Object.entries(b ?? {}).sort());

/** A locale the tenant still offers (a tenant file may have dropped one since the change was made). */
function offeredOrUndefined(tenant: ServerTenant, locale: string | null): Locale | undefined {
  return locale !== null && tenant.locales.includes(locale as Locale) ? (locale as Locale) : undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Events in the feed that record what happened rather than a change the subscriber asked the
 * order system for: a payment the provider settled or refunded, a data export the portal made, a
 * portal account opened (the portal's own record, which takes no change of the order system's:
 * server/events/recordEvent.ts OWN_RECORD_TYPES; the rejections and the started flows are not in
 * the feed at all: FEED_EXCLUDED_TYPES). The order system may confirm them (it has read them),
 * never reject them: the subscriber would be told that "your change" was not accepted about
 * something that was no change of theirs, and nothing would be taken back.
 */
const RECORDS_NOT_CHANGES: ReadonlySet<string> = new Set([
  'payment.settled',
  'payment.refunded',
  'data_export.requested',
  'account.created',
]);

/**
 * Confirms or rejects one change. Idempotent: the same acknowledgement again answers the stored
 * one (`created: false`); a different one after the decision is 409 `acknowledgement_conflict`
 * with the stored one in `details` — a decision is final, the order system corrects it by a new
 * change, never by rewriting what the subscriber was told.
 */
export async function acknowledgeChange(
  deps: ChangeFeedDeps,
  tenant: ServerTenant,
  keyId: string,
  eventId: string,
  body: OperatorChangeAcknowledgement,
): Promise<{ created: boolean; acknowledgement: OperatorChangeAcknowledgementAnswer }> {
  const reason = body.status === 'rejected' ? (body.reason as LocalizedReason) : null;
  if (reason) {
    const problems = reasonProblems(tenant, reason, body.status === 'rejected' ? body.locale : undefined);
    if (problems.length) throw badRequest('validation_failed', 'The request is not valid.', problems);
  }
  const notFound = new HttpError(404, 'not_found', `There is no change ${eventId} in this tenant's feed.`);
  if (!UUID.test(eventId)) throw notFound;
  const answer = await deps.db.transaction(async (tx) => {
    const event = await findFeedEvent(tx, tenant.id, eventId, { lock: true });
    if (!event) throw notFound;
    // The subscriber hears of a rejection in the language the order system names, else in the one
    // they made the change in (server/events/eventLocale.ts), else in the tenant's default.
    const mailLocale =
      body.status === 'rejected'
        ? (body.locale ?? offeredOrUndefined(tenant, event.locale) ?? tenant.defaultLocale)
        : null;
    const stored = event.acknowledgement;
    if (stored) {
      const same =
        stored.status === body.status &&
        sameReason(stored.reason, reason) &&
        (stored.status === 'confirmed' || stored.mailLocale === mailLocale);
      if (same) return { created: false, acknowledgement: answerOf(eventId, stored) };
      throw new HttpError(
        409,
        'acknowledgement_conflict',
        `This change was already ${stored.status} on ${stored.acknowledgedAt}; a decision cannot be changed.`,
        { acknowledgement: answerOf(eventId, stored) },
      );
    }
    if (body.status === 'rejected' && RECORDS_NOT_CHANGES.has(event.type))
      throw new HttpError(
        409,
        'not_a_change',
        `A ${event.type} event records what happened, not a change the subscriber asked for: it can be confirmed, not rejected.`,
      );
    const now = deps.now();
    let rejectionEventId: string | null = null;
    let undone: boolean | null = null;
    // The order system's record is the truth again at once (docs/going-live.md "Whose data is it").
    if (body.status === 'confirmed') await confirmChangesOf(tx, tenant.id, eventId);
    else {
      undone = (await revertChangesOf(tx, tenant.id, eventId)) > 0;
      // And what the feature that made the change keeps of it in the portal's own tables.
      for (const rejection of rejectionsOf(event.type)) {
        const took = await rejection(tx, {
          tenantId: tenant.id,
          eventId,
          data: (event.data ?? {}) as Record<string, unknown>,
          at: event.madeAt,
        });
        undone = took || undone;
      }
    }
    // Answered: the bank account the change carried for the order system is masked from now on.
    await maskEventAccounts(tx, { tenantId: tenant.id, eventId });
    if (reason && mailLocale) {
      rejectionEventId = await recordEvent(
        tx,
        tenant.id,
        'change.rejected',
        {
          userId: event.userId,
          eventId,
          eventType: event.type,
          subject: event.subject as EventSubject,
          reason,
          locale: mailLocale,
        },
        { locale: mailLocale as Locale },
      );
      const user = event.userId ? await getUserById(tx, tenant.id, event.userId) : null;
      if (user) {
        const mail = changeRejectedMail(mailLocale, {
          tenant: tenant.name,
          eventType: event.type,
          changedAt: event.createdAt,
          reason: reason[mailLocale],
          undone: undone ?? false,
          // What was paid online for the change goes back (made due by the rejection above).
          refund: await refundOfRejection(tx, tenant.id, eventId),
          orderNumber: await orderNumberOfChange(tx, tenant.id, eventId),
        });
        await enqueueMail(tx, { tenantId: tenant.id, to: user.email, from: deps.mailFrom, ...mail });
      }
    }
    const acknowledgement: StoredAcknowledgement = {
      status: body.status,
      reason,
      mailLocale,
      keyId,
      acknowledgedAt: now.toISOString(),
      rejectionEventId,
      undone,
    };
    await insertAcknowledgement(tx, tenant.id, eventId, acknowledgement);
    return { created: true, acknowledgement: answerOf(eventId, acknowledgement) };
  });
  // Counted once committed; a repeat of a stored acknowledgement is not a new one.
  if (answer.created) changeAcknowledgements.inc({ tenant: tenantLabel(tenant.id), status: body.status });
  return answer;
}
