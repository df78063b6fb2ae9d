/**
 * Holiday service (account-flows.md §2 "Holiday service", §3, §4, §5 "Holiday", §7, §8;
 * portal-core.md §4 holiday types and precedence, §6 capability "holiday service"). Decides with the
 * rules of engine/domain/holidayService.ts and addressRules.ts the screen uses; each change runs in
 * one transaction with its event and confirmation e-mail. The subscription's display fields
 * (activeHolidayServiceType, currentSuspension, currentChangeInfo) follow the planned services.
 */
import type { Database, Queryable } from '../db/database';
import type { Subscription } from '../../schemas/generated/subscription';
import type {
  HolidayIssue,
  HolidayServiceState,
  PlannedHolidayService,
  PostalAddress,
} from '../../schemas/generated/account-changes';
import type { HolidayServiceRequest } from '../../schemas/generated/holiday-service-request';
import { holidayServiceTypes } from '../../engine/domain/capabilities';
import {
  activePlannedService,
  canCancelHolidayService,
  earliestHolidayStart,
  holidayAddressErrors,
  holidayRangeErrors,
  holidayIssueSpan,
  holidaySubmitBlock,
  issuesInsideDates,
  maxDurationWeeks,
  type HolidayServiceType,
} from '../../engine/domain/holidayService';
import {
  AFTER_TERM_END,
  afterTermEndMessage,
  issuesWithinTerm,
  lastDayOfTerm,
  withinTerm,
} from '../../engine/domain/subscriptionTerm';
import { postcodeAsWritten, supportedCountries } from '../../engine/domain/addressRules';
import { isFeatureOn } from '../../engine/domain/tenantFeatures';
import { HttpError, badRequest } from '../http/errors';
import { enqueueMail } from '../store/mailQueueStore';
import { recordEvent } from '../events/recordEvent';
import { listIssuesOnSale } from '../store/issueCalendarStore';
import {
  changeLifecycle,
  getSubscriptionForUser,
  lockSubscription,
  updateSubscription,
} from '../store/subscriptionStore';
import { endHoliday, startHoliday } from '../../engine/domain/lifecycle';
import {
  cancelHolidayServiceRow,
  endPastHolidayServices,
  insertHolidayService,
  partnersOfSubscription,
  plannedHolidayServices,
  type HolidayServiceRow,
} from '../store/accountChangeStore';
import { capabilityContext, refuse, refusedTransition, requireCapability } from '../tenancy/refusals';
import type { ServerTenant } from '../tenancy/tenantContext';
import { changeMail, mailWord } from '../account/changeMails';
import { companySalutations, recipientsInLanguages, type AccountCaller } from '../account/accountContext';
import { formatDate } from '../../engine/domain/dates';
import { utcDay } from '../../engine/domain/dates';

type Caller = AccountCaller;

/** §7 issues window: at most a year. */
const MAX_WINDOW_DAYS = 366;

/** The caller's subscription, where the holiday service is one of its capabilities (portal-core.md §6). */
async function subscriptionOf(tx: Queryable, caller: Caller, id: string): Promise<Subscription> {
  const s = await getSubscriptionForUser(tx, caller.tenant.id, caller.user.id, id, {
    locale: caller.locale,
  });
  if (!s) throw refuse.notYours('There is no such subscription on your account.');
  requireCapability('holidayService', s, caller.tenant);
  return s;
}

/** The answer after a change replaces the stored subscription on screen: in the screen's language. */
async function subscriptionAfterChange(db: Database, caller: Caller, id: string): Promise<Subscription> {
  return (await getSubscriptionForUser(db, caller.tenant.id, caller.user.id, id, { locale: caller.locale }))!;
}

function plannedView(row: HolidayServiceRow, today: string, s?: Subscription): PlannedHolidayService {
  const view: PlannedHolidayService = {
    type: row.type,
    dateFrom: row.dateFrom,
    dateTo: row.dateTo,
    fromIssueNumber: row.issueNumberFrom,
    toIssueNumber: row.issueNumberTo,
    // The holiday address is the recipient's: a gift's giver sees that there is a redirect, not where to.
    address: s && !s.roles.includes('WE') ? null : row.address,
    isCancellable: canCancelHolidayService(
      { type: row.type, dateFrom: row.dateFrom, dateTo: row.dateTo, firstIssueShipping: row.firstShipping },
      today,
    ),
  };
  if (row.type === 'break')
    Object.assign(view, {
      suspendedFromIssueNr: row.issueNumberFrom,
      suspendedToIssueNr: row.issueNumberTo,
    });
  if (row.type === 'download')
    Object.assign(view, {
      futureMixTypeFromIssueNr: row.issueNumberFrom,
      futureMixTypeToIssueNr: row.issueNumberTo,
    });
  return view;
}

