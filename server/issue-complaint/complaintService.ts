/**
 * Issue complaints (account-flows.md §2 "Complaint", §3, §4, §5, §7, §8, §9; portal-core.md §6
 * capability "issue complaint"). The compensation really happens: a download answers a file the user
 * can fetch (a single-use download key), a complimentary issue or a replacement is recorded as a
 * delivery the subscription page lists. One complaint per issue; at most COMPLAINTS_PER_YEAR a year.
 */
import type { Database, Queryable } from '../db/database';
import type { Response } from 'express';
import type { Subscription } from '../../schemas/generated/subscription';
import type { CompensationAnswer, ComplaintState } from '../../schemas/generated/account-changes';
import type { CompensationRequest } from '../../schemas/generated/compensation-request';
import {
  ADDRESS_CHANGE_WINDOW_DAYS,
  COMPLAINTS_PER_YEAR,
  REPLACEMENT_DELIVERY_DAYS,
  compensationOptionsFor,
  eligibleComplaintIssues,
  type CompensationOption,
} from '../../engine/domain/complaint';
import { isFeatureOn } from '../../engine/domain/tenantFeatures';
import { addDaysIso } from '../../engine/domain/holidayService';
import { HttpError, badRequest, notFound } from '../http/errors';
import { enqueueMail } from '../store/mailQueueStore';
import { recordEvent } from '../events/recordEvent';
import { createDownloadKey } from '../store/accountStore';
import { getSubscriptionForUser, lockSubscription } from '../store/subscriptionStore';
import {
  complainedIssues,
  complaintsSince,
  goodsRecipientAddressChanged,
  insertComplaint,
  insertCompensationDelivery,
  latestDeliveredIssues,
} from '../store/accountChangeStore';
import { refuse, requireCapability } from '../tenancy/refusals';
import type { ServerTenant } from '../tenancy/tenantContext';
import { fileUrl, type AccountCaller } from '../account/accountContext';
import { changeMail, mailWord } from '../account/changeMails';
import { localizedRow } from '../store/localizedDetails';
import { utcDay } from '../../engine/domain/dates';
import { textsIn } from '../texts/serverTexts';

