/**
 * Cancellation (account-flows.md §2 "Cancellation screen", §4 "Cancellation", §5, §7, §8;
 * portal-core.md §4: order status AK). Decides with the same engine/domain rules the screen uses;
 * the cancel runs in one transaction with its account event and confirmation e-mail.
 *
 * Dates: a subscription cancellable regularly (its minimum term is over) offers the issues on sale
 * from the notice period on, up to half a year; one that is not offers only "the earliest possible
 * date" (issueNumber null), which the server sets to the end of its minimum term.
 */
import type { Database, Queryable } from '../db/database';
import type { Locale } from '../../engine/domain/locales';
import type {
  CancellationInfos,
  CancellationIssue,
  CancellationReason,
  CancelAnswer,
} from '../../schemas/generated/offers';
import type { CancelRequest } from '../../schemas/generated/cancel-request';
import type { Subscription } from '../../schemas/generated/subscription';
import {
  cancelFormErrors,
  cancellationStart,
  cancellationType,
  isCancellableRegularly,
} from '../../engine/domain/cancellation';
import { canRevokeCancellation, isBundleMaster } from '../../engine/domain/capabilities';
import { HttpError, badRequest } from '../http/errors';
import { enqueueMail } from '../store/mailQueueStore';
import { recordEvent } from '../events/recordEvent';
import { listIssuesOnSale } from '../store/issueCalendarStore';
import {
  bundleComponentsOf,
  changeLifecycle,
  failAcceptancesOfPayments,
  getSubscriptionForUser,
  loadLifecycle,
  lockSubscription,
  subscriptionDetailFields,
} from '../store/subscriptionStore';
import { listCancellationReasons } from '../store/offerStore';
import { cancelPendingPayments, type PaymentRow } from '../store/paymentStore';
import {
  cancel as cancelLifecycle,
  endWithBundle,
  currentPeriodEnd,
  renewedUntil,
} from '../../engine/domain/lifecycle';
import { issuesWithinTerm, lastDayOfTerm } from '../../engine/domain/subscriptionTerm';
import { refuse, refusedTransition, requireCapability } from '../tenancy/refusals';
import type { ServerTenant } from '../tenancy/tenantContext';
import { externallyManaged, type OfferService } from '../offers/offerService';
import { cancellationMail } from './cancellationMail';
import { wordsIn } from '../../engine/domain/language';
import { utcDay } from '../../engine/domain/dates';
import { recordFlowStartQuietly } from '../insights/flowStarts';
import { experimentAssignment } from '../../engine/domain/offerExperiments';

/** Notice period before the first possible date, and how far ahead dates are offered. */
export const CANCELLATION_NOTICE_DAYS = 14;
export const CANCELLATION_HORIZON_DAYS = 183;

const addDays = (day: string, days: number) =>
  utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000));

/** The minimum term's end, kept with the subscription in the order system (`details.minimumTermEnd`). */
export async function minimumTermEnd(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
): Promise<string | null> {
  const details = await subscriptionDetailFields(db, tenantId, subscriptionId, ['minimumTermEnd']);
  return typeof details?.minimumTermEnd === 'string' ? details.minimumTermEnd : null;
}

interface Caller {
  tenant: ServerTenant;
  user: { id: string; email: string };
  locale: Locale;
}

/** The start checks of §4 and §8, the same as the screen's: already cancelled, externally managed, then the §6 rule. */
export function requireCancellable(s: Subscription, tenant: ServerTenant): void {
  const start = cancellationStart(s);
  if (start === 'already_cancelled')
    throw new HttpError(409, 'already_cancelled', 'This subscription is already cancelled.');
  if (start === 'externally_managed') throw externallyManaged(s);
  requireCapability('cancellation', s, tenant);
}