/** The subscription's display fields after a change, by §4's precedence. */
async function syncDisplay(tx: Queryable, tenantId: string, s: Subscription, today: string): Promise<void> {
  // The record is written from the rows here: the one this change planned is not on it yet.
  const services = await plannedHolidayServices(tx, tenantId, s.id, today, { onRecord: false });
  const pause = services.find((x) => x.type === 'break');
  const download = services.find((x) => x.type === 'download');
  await updateSubscription(tx, tenantId, s.id, {
    details: {
      activeHolidayServiceType: activePlannedService(services)?.type ?? null,
      currentSuspension: pause ? { suspendedFromDate: pause.dateFrom, suspendedToDate: pause.dateTo } : null,
      currentChangeInfo: download
        ? { futureMixTypeToIssueNr: download.issueNumberTo ?? download.dateTo }
        : null,
    },
  });
}

/** The issues a service's dates pick (inside its dates), none after the subscription's end. */
async function issuesIn(
  tx: Queryable,
  tenant: ServerTenant,
  s: Subscription,
  dates: { dateFrom: string; dateTo: string },
  today: string,
): Promise<HolidayIssue[]> {
  const onSale = await listIssuesOnSale(tx, tenant.id, s.publication, dates);
  const issues = issuesWithinTerm(issuesInsideDates(onSale, dates), lastDayOfTerm(s));
  return issues.map((issue) => ({
    issue: issue.issue,
    issueNumber: issue.issueNumber ?? null,
    dateOfFirstSale: issue.dateOfFirstSale,
    dateOfFirstShipping: issue.dateOfFirstShipping ?? null,
    shipped: (issue.dateOfFirstShipping ?? issue.dateOfFirstSale) <= today,
  }));
}

/** §2 "a date range picking issues": at most a year, its end not before its start nor after the term. */
function checkIssueWindow(s: Subscription, window: { dateFrom: string; dateTo: string }): void {
  if (window.dateTo < window.dateFrom)
    throw badRequest('validation_failed', 'dateTo lies before dateFrom.', {
      fields: { dateTo: 'before_start' },
    });
  if (Date.parse(window.dateTo) - Date.parse(window.dateFrom) > MAX_WINDOW_DAYS * 86_400_000)
    throw badRequest('validation_failed', 'At most a year at a time.', { fields: { dateTo: 'too_long' } });
  // No day after the subscription's end can be asked for (the screen's picker stops there).
  const end = lastDayOfTerm(s);
  if (end !== null && !withinTerm(window.dateTo, end)) {
    throw badRequest('validation_failed', afterTermEndMessage(end), {
      fields: withinTerm(window.dateFrom, end)
        ? { dateTo: AFTER_TERM_END }
        : { dateFrom: AFTER_TERM_END, dateTo: AFTER_TERM_END },
    });
  }
}

/**
 * The request's dates and, for a redirect, its address, checked by the rules the setup form shows
 * (engine/domain/holidayService.ts, addressRules.ts); the redirect's address when all hold.
 */
function checkedRequest(
  tenant: ServerTenant,
  s: Subscription,
  body: HolidayServiceRequest,
  today: string,
): PostalAddress | null {
  const type = body.service;
  const fields: Record<string, string> = {};
  const termEnd = lastDayOfTerm(s);
  const weeks = maxDurationWeeks(tenant.holidayService, type, s.publication);
  for (const error of holidayRangeErrors(
    { type, dateFrom: body.dateFrom, dateTo: body.dateTo },
    { today, weeks, termEnd },
  ))
    fields[error.field] = error.code;
  const address = type === 'redirect' ? (body.businessPartner ?? null) : null;
  if (type === 'redirect' && !address) fields.businessPartner = 'required';
  if (address) {
    const errors = holidayAddressErrors(address, {
      addressLines: isFeatureOn(tenant, 'address-lines'),
      companySalutations: companySalutations(tenant),
      emailRequired: false,
      today,
    });
    for (const error of errors) fields[`businessPartner/${error.field}`] ??= error.code;
    if (
      address.countryCode &&
      !supportedCountries(tenant.defaultLocale, ['WE']).includes(address.countryCode)
    )
      fields['businessPartner/countryCode'] = 'not_supported';
  }
  if (Object.keys(fields).length > 0) {
    const afterEnd = termEnd !== null && Object.values(fields).includes(AFTER_TERM_END);
    throw badRequest(
      'validation_failed',
      afterEnd ? afterTermEndMessage(termEnd) : 'Please check the holiday service.',
      { fields },
    );
  }
  // A UK postcode as it is written (capitals, one space), whichever way it was typed.
  return address?.zipcode
    ? { ...address, zipcode: postcodeAsWritten(address.zipcode, address.countryCode) }
    : address;
}