export function createComplaintService(deps: { db: Database; mailFrom: string; now: () => Date }) {
  const { db } = deps;

  async function subscriptionOf(tx: Queryable, caller: AccountCaller, id: string): Promise<Subscription> {
    const s = await getSubscriptionForUser(tx, caller.tenant.id, caller.user.id, id, {
      locale: caller.locale,
    });
    if (!s) throw refuse.notYours('There is no such subscription on your account.');
    requireCapability('issueComplaint', s, caller.tenant);
    return s;
  }

  const eligible = async (tx: Queryable, tenantId: string, s: Subscription) =>
    eligibleComplaintIssues(
      await latestDeliveredIssues(tx, tenantId, s.id, Math.max(0, s.mixTypeDetails.complaintIssues)),
      s.mixTypeDetails.complaintIssues,
    );

  const maxReached = async (tx: Queryable, tenantId: string, s: Subscription) =>
    (await complaintsSince(tx, tenantId, s.id, new Date(deps.now().getTime() - 365 * 86_400_000))) >=
    COMPLAINTS_PER_YEAR;

  function options(
    tenant: ServerTenant,
    s: Subscription,
    issue: { dateOfFirstSale: string | null; latest: boolean },
  ): CompensationOption[] {
    return compensationOptionsFor(tenant.issueComplaint.compensationOptions as CompensationOption[], issue, {
      hasEpaper: isFeatureOn(tenant, 'issue-download', s.publication),
      today: utcDay(deps.now()),
    });
  }

  /** The eligible issue the request names, or 404 / 409 (§8: a complaint exists already). */
  async function issueOf(tx: Queryable, tenantId: string, s: Subscription, issue: string) {
    const issues = await eligible(tx, tenantId, s);
    const index = issues.findIndex((x) => x.issue === issue);
    if (index < 0) throw notFound('A complaint can only be about one of the latest delivered issues.');
    const found = { ...issues[index], latest: index === 0 };
    if ((await complainedIssues(tx, tenantId, s.id)).has(issue))
      throw new HttpError(409, 'complaint_exists', 'There is a complaint about this issue already.');
    return found;
  }

  return {
    /** GET /subscriptions/{id}/complaint: the eligible issues, the reasons, and whether the yearly maximum is reached. */
    async state(caller: AccountCaller, id: string): Promise<ComplaintState> {
      const s = await subscriptionOf(db, caller, id);
      const done = await complainedIssues(db, caller.tenant.id, s.id);
      return {
        // Issue names in the screen's language.
        issues: (await eligible(db, caller.tenant.id, s)).map((x) => ({
          ...localizedRow(x, caller.locale),
          complained: done.has(x.issue),
        })),
        reasons: [...caller.tenant.issueComplaint.reasons],
        maxReached: await maxReached(db, caller.tenant.id, s),
      };
    },

    /** POST …/delivered-issues/compensation-options: the options for one eligible issue (empty: contact, §8). */
    async options(caller: AccountCaller, id: string, issue: string): Promise<CompensationOption[]> {
      const s = await subscriptionOf(db, caller, id);
      return options(caller.tenant, s, await issueOf(db, caller.tenant.id, s, issue));
    },

    /** POST …/delivered-issues/request-compensation: records the complaint and gives the compensation, in one transaction. */
    async request(
      caller: AccountCaller,
      res: Response,
      id: string,
      body: CompensationRequest,
    ): Promise<CompensationAnswer> {
      const { tenant } = caller;
      return db.transaction(async (tx) => {
        await lockSubscription(tx, tenant.id, id);
        const s = await subscriptionOf(tx, caller, id);
        if (await maxReached(tx, tenant.id, s))
          throw new HttpError(
            409,
            'complaint_limit_reached',
            'The maximum number of complaints for this subscription is reached.',
          );
        const issue = await issueOf(tx, tenant.id, s, body.issue);
        if (!(tenant.issueComplaint.reasons as string[]).includes(body.complaintReason))
          throw badRequest('validation_failed', 'Unknown complaint reason.', {
            fields: { complaintReason: 'invalid' },
          });
        if (!options(tenant, s, issue).includes(body.compensationOption)) {
          throw badRequest('validation_failed', 'This compensation is not available for this issue.', {
            fields: { compensationOption: 'invalid' },
          });
        }
        const today = utcDay(deps.now());
        const expectedBy =
          body.compensationOption === 'download' ? null : addDaysIso(today, REPLACEMENT_DELIVERY_DAYS);
        // account-flows.md §3 "Complaint record also carries an address-changed flag": for customer
        // service, whether the copy may have gone to an address the recipient was just leaving — a
        // postal change that took effect in the four weeks up to the issue's sale day.
        const saleDay = issue.dateOfFirstSale ?? today;
        const addressChanged = await goodsRecipientAddressChanged(tx, tenant.id, s.id, {
          from: addDaysIso(saleDay, -ADDRESS_CHANGE_WINDOW_DAYS),
          to: saleDay,
        });
        if (
          !(await insertComplaint(tx, tenant.id, {
            subscriptionId: s.id,
            userId: caller.user.id,
            issue: issue.issue,
            reason: body.complaintReason,
            compensation: body.compensationOption,
            expectedBy,
            addressChanged,
          }))
        ) {
          throw new HttpError(409, 'complaint_exists', 'There is a complaint about this issue already.');
        }
        let url: string | null = null;
        if (body.compensationOption === 'download') {
          const fileName = `${s.publication}-${(issue.issueNumber ?? issue.issue).replace(/[^A-Za-z0-9]+/g, '-')}.pdf`;
          const key = await createDownloadKey(
            tx,
            tenant.id,
            { kind: 'delivered_issue', subjectId: s.id, item: issue.issue, fileName, userId: caller.user.id },
            deps.now(),
          );
          url = fileUrl(res, key);
        } else {
          // Worded in every language of the tenant, like the order system's own issue names.
          const labelIn = (locale: string) =>
            textsIn(locale, 'issue-complaint')('compensation.replacementFor', {
              issue: localizedRow(issue, locale).description ?? issue.issueNumber ?? issue.issue,
            });
          const translations = Object.fromEntries(
            tenant.locales
              .filter((locale) => locale !== tenant.defaultLocale)
              .map((locale) => [locale, { description: labelIn(locale) }]),
          );
          await insertCompensationDelivery(tx, tenant.id, {
            subscriptionId: s.id,
            issue: `C-${issue.issue}`,
            issueNumber: issue.issueNumber,
            description: labelIn(tenant.defaultLocale),
            date: expectedBy!,
            translations,
          });
        }
        await recordEvent(tx, tenant.id, 'complaint.created', {
          userId: caller.user.id,
          subscriptionId: s.id,
          orderNumber: s.orderNumber,
          issue: issue.issue,
          reason: body.complaintReason,
          compensation: body.compensationOption,
          addressChanged,
        });
        const mail = changeMail('complaint', caller.locale, {
          tenant: tenant.name,
          subscription: s.displayName,
          orderNumber: s.orderNumber,
          // The issue by its number in the reader's language, like the screens label it.
          issue: issue.issueNumber
            ? mailWord(caller.locale, 'issue', { number: issue.issueNumber })
            : (localizedRow(issue, caller.locale).description ?? issue.issue),
          compensation: mailWord(
            caller.locale,
            body.compensationOption === 'download' ? 'download_compensation' : body.compensationOption,
          ),
        });
        await enqueueMail(tx, { tenantId: tenant.id, to: caller.user.email, from: deps.mailFrom, ...mail });
        return { url, compensationOption: body.compensationOption, expectedBy };
      });
    },
  };
}

export type ComplaintService = ReturnType<typeof createComplaintService>;