export function createCancellationService(deps: {
  db: Database;
  mailFrom: string;
  now: () => Date;
  offers: OfferService;
  /** Stops a voided payment's page at its provider once the cancellation is committed (server/payments/paymentPages.ts). */
  paymentPages?: { stopPage(tenant: ServerTenant, payment: PaymentRow): Promise<void> };
}) {
  const { db } = deps;

  async function subscriptionOf(tx: Queryable, caller: Caller, id: string): Promise<Subscription> {
    const s = await getSubscriptionForUser(tx, caller.tenant.id, caller.user.id, id, {
      locale: caller.locale,
    });
    if (!s) throw refuse.notYours('There is no such subscription on your account.');
    return s;
  }

  async function reasonsOf(
    tx: Queryable,
    tenant: ServerTenant,
    s: Subscription,
    locale: Locale,
  ): Promise<CancellationReason[]> {
    const rows = await listCancellationReasons(tx, tenant.id, s.publication);
    return rows.map((r) => ({
      cancelReason: r.code,
      longDescription: wordsIn(r.descriptions, locale) ?? r.code,
    }));
  }

  /**
   * What the lifecycle says of the dates: the end of the term a renewal bought, while it runs
   * (engine/domain/lifecycle.ts renewedUntil), the one date a cancellation then takes effect on;
   * and the natural end of what the subscriber has now (currentPeriodEnd).
   */
  async function paidTerms(tx: Queryable, tenant: ServerTenant, s: Subscription, today: string) {
    const state = await loadLifecycle(tx, tenant.id, s.id);
    return {
      paidUntil: state ? renewedUntil(state, today) : null,
      periodEnd: state ? currentPeriodEnd(state) : null,
    };
  }

  /** An extraordinary termination's day: the minimum term's end, else the notice period's. */
  function earliestEnd(termEnd: string | null, today: string): string {
    return termEnd && termEnd > today ? termEnd : addDays(today, CANCELLATION_NOTICE_DAYS);
  }

  /**
   * The dates of §3 "Cancellation infos": none after the end of the term (engine/domain/subscriptionTerm.ts
   * issuesWithinTerm); a term that ends within the notice period is cancelled to its end, and so is
   * a renewed term while its renewal runs (`paidUntil`, engine/domain/lifecycle.ts renewedUntil).
   * The last issue of the period paid for, or of the term, is offered too, marked so, when it
   * comes after the next issues (a yearly subscription of a daily paper: its dates would otherwise
   * end two weeks into a year the subscriber has paid for).
   */
  async function datesOf(
    tx: Queryable,
    tenant: ServerTenant,
    s: Subscription,
    termEnd: string | null,
    today: string,
    { paidUntil, periodEnd }: Awaited<ReturnType<typeof paidTerms>>,
  ): Promise<CancellationInfos['issues']> {
    // Before the minimum term's end, only an extraordinary termination: on its one day (§4 "the
    // earliest possible date"), which the screens name before the subscriber confirms it.
    const earliest = isCancellableRegularly(termEnd, today) ? null : earliestEnd(termEnd, today);
    if (paidUntil !== null)
      return [
        { issueNumber: null, dateOfFirstSale: earliest && earliest > paidUntil ? earliest : paidUntil },
      ];
    if (earliest !== null) return [{ issueNumber: null, dateOfFirstSale: earliest }];
    const end = lastDayOfTerm(s);
    const from = addDays(today, CANCELLATION_NOTICE_DAYS);
    // A term that ends within the notice period can only be cancelled to its end.
    if (end !== null && end < from)
      return end >= today ? [{ issueNumber: s.renewal?.expiryIssueNr ?? null, dateOfFirstSale: end }] : [];
    const issues = issuesWithinTerm(
      await listIssuesOnSale(tx, tenant.id, s.publication, {
        dateFrom: from,
        dateTo: addDays(today, CANCELLATION_HORIZON_DAYS),
      }),
      end,
    );
    // A publication without a calendar (digital only) ends on a date: the end of the notice period.
    if (issues.length === 0) return [{ issueNumber: null, dateOfFirstSale: from }];
    const dates: CancellationInfos['issues'] = issues.slice(0, 12).map((issue) => ({
      issueNumber: issue.issueNumber ?? issue.issue,
      dateOfFirstSale: issue.dateOfFirstSale,
    }));
    if (periodEnd === null || periodEnd.day < from) return dates;
    const last = issuesWithinTerm(
      await listIssuesOnSale(tx, tenant.id, s.publication, { dateFrom: from, dateTo: periodEnd.day }),
      end,
    ).at(-1);
    if (!last) return dates;
    const issueNumber = last.issueNumber ?? last.issue;
    const listed = dates.find((d) => d.issueNumber === issueNumber);
    if (listed) listed.endOf = periodEnd.of;
    else if (last.dateOfFirstSale! > dates[dates.length - 1].dateOfFirstSale!)
      dates.push({ issueNumber, dateOfFirstSale: last.dateOfFirstSale, endOf: periodEnd.of });
    return dates;
  }

  return {
    async reasons(caller: Caller, id: string): Promise<CancellationReason[]> {
      const s = await subscriptionOf(db, caller, id);
      requireCancellable(s, caller.tenant);
      return reasonsOf(db, caller.tenant, s, caller.locale);
    },

    async infos(caller: Caller, id: string, reason: string): Promise<CancellationInfos> {
      const s = await subscriptionOf(db, caller, id);
      requireCancellable(s, caller.tenant);
      const reasons = await reasonsOf(db, caller.tenant, s, caller.locale);
      if (!reasons.some((r) => r.cancelReason === reason))
        throw badRequest('validation_failed', 'Unknown cancellation reason.', {
          fields: { cancellationReason: 'unknown' },
        });
      const today = utcDay(deps.now());
      const termEnd = await minimumTermEnd(db, caller.tenant.id, s.id);
      const regular = isCancellableRegularly(termEnd, today);
      // An offer whose payment page expired unpaid is open again.
      await deps.offers.expireStalePayments(caller.tenant, [s.id]);
      const recommendations = await deps.offers.retentionOffers(
        db,
        caller.tenant,
        s,
        reason,
        caller.locale,
        caller.user.id,
      );
      const paid = await paidTerms(db, caller.tenant, s, today);
      const issues = await datesOf(db, caller.tenant, s, termEnd, today, paid);
      // The retention insights' "flow started" with the offers shown.
      await recordFlowStartQuietly(
        db,
        {
          tenantId: caller.tenant.id,
          userId: caller.user.id,
          subscription: s,
          flow: 'cancellation',
          reason,
          offerIds: recommendations.map((r) => r.id),
          experiment:
            experimentAssignment(caller.tenant, 'cancellation', reason, caller.user.id)?.assignment ?? null,
        },
        deps.now(),
      );
      return { cancellable: regular, issues, recommendations, renewedUntil: paid.paidUntil };
    },

    /** POST /subscriptions/{id}/cancel: order status AK, isCancelable cleared, once (a second call is refused cleanly). */
    async cancel(caller: Caller, id: string, body: CancelRequest): Promise<CancelAnswer> {
      const { tenant } = caller;
      let voided: PaymentRow[] = [];
      const answer = await db.transaction(async (tx) => {
        await lockSubscription(tx, tenant.id, id);
        const s = await subscriptionOf(tx, caller, id);
        requireCancellable(s, tenant);
        const reasons = await reasonsOf(tx, tenant, s, caller.locale);
        if (reasons.length === 0)
          throw new HttpError(
            409,
            'cancellation_not_possible',
            'This subscription cannot be cancelled online.',
          );
        if (!reasons.some((r) => r.cancelReason === body.reason))
          throw badRequest('validation_failed', 'Unknown cancellation reason.', {
            fields: { reason: 'unknown' },
          });
        const today = utcDay(deps.now());
        const termEnd = await minimumTermEnd(tx, tenant.id, s.id);
        const regular = isCancellableRegularly(termEnd, today);
        const input = {
          reason: body.reason,
          issue: body.issue ?? null,
          reasonText: body.reasonText,
          feedback: tenant.cancellation.feedbackForm ? body.feedback : undefined,
        };
        const errors = cancelFormErrors(input, regular);
        if (errors.length > 0) {
          throw badRequest('validation_failed', 'Please check the cancellation.', {
            fields: Object.fromEntries(errors.map((e) => [e.field, e.code])),
          });
        }
        // The date must be one the infos offer (a regular one), or the earliest possible date.
        const dates = await datesOf(tx, tenant, s, termEnd, today, await paidTerms(tx, tenant, s, today));
        let effectiveDate: string;
        let issueNumber: string | null = null;
        let endOf: CancellationIssue['endOf'];
        if (regular) {
          const chosen = dates.find(
            (d) =>
              d.issueNumber === body.issue?.issueNumber && d.dateOfFirstSale === body.issue?.dateOfFirstSale,
          );
          if (!chosen || !chosen.dateOfFirstSale)
            throw badRequest('validation_failed', 'Please choose one of the offered dates.', {
              fields: { issue: 'invalid' },
            });
          effectiveDate = chosen.dateOfFirstSale;
          issueNumber = chosen.issueNumber;
          endOf = chosen.endOf;
        } else {
          // The one day the infos offered (datesOf).
          effectiveDate = dates[0].dateOfFirstSale!;
        }
        const type = cancellationType(regular);
        const words = {
          reason: body.reason,
          reasonText: regular ? null : (body.reasonText ?? '').trim(),
          feedback: input.feedback?.trim() || null,
        };
        // The one way a subscription is cancelled (engine/domain/lifecycle.ts): AK, isCancelable
        // cleared, the end and last issue those of the cancellation, offers waiting for a payment void.
        const result = await changeLifecycle(
          tx,
          tenant.id,
          s.id,
          (state) => cancelLifecycle(state, { type, effectiveDate, issueNumber, today }),
          {
            userId: caller.user.id,
            locale: tenant.defaultLocale,
            cancellation: words,
          },
        );
        if (!result.ok) throw refusedTransition(result.refusal);
        // A bundle ends whole: its components are not managed on their own (portal-core.md §2) and
        // end with the master, on its end, until the order system says how it ended them. Only the
        // components the master names (store/subscriptionStore.ts bundleComponentsOf) that the
        // caller orders; each locked, in id order (no other flow locks a component together with
        // its master: they take no offers).
        const components =
          isBundleMaster(s) && s.bundle?.bundleNumber
            ? await bundleComponentsOf(tx, tenant.id, caller.user.id, {
                id: s.id,
                bundleNumber: s.bundle.bundleNumber,
              })
            : [];
        for (const part of components) {
          await lockSubscription(tx, tenant.id, part.id);
          await changeLifecycle(
            tx,
            tenant.id,
            part.id,
            (state) => endWithBundle(state, { end: effectiveDate }),
            {
              userId: caller.user.id,
              locale: tenant.defaultLocale,
            },
          );
        }
        // The cancellation's event first: it names the changes made so far (the subscription's and its
        // components' ends), so rejecting it takes them back (server/store/orderSystemOverlays.ts).
        await recordEvent(tx, tenant.id, 'subscription.cancelled', {
          userId: caller.user.id,
          subscriptionId: s.id,
          orderNumber: s.orderNumber,
          reason: body.reason,
          type,
          effectiveDate,
          issueNumber,
          // What the portal keeps of the cancellation, for the order system's own record.
          reasonText: words.reasonText,
          feedback: words.feedback,
          // The offer experiment variant the subscriber was in, for receivers and the insights.
          experiment:
            experimentAssignment(tenant, 'cancellation', body.reason, caller.user.id)?.assignment ?? null,
          // The order system learns in the same event which components end with the master.
          ...(components.length > 0 && {
            bundleComponents: components.map((part) => ({
              subscriptionId: part.id,
              orderNumber: part.orderNumber,
            })),
          }),
        });
        // An offer still waiting for its payment is void now: its payment page stops working, and
        // what else the payment waited for (a bulk renewal's other subscriptions) fails with it.
        voided = await cancelPendingPayments(
          tx,
          tenant.id,
          result.changes[0].voidedPayments ?? [],
          'subscription_cancelled',
        );
        const others = await failAcceptancesOfPayments(
          tx,
          tenant.id,
          voided.map((payment) => payment.id),
        );
        for (const payment of voided) {
          const subscriptionIds = [...new Set([s.id, ...(others.get(payment.id) ?? [])])];
          await recordEvent(tx, tenant.id, 'payment.settled', {
            userId: payment.userId,
            paymentId: payment.id,
            status: 'canceled',
            amount: payment.amount,
            currency: payment.currency,
            subscriptionIds,
          });
        }
        const revocable = canRevokeCancellation({ ...s, orderStatus: 'AK', isCancelable: false }, { tenant });
        const mail = cancellationMail(caller.locale, {
          tenant: tenant.name,
          subscription: s.displayName,
          orderNumber: s.orderNumber,
          effectiveDate,
          issueNumber,
          endOf,
          exceptional: !regular,
          revocable,
          dateStyle: tenant.cancellation.dateStyle,
        });
        await enqueueMail(tx, { tenantId: tenant.id, to: caller.user.email, from: deps.mailFrom, ...mail });
        return { type, effectiveDate, issueNumber, ...(endOf && { endOf }) };
      });
      // A hosted provider's page of a voided payment would still take the money (refunded later):
      // stopped there now, without holding up the answer.
      for (const payment of voided) void deps.paymentPages?.stopPage(tenant, payment);
      return answer;
    },
  };
}

export type CancellationService = ReturnType<typeof createCancellationService>;
