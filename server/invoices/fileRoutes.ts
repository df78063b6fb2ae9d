/**
 * GET /files/{key}: the file behind a download key (§3 "Download response: url and key"). A new tab
 * carries no x-auth-token, so the unguessable, short-lived key is the credential; it was made for
 * one user, and that user's right to the subscription or order is checked again when serving.
 */
import { Router } from 'express';
import type { Database } from '../db/database';
import { notFound } from '../http/errors';
import { findDownloadKey } from '../store/accountStore';
import { findDeliveredIssue, listPurchaseOrdersForUser } from '../store/orderStore';
import { getSubscriptionForUser } from '../store/subscriptionStore';
import { accountTenant } from '../subscriptions/accountContext';
import { issuePdf, purchaseOrderPdf, giftCertificatePdf } from './documents';

export function fileRoutes(deps: { db: Database; now: () => Date }): Router {
  const router = Router();
  router.get('/files/:key', async (req, res) => {
    const tenant = accountTenant(res);
    const grant = await findDownloadKey(deps.db, tenant.id, String(req.params.key), deps.now());
    if (!grant) throw notFound('This download link has expired. Please start the download again.');
    let pdf: Buffer | null = null;
    if (grant.kind === 'purchase_order') {
      const [order] = await listPurchaseOrdersForUser(deps.db, tenant.id, grant.userId, grant.subjectId);
      if (order) pdf = purchaseOrderPdf(tenant, order);
    } else {
      const subscription = await getSubscriptionForUser(deps.db, tenant.id, grant.userId, grant.subjectId);
      if (subscription && grant.kind === 'delivered_issue') {
        const issue = await findDeliveredIssue(deps.db, tenant.id, subscription.id, grant.item);
        if (issue) pdf = issuePdf(tenant, subscription, issue);
      } else if (subscription) {
        pdf = giftCertificatePdf(tenant, subscription);
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
