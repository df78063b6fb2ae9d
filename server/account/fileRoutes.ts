/**
 * GET /files/{key}: the file behind a download key (§3 "Download response: url and key"). The key
 * alone is not enough (a bare key would serve anyone holding it): the request must carry the
 * session (x-auth-token) of the user the key was made for, the key works once and for 10 minutes,
 * and that user's right to the subscription or order is checked again when serving. The portal
 * fetches the file through its API client and hands the browser the bytes (engine/features/orders/
 * useFileDownload.ts). Every refusal — no session, an ended session, another user's, a spent or
 * expired key — is the same 404, so a key's owner cannot be probed.
 */
import { Router, type Request, type Response } from 'express';
import { AUTH_HEADER } from '../../engine/domain/httpHeaders';
import type { AuthService } from '../auth/authService';
import type { Database } from '../db/database';
import { HttpError, notFound } from '../http/errors';
import { requestTenant, tenantContext } from '../tenancy/tenantContext';
import { consumeDownloadKey } from '../store/accountStore';
import { findDeliveredIssue, listPurchaseOrdersForUser } from '../store/orderStore';
import { getSubscriptionForUser } from '../store/subscriptionStore';
import { issuePdf, purchaseOrderPdf, giftCertificatePdf } from '../documents/documents';
import { requestLocale } from '../tenancy/requestLocale';

const EXPIRED = 'This download link has expired. Please start the download again.';

export function fileRoutes(deps: { db: Database; auth: AuthService; now: () => Date }): Router {
  const router = Router();

  /** The signed-in user of the request, or undefined for none, an ended session or another tenant's. */
  async function sessionUserId(req: Request, res: Response): Promise<string | undefined> {
    const header = req.headers[AUTH_HEADER];
    try {
      return (
        await deps.auth.authenticate(tenantContext(res).tenant, Array.isArray(header) ? header[0] : header)
      ).id;
    } catch (error) {
      if (error instanceof HttpError && error.status === 401) return undefined;
      throw error;
    }
  }

  router.get('/files/:key', async (req, res) => {
    // Express answers HEAD with this GET route: a prefetch or link checker must not spend the
    // single-use key before the download itself.
    if (req.method === 'HEAD') {
      res.status(405).set('allow', 'GET').end();
      return;
    }
    const tenant = requestTenant(res);
    const userId = await sessionUserId(req, res);
    if (!userId) throw notFound(EXPIRED);
    const grant = await consumeDownloadKey(deps.db, tenant.id, String(req.params.key), userId, deps.now());
    if (!grant) throw notFound(EXPIRED);
    let pdf: Buffer | null = null;
    // The file in the subscriber's language: the portal fetches it with the screen's Accept-Language (or ?lang=).
    const locale = requestLocale(req, tenant, req.query.lang);
    if (grant.kind === 'purchase_order') {
      const [order] = await listPurchaseOrdersForUser(deps.db, tenant.id, grant.userId, grant.subjectId, {
        locale,
      });
      if (order) pdf = await purchaseOrderPdf(tenant, locale, order);
    } else {
      const subscription = await getSubscriptionForUser(deps.db, tenant.id, grant.userId, grant.subjectId, {
        locale,
      });
      if (subscription && grant.kind === 'delivered_issue') {
        const issue = await findDeliveredIssue(deps.db, tenant.id, subscription.id, grant.item, { locale });
        if (issue) pdf = await issuePdf(tenant, locale, subscription, issue);
      } else if (subscription) {
        pdf = await giftCertificatePdf(tenant, locale, subscription);
      }
    }
    if (!pdf) throw notFound('This file is no longer available.');
    res
      .type('application/pdf')
      .set('content-disposition', `inline; filename="${grant.fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"`)
      .set('cache-control', 'private, no-store')
      .send(pdf);
  });
  return router;
}
