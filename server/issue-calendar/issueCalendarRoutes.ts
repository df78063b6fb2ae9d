import { Router, type RequestHandler } from 'express';
import type { Database } from '../db/database';
import type { AuthService } from '../auth/authService';
import { currentUser, requireUser } from '../auth/authMiddleware';
import { badRequest } from '../http/errors';
import { validateQuery, validQuery } from '../http/validateBody';
import { calendarWindow, isIssuePaused, isPublicationInCalendar } from '../../engine/domain/issueCalendar';
import {
  AFTER_TERM_END,
  afterTermEndMessage,
  issuesWithinTerm,
  lastDayOfTerm,
  windowWithinTerm,
} from '../../engine/domain/subscriptionTerm';
import type { IssueWindowQuery } from '../../schemas/generated/issue-window-query';
import { refuse, requireCapability } from '../tenancy/refusals';
import type { ApiSlice } from '../tenancy/apiSlice';
import { getSubscriptionForUser } from '../store/subscriptionStore';
import {
  findCalendarPublication,
  listCalendarPublications,
  listIssuesOnSale,
} from '../store/issueCalendarStore';
import { requestLocale } from '../tenancy/requestLocale';
import { requestTenant } from '../tenancy/tenantContext';

/** The longest window a caller may ask for, so one request cannot list a publication's whole history. */
const MAX_WINDOW_DAYS = 366;

/**
 * The issue calendar calls of portal-core.md §7:
 *  - GET /issue-calendar/publications — the tenant's publications for the anonymous picker, without
 *    the tenant-blacklisted ones (§9);
 *  - GET /issue-calendar/publications/{clientId}/{publication}/upcoming-issues — issues on sale from
 *    today to one month ahead (§9 "Calendar window");
 *  - GET /subscriptions/{id}/upcoming-issues?dateFrom&dateTo&dateType=1 — the same for one of the
 *    signed-in user's subscriptions, each issue tagged with its subscription (§3), only when the
 *    subscription may show the calendar (§6) and its publication is not blacklisted;
 *  - GET /subscriptions/{id}/issues?dateFrom&dateTo&dateType=1 — the issues of that subscription in
 *    the asked window (§7), with the same checks and the same query rules.
 * A subscription's issues end with its term (engine/domain/subscriptionTerm.ts): the
 * window is cut at its last day, and one beginning after it is refused.
 * All of them only while the tenant has the issue-calendar feature (gated where it is mounted).
 */
export function issueCalendarSlice(deps: { db: Database; auth: AuthService; now: () => Date }): ApiSlice {
  const router = Router();

  router.get('/issue-calendar/publications', async (_req, res) => {
    const tenant = requestTenant(res);
    const publications = await listCalendarPublications(deps.db, tenant.id);
    res.json(publications.filter((publication) => isPublicationInCalendar(tenant, publication.publication)));
  });

  router.get('/issue-calendar/publications/:clientId/:publication/upcoming-issues', async (req, res) => {
    const tenant = requestTenant(res);
    const { clientId, publication } = req.params as { clientId: string; publication: string };
    const found = isPublicationInCalendar(tenant, publication)
      ? await findCalendarPublication(deps.db, tenant.id, clientId, publication)
      : undefined;
    if (!found) throw refuse.notYours('There is no such publication in the issue calendar.');
    res.json(
      await listIssuesOnSale(deps.db, tenant.id, found.publication, calendarWindow(deps.now()), {
        locale: requestLocale(req, tenant),
      }),
    );
  });

  // §7 lists both calls with the same query; they share ownership, capability and query checks.
  const subscriptionIssues: RequestHandler = async (req, res) => {
    const tenant = requestTenant(res);
    const locale = requestLocale(req, tenant);
    const subscription = await getSubscriptionForUser(
      deps.db,
      tenant.id,
      currentUser(res).id,
      String(req.params.id),
      { locale },
    );
    if (!subscription) throw refuse.notYours('There is no such subscription on your account.');
    // §6 "issue calendar: active, not time-based, not licence manager": the same capability rule the
    // screen reads (403 not_allowed); a publication the tenant keeps out of the calendar is off for it.
    requireCapability('issueCalendar', subscription, tenant);
    if (!isPublicationInCalendar(tenant, subscription.publication))
      throw refuse.featureDisabled(`the issue calendar for ${subscription.publication}`);
    const fallback = calendarWindow(deps.now());
    // Query checked by schemas/api/issue-window-query.schema.json (dates, dateType 1 = first sale date, §7).
    const query = validQuery<IssueWindowQuery>(res);
    const dateFrom = query.dateFrom ?? fallback.dateFrom;
    const dateTo = query.dateTo ?? fallback.dateTo;
    const span = (Date.parse(dateTo) - Date.parse(dateFrom)) / 86_400_000;
    if (span < 0 || span > MAX_WINDOW_DAYS) {
      throw badRequest('validation_failed', 'The request is not valid.', [
        {
          field: 'dateTo',
          message: `must be on or after dateFrom and at most ${MAX_WINDOW_DAYS} days later`,
        },
      ]);
    }
    const end = lastDayOfTerm(subscription);
    const window = windowWithinTerm({ dateFrom, dateTo }, end);
    if (!window)
      throw badRequest('validation_failed', afterTermEndMessage(end!), [
        {
          field: 'dateFrom',
          code: AFTER_TERM_END,
          message: `must be on or before ${end}, the subscription's last day`,
        },
      ]);
    const issues = issuesWithinTerm(
      await listIssuesOnSale(deps.db, tenant.id, subscription.publication, window, { locale }),
      end,
    );
    res.json(
      issues.map((issue) => ({
        ...issue,
        subscriptionId: subscription.id,
        orderNumber: subscription.orderNumber,
        paused: isIssuePaused(subscription.currentSuspension, issue.dateOfFirstSale),
      })),
    );
  };
  router.get(
    '/subscriptions/:id/upcoming-issues',
    requireUser(deps.auth),
    validateQuery('issue-window-query'),
    subscriptionIssues,
  );
  router.get(
    '/subscriptions/:id/issues',
    requireUser(deps.auth),
    validateQuery('issue-window-query'),
    subscriptionIssues,
  );

  return { feature: 'issue-calendar', router };
}
