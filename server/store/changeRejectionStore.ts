/**
 * What the portal's own tables keep of a change the order system rejected (the change feed,
 * docs/going-live.md "4. The change feed"). The order system's records come back through their
 * overlays (orderSystemOverlays.ts revertChangesOf); these rows are the portal's alone, and without
 * this a rejected change would live on in them: a planned holiday service blocking the next one, an
 * offer "already accepted", a pending opt-in whose e-mailed link still switches it on, a cancellation
 * on record. Each runs in the rejection's transaction, with the event's data and time (to the
 * microsecond, as the rows its transaction wrote carry it); a field the data lacks matches nothing.
 */
import type { Queryable } from '../db/database';
import type { RejectedChange } from '../featureManifest';
import { scheduleRefund } from './paymentRefundStore';
import { textOrNull } from './rows';

type Data = Record<string, unknown>;

/**
 * A row written in the event's transaction: its time (now()) is the event's, to the microsecond
 * (RejectedChange.at). A change made a moment later, even within the same millisecond, is another.
 */
const madeWithEvent = (at: string) => `= ${at}::timestamptz`;

/**
 * holiday_service.set rejected: the service it planned (the row made with the event, in its
 * transaction) is not planned, cancelled as of now if the subscriber had not cancelled it, and marked
 * rejected, so a later rejection of its cancellation never plans it again. Something is undone only
 * when it was still planned.
 */
export async function dropRejectedHolidayService(
  tx: Queryable,
  { tenantId, data, at }: RejectedChange,
): Promise<boolean> {
  const taken = await tx.query<{ wasPlanned: boolean }>(
    `update holiday_services h
        set status = case when h.status = 'planned' then 'cancelled' else h.status end,
            cancelled_at = case when h.status = 'planned' then now() else h.cancelled_at end,
            rejected_at = now()
       from (select id, status from holiday_services
              where tenant_id = $1 and subscription_id = $2 and type = $3
                and date_from = $4::date and date_to = $5::date and rejected_at is null
                and created_at ${madeWithEvent('$6')}
              for update) before
      where h.tenant_id = $1 and h.id = before.id
      returning before.status = 'planned' as "wasPlanned"`,
    [
      tenantId,
      textOrNull(data.subscriptionId),
      textOrNull(data.service),
      textOrNull(data.dateFrom),
      textOrNull(data.dateTo),
      at,
    ],
  );
  return taken.some((row) => row.wasPlanned);
}

/**
 * holiday_service.cancelled rejected: the service goes on, so its row is planned again: the one of
 * that type the subscriber cancelled with the event (in its transaction), unless the order system
 * rejected the service itself or another is planned meanwhile.
 */
export async function restoreRejectedHolidayCancellation(
  tx: Queryable,
  { tenantId, data, at }: RejectedChange,
): Promise<boolean> {
  const taken = await tx.query(
    `update holiday_services set status = 'planned', cancelled_at = null
      where tenant_id = $1 and id = (
        select id from holiday_services
         where tenant_id = $1 and subscription_id = $2 and type = $3 and status = 'cancelled'
           and rejected_at is null
           and cancelled_at ${madeWithEvent('$4')}
         order by cancelled_at desc limit 1)
        and not exists (select 1 from holiday_services
                         where tenant_id = $1 and subscription_id = $2 and status = 'planned')
        returning 1`,
    [tenantId, textOrNull(data.subscriptionId), textOrNull(data.service), at],
  );
  return taken.length > 0;
}

/**
 * opt_ins.changed rejected: an opt-in it asked for is not pending any more, and its e-mailed link
 * confirms nothing. An opt-out stays: a withdrawn consent is the subscriber's to give back. Only
 * the request this change made (its row written with the event): one asked for again later, with
 * its own link, waits for its own answer.
 */
