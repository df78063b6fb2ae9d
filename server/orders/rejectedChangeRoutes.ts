import { Router } from 'express';
import type { Database } from '../db/database';
import type { AuthService } from '../auth/authService';
import { currentUser, requireUser } from '../auth/authMiddleware';
import { requestTenant } from '../tenancy/tenantContext';
import { requestLocale } from '../tenancy/requestLocale';
import { listRejectedChangesOfUser } from '../store/changeFeedStore';
import type { RejectedChanges } from '../../schemas/generated/rejected-changes';

/** How long the orders page shows a rejection: long enough to be read after a holiday. */
export const REJECTED_CHANGES_SHOWN_DAYS = 90;
/** How many the orders page shows at most, the latest: a notice each, above the subscriptions. */
export const REJECTED_CHANGES_SHOWN = 20;

/**
 * `GET /rejected-changes`: the signed-in account's own changes that the publisher's
 * order system rejected through the change feed, newest first, each reason in the screen's
 * language (the operator gives one per tenant locale). Only the account that made a change sees
 * its rejection. Always on: any flow's change can be rejected, so it belongs to no one feature.
 */
export function rejectedChangeRoutes(deps: { db: Database; auth: AuthService; now: () => Date }): Router {
  const router = Router();
  router.get('/rejected-changes', requireUser(deps.auth), async (req, res) => {
    const tenant = requestTenant(res);
    const locale = requestLocale(req, tenant);
    const since = new Date(deps.now().getTime() - REJECTED_CHANGES_SHOWN_DAYS * 86_400_000);
    const rejected = await listRejectedChangesOfUser(deps.db, tenant.id, currentUser(res).id, {
      since,
      limit: REJECTED_CHANGES_SHOWN,
    });
    const answer: RejectedChanges = rejected.map((change) => ({
      eventId: change.eventId,
      type: change.type,
      changedAt: change.changedAt,
      rejectedAt: change.rejectedAt,
      reason:
        change.reason[locale] ?? change.reason[tenant.defaultLocale] ?? Object.values(change.reason)[0] ?? '',
      undone: change.undone,
      orderNumber: change.orderNumber,
      refund: change.refund,
    }));
    res.json(answer);
  });
  return router;
}
