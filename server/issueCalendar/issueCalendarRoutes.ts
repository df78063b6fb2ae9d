import { Router, type RequestHandler, type Response } from 'express';
import type { Database } from '../db/database';
import type { AuthService } from '../auth/authService';
import { currentUser, requireUser } from '../auth/authMiddleware';
import { badRequest, HttpError, notFound } from '../http/errors';
import { checkCapability } from '../../engine/domain/capabilities';
import { calendarWindow, isIsoDay, isPublicationInCalendar } from '../../engine/domain/issueCalendar';
import { requireFeature } from '../tenancy/requireFeature';
import { getSubscriptionForUser } from '../store/subscriptionStore';
import { accountTenant, capabilityContext } from '../subscriptions/accountContext';
import { findCalendarPublication, listCalendarPublications, listIssuesOnSale } from '../store/issueCalendarStore';
import { publicPagesTenant, type PublicPagesTenant } from '../tenancy/tenantSettings';

function calendarTenant(res: Response): PublicPagesTenant {
  const tenant = publicPagesTenant(res);
  requireFeature(tenant, 'issue-calendar');
  return tenant;
}

/** Reads an optional YYYY-MM-DD query value; anything else is a 400 naming the parameter. */
function dayParam(value: unknown, name: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !isIsoDay(value)) {
    throw badRequest('validation_failed', 'The request is not valid.', [{ field: name, message: 'must be a date written YYYY-MM-DD' }]);
  }
  return value;
}

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
 */
export function issueCalendarRoutes(deps: { db: Database; auth: AuthService; now: () => Date }): Router {
  const router = Router();

  router.get('/issue-calendar/publications', async (_req, res) => {
    const tenant = calendarTenant(res);
    const publications = await listCalendarPublications(deps.db, tenant.id);
    res.json(publications.filter((publication) => isPublicationInCalendar(tenant, publication.publication)));
  });

  router.get('/issue-calendar/publications/:clientId/:publication/upcoming-issues', async (req, res) => {
    const tenant = calendarTenant(res);
    const { clientId, publication } = req.params as { clientId: string; publication: string };
    const found = isPublicationInCalendar(tenant, publication)
      ? await findCalendarPublication(deps.db, tenant.id, clientId, publication)
      : undefined;
    if (!found) throw notFound('There is no such publication in the issue calendar.');
    res.json(await listIssuesOnSale(deps.db, tenant.id, found.publication, calendarWindow(deps.now())));
  });

  // §7 lists both calls with the same query; they share ownership, capability and query checks.
  const subscriptionIssues: RequestHandler = async (req, res) => {
    const tenant = calendarTenant(res);
    const subscription = await getSubscriptionForUser(deps.db, tenant.id, currentUser(res).id, String(req.params.id));
    if (!subscription) throw notFound('There is no such subscription on your account.');
    // §6 "issue calendar: active, not time-based, not licence manager": the same capability rule the screen reads.
    const allowed = checkCapability('issueCalendar', subscription, capabilityContext(accountTenant(res))) === 'ok';
    if (!allowed || !isPublicationInCalendar(tenant, subscription.publication)) {
      throw new HttpError(403, 'not_supported', 'The issue calendar is not available for this subscription.');
    }
    const fallback = calendarWindow(deps.now());
    const dateFrom = dayParam(req.query.dateFrom, 'dateFrom') ?? fallback.dateFrom;
    const dateTo = dayParam(req.query.dateTo, 'dateTo') ?? fallback.dateTo;
    const dateType = req.query.dateType;
    // §7: dateType 1 = first sale date, the only date type the portal asks for.
    if (dateType !== undefined && dateType !== '1') {
      throw badRequest('validation_failed', 'The request is not valid.', [{ field: 'dateType', message: 'must be 1 (first sale date)' }]);
    }
    const span = (Date.parse(dateTo) - Date.parse(dateFrom)) / 86_400_000;
    if (span < 0 || span > MAX_WINDOW_DAYS) {
      throw badRequest('validation_failed', 'The request is not valid.', [
        { field: 'dateTo', message: `must be on or after dateFrom and at most ${MAX_WINDOW_DAYS} days later` },
      ]);
    }
    const issues = await listIssuesOnSale(deps.db, tenant.id, subscription.publication, { dateFrom, dateTo });
    res.json(issues.map((issue) => ({ ...issue, subscriptionId: subscription.id, orderNumber: subscription.orderNumber })));
  };
  router.get('/subscriptions/:id/upcoming-issues', requireUser(deps.auth), subscriptionIssues);
  router.get('/subscriptions/:id/issues', requireUser(deps.auth), subscriptionIssues);

  return router;
}