export async function dropRejectedOptIns(
  tx: Queryable,
  { tenantId, data, at }: RejectedChange,
): Promise<boolean> {
  const asked = (Array.isArray(data.changes) ? (data.changes as Data[]) : [])
    .filter((change) => change.pending === true)
    .map((change) => textOrNull(change.type))
    .filter((type): type is string => type !== null);
  if (asked.length === 0) return false;
  const taken = await tx.query(
    `update opt_ins set pending = false, confirm_token_hash = null, confirm_expires_at = null, updated_at = now()
      where tenant_id = $1 and bp_number = $2 and type = any($3::text[]) and pending
        and updated_at ${madeWithEvent('$4')}
        returning 1`,
    [tenantId, textOrNull(data.bpNumber), asked, at],
  );
  return taken.length > 0;
}

/** opt_in.confirmed rejected: the opt-ins it confirmed are off again. */
export async function dropRejectedOptInConfirmation(
  tx: Queryable,
  { tenantId, data }: RejectedChange,
): Promise<boolean> {
  const types = (Array.isArray(data.types) ? data.types : []).filter(
    (t): t is string => typeof t === 'string',
  );
  if (types.length === 0) return false;
  const taken = await tx.query(
    `update opt_ins set value = false, pending = false, confirm_token_hash = null, confirm_expires_at = null, updated_at = now()
      where tenant_id = $1 and bp_number = $2 and type = any($3::text[]) and (value or pending)
        returning 1`,
    [tenantId, textOrNull(data.bpNumber), types],
  );
  return taken.length > 0;
}

/**
 * offer.accepted rejected: the acceptance failed, so the offer is open again where its flow offers
 * it: the acceptance of that offer applied by the event's time, not a later one. What the subscriber
 * paid online for it is refunded (its share of the payment; docs/architecture.md "Payments":
 * "Refunds"): due now, asked of the provider by the refund job.
 */
export async function failRejectedAcceptance(
  tx: Queryable,
  { tenantId, eventId, data, at }: RejectedChange,
): Promise<boolean> {
  const taken = await tx.query<{ id: string; paymentId: string | null; paidAmount: number | null }>(
    `update offer_acceptances set status = 'failed'
      where tenant_id = $1 and id = (
        select id from offer_acceptances
         where tenant_id = $1 and subscription_id = $2 and offer_id = $3 and status = 'applied'
           and coalesce(applied_at, created_at) <= $4::timestamptz
         order by coalesce(applied_at, created_at) desc, id desc limit 1)
        returning id, payment_id as "paymentId", paid_amount::float8 as "paidAmount"`,
    [tenantId, textOrNull(data.subscriptionId), textOrNull(data.offerId), at],
  );
  for (const acceptance of taken)
    if (acceptance.paymentId && (acceptance.paidAmount ?? 0) > 0)
      await scheduleRefund(tx, {
        tenantId,
        paymentId: acceptance.paymentId,
        acceptanceId: acceptance.id,
        amount: acceptance.paidAmount!,
        reason: 'change_rejected',
        rejectedEventId: eventId,
      });
  return taken.length > 0;
}

/**
 * complaint.created rejected: the complaint is off the record (the row made with the event, in its
 * transaction), so the issue is not shown as complained about and the complaint does not count
 * towards the year's maximum (account-flows.md §9); the replacement delivery it planned is the order
 * system's row, which its overlay takes back. An e-paper handed out as the compensation cannot be
 * taken back.
 */
export async function dropRejectedComplaint(
  tx: Queryable,
  { tenantId, data, at }: RejectedChange,
): Promise<boolean> {
  const taken = await tx.query(
    `delete from complaints
      where tenant_id = $1 and subscription_id = $2 and issue = $3
        and created_at ${madeWithEvent('$4')}
      returning 1`,
    [tenantId, textOrNull(data.subscriptionId), textOrNull(data.issue), at],
  );
  return taken.length > 0;
}

/**
 * subscription.cancelled rejected: that cancellation is not on record, the master's nor its bundle
 * components' (to the same day); a cancellation to another day is another change's.
 */