const alreadyPlanned = () =>
  new HttpError(
    409,
    'holiday_service_active',
    'A holiday service is planned already: cancel it before setting up another.',
  );

/** The issues a new service concerns: inside its dates and still to come, by the rule the screen sends them by. */
async function concernedIssues(
  tx: Queryable,
  tenant: ServerTenant,
  s: Subscription,
  dates: { dateFrom: string; dateTo: string },
  today: string,
) {
  const issues = await issuesIn(tx, tenant, s, dates, today);
  const block = holidaySubmitBlock(issues, today);
  if (block)
    throw badRequest(
      block,
      block === 'no_issues'
        ? 'No issue appears in this period.'
        : 'The issues in this period have already been dispatched.',
    );
  const first = issues.find((issue) => !issue.shipped)!;
  return {
    ...holidayIssueSpan(issues, today, dates),
    firstShipping: first.dateOfFirstShipping ?? first.dateOfFirstSale,
  };
}

/** The confirmation mail (account-flows.md §8), to the account and to the goods recipient on record. */
async function confirm(
  tx: Queryable,
  mailFrom: string,
  caller: Caller,
  s: Subscription,
  kind: 'holidaySet' | 'holidayCancelled',
  type: HolidayServiceType,
  range?: { from: string; to: string },
) {
  const mailIn = (locale: Caller['locale']) =>
    changeMail(kind, locale, {
      tenant: caller.tenant.name,
      subscription: s.displayName,
      orderNumber: s.orderNumber,
      service: mailWord(locale, type),
      from: range ? formatDate(range.from, locale) : '',
      to: range ? formatDate(range.to, locale) : '',
    });
  // The goods recipient's address on record hears of it too (a redirect changes where copies go),
  // in the publisher's language when it is someone else's (a gift's recipient).
  const goodsRecipient = (await partnersOfSubscription(tx, caller.tenant.id, s.id, caller.user.id)).find(
    (p) => p.roles.includes('WE'),
  );
  for (const { to, locale } of recipientsInLanguages(
    { email: caller.user.email, locale: caller.locale },
    { email: goodsRecipient?.emailAddress ?? null, locale: caller.tenant.defaultLocale },
  ))
    await enqueueMail(tx, { tenantId: caller.tenant.id, to, from: mailFrom, ...mailIn(locale) });
}

export function createHolidayService(deps: { db: Database; mailFrom: string; now: () => Date }) {
  const { db } = deps;

  return {
    /** GET /subscriptions/{id}/holiday-service: the offered types, the planned service (active view) or none (setup form). */
    async state(caller: Caller, id: string): Promise<HolidayServiceState> {
      const s = await subscriptionOf(db, caller, id);
      const today = utcDay(deps.now());
      const planned = activePlannedService(await plannedHolidayServices(db, caller.tenant.id, s.id, today));
      const weeks = (type: HolidayServiceType) =>
        maxDurationWeeks(caller.tenant.holidayService, type, s.publication);
      return {
        types: holidayServiceTypes(s, capabilityContext(caller.tenant)),
        planned: planned ? plannedView(planned, today, s) : null,
        maxWeeks: { redirect: weeks('redirect'), break: weeks('break'), download: weeks('download') },
        earliestStart: earliestHolidayStart(today),
      };
    },

    /** GET /subscriptions/{id}/holiday-service/issues: the issues a date range picks (§2 "a date range picking issues"). */
    async issues(
      caller: Caller,
      id: string,
      window: { dateFrom: string; dateTo: string },
    ): Promise<HolidayIssue[]> {
      const s = await subscriptionOf(db, caller, id);
      checkIssueWindow(s, window);
      return issuesIn(db, caller.tenant, s, window, utcDay(deps.now()));
    },

    /** POST /subscriptions/{id}/holiday-service: sets up one service; the updated subscription. */
    async set(caller: Caller, id: string, body: HolidayServiceRequest): Promise<Subscription> {
      const { tenant } = caller;
      const today = utcDay(deps.now());
      await db.transaction(async (tx) => {
        await lockSubscription(tx, tenant.id, id);
        const s = await subscriptionOf(tx, caller, id);
        const type = body.service;
        if (!holidayServiceTypes(s, capabilityContext(tenant)).includes(type))
          throw refuse.featureDisabled(`holiday-${type} for ${s.publication}`);
        await endPastHolidayServices(tx, tenant.id, s.id, today);
        if ((await plannedHolidayServices(tx, tenant.id, s.id, today)).length > 0) throw alreadyPlanned();
        const address = checkedRequest(tenant, s, body, today);
        const dates = { dateFrom: body.dateFrom, dateTo: body.dateTo };
        const { issueNumberFrom, issueNumberTo, firstShipping } = await concernedIssues(
          tx,
          tenant,
          s,
          dates,
          today,
        );
        // A break suspends the subscription: a lifecycle transition (inside the term, not in the past).
        if (type === 'break') {
          const result = await changeLifecycle(
            tx,
            tenant.id,
            s.id,
            (state) => startHoliday(state, { from: body.dateFrom, to: body.dateTo, today }),
            { userId: caller.user.id, locale: tenant.defaultLocale },
          );
          if (!result.ok) throw refusedTransition(result.refusal);
        }
        const inserted = await insertHolidayService(tx, tenant.id, {
          subscriptionId: s.id,
          userId: caller.user.id,
          type,
          ...dates,
          issueNumberFrom,
          issueNumberTo,
          firstShipping,
          address,
        });
        if (!inserted) throw alreadyPlanned();
        await syncDisplay(tx, tenant.id, s, today);
        await recordEvent(tx, tenant.id, 'holiday_service.set', {
          userId: caller.user.id,
          subscriptionId: s.id,
          orderNumber: s.orderNumber,
          service: type,
          ...dates,
          issueNumberFrom,
          issueNumberTo,
          // Where a redirect sends the copies: the order system needs it to carry the redirect out.
          address,
        });
        await confirm(tx, deps.mailFrom, caller, s, 'holidaySet', type, {
          from: body.dateFrom,
          to: body.dateTo,
        });
      });
      return subscriptionAfterChange(db, caller, id);
    },

    /** POST /subscriptions/{id}/holiday-service/cancel: only where §4 allows it; the updated subscription. */
    async cancel(caller: Caller, id: string, service: HolidayServiceType): Promise<Subscription> {
      const { tenant } = caller;
      const today = utcDay(deps.now());
      await db.transaction(async (tx) => {
        await lockSubscription(tx, tenant.id, id);
        const s = await subscriptionOf(tx, caller, id);
        await endPastHolidayServices(tx, tenant.id, s.id, today);
        const row = (await plannedHolidayServices(tx, tenant.id, s.id, today)).find(
          (x) => x.type === service,
        );
        // Cancelled meanwhile (another tab), or never planned: a code of its own, so the page
        // says so and shows the state as it is now.
        if (!row)
          throw new HttpError(
            404,
            'holiday_service_not_planned',
            'There is no such holiday service planned.',
          );
        if (!plannedView(row, today).isCancellable)
          throw new HttpError(409, 'not_cancellable', 'This holiday service can no longer be cancelled.');
        await cancelHolidayServiceRow(tx, tenant.id, row.id);
        if (service === 'break') {
          const result = await changeLifecycle(tx, tenant.id, s.id, endHoliday, {
            userId: caller.user.id,
            locale: tenant.defaultLocale,
          });
          if (!result.ok) throw refusedTransition(result.refusal);
        }
        await syncDisplay(tx, tenant.id, s, today);
        await recordEvent(tx, tenant.id, 'holiday_service.cancelled', {
          userId: caller.user.id,
          subscriptionId: s.id,
          orderNumber: s.orderNumber,
          service,
        });
        await confirm(tx, deps.mailFrom, caller, s, 'holidayCancelled', service);
      });
      return subscriptionAfterChange(db, caller, id);
    },
  };
}

export type HolidayServiceService = ReturnType<typeof createHolidayService>;