export async function dropRejectedCancellation(
  tx: Queryable,
  { tenantId, data }: RejectedChange,
): Promise<boolean> {
  const components = (Array.isArray(data.bundleComponents) ? (data.bundleComponents as Data[]) : [])
    .map((part) => textOrNull(part.subscriptionId))
    .filter((id): id is string => id !== null);
  const taken = await tx.query(
    `delete from cancellations
      where tenant_id = $1 and subscription_id = any($2::text[]) and effective_date = $3::date
        returning 1`,
    [
      tenantId,
      [textOrNull(data.subscriptionId), ...components].filter((id): id is string => id !== null),
      textOrNull(data.effectiveDate),
    ],
  );
  return taken.length > 0;
}

/**
 * subscription.linked rejected: the business partner is not the account's any more, and with it the
 * subscriptions it brought. Only the link this event made (written in its transaction, so at its
 * time): one the account had before, or that a licence's acceptance made, is not this change's.
 */
export async function unlinkRejectedPartner(
  tx: Queryable,
  { tenantId, data, at }: RejectedChange,
): Promise<boolean> {
  const taken = await tx.query(
    `delete from user_business_partners
      where tenant_id = $1 and user_id = $2 and bp_number = $3
        and created_at ${madeWithEvent('$4')}
        returning 1`,
    [tenantId, textOrNull(data.userId), textOrNull(data.bpNumber), at],
  );
  return taken.length > 0;
}

/**
 * loyalty.reward_claimed rejected: the claim is off the member's history, its code and shop link not
 * shown any more. The reward stays used (a reward is claimed once): claiming it again would hand out
 * another code of the pool for the same refusal. The code is handed to nobody else: the member has
 * seen it, and it stays spent.
 */
export async function rejectRewardClaim(tx: Queryable, { tenantId, data }: RejectedChange): Promise<boolean> {
  const taken = await tx.query(
    `update loyalty_claims set rejected_at = now()
      where tenant_id = $1 and user_id = $2 and reward_id = $3 and rejected_at is null
        returning 1`,
    [tenantId, textOrNull(data.userId), textOrNull(data.rewardId)],
  );
  return taken.length > 0;
}

/**
 * loyalty.opted_in rejected: the account is no member, unless it joined or left again since (the
 * row written with the event). An opt-out stays, as a withdrawn consent does.
 */
export async function dropRejectedLoyaltyOptIn(
  tx: Queryable,
  { tenantId, data, at }: RejectedChange,
): Promise<boolean> {
  const taken = await tx.query(
    `update loyalty_members set opted_in = false, changed_at = now()
      where tenant_id = $1 and user_id = $2 and opted_in and changed_at ${madeWithEvent('$3')}
      returning 1`,
    [tenantId, textOrNull(data.userId), at],
  );
  return taken.length > 0;
}

/**
 * loyalty.favorite_changed rejected: a favourite it marked is not one (the row made with the
 * event), one it unmarked is one again (unless marked again since).
 */
export async function revertRejectedFavorite(
  tx: Queryable,
  { tenantId, data, at }: RejectedChange,
): Promise<boolean> {
  const taken =
    data.favorite === true
      ? await tx.query(
          `delete from loyalty_favorites
            where tenant_id = $1 and user_id = $2 and reward_id = $3 and created_at ${madeWithEvent('$4')}
            returning 1`,
          [tenantId, textOrNull(data.userId), textOrNull(data.rewardId), at],
        )
      : await tx.query(
          `insert into loyalty_favorites (tenant_id, user_id, reward_id)
           select $1, u.id, r.id from users u, loyalty_rewards r
            where u.tenant_id = $1 and u.id = $2 and r.tenant_id = $1 and r.id = $3
           on conflict do nothing
           returning 1`,
          [tenantId, textOrNull(data.userId), textOrNull(data.rewardId)],
        );
  return taken.length > 0;
}
