/**
 * Purchase orders, pending orders and publications (portal-core.md §2 "Orders page", §7):
 * GET /purchase-orders, GET /purchase-orders/{id}/download, POST /purchase-orders/{id}/invoices/request,
 * GET /pending-orders (only when the tenant supports them), GET /publications, and GET /rejected-changes
 * (rejectedChangeRoutes.ts).
 */
import { Router } from 'express';
import type { Database } from '../db/database';
import { currentUser, requireUser } from '../auth/authMiddleware';
import type { AuthService } from '../auth/authService';
import { HttpError } from '../http/errors';
import { validateQuery, validQuery } from '../http/validateBody';
import type { InvoiceRequestQuery } from '../../schemas/generated/invoice-request-query';
import type { PurchaseOrderDownloadQuery } from '../../schemas/generated/purchase-order-download-query';
import type { InvoiceRequests } from '../account/invoiceRequests';
import { canRequestPurchaseOrderInvoice, purchaseOrderDownload } from '../../engine/domain/purchaseOrders';
import { invoiceRequestOutcome } from '../../engine/domain/paymentHistory';
import { createDownloadKey } from '../store/accountStore';
import {
  listPendingOrdersForUser,
  listPublications,
  listPurchaseOrdersForUser,
  purchaseOrderInvoiceFacts,
} from '../store/orderStore';
import { fileUrl } from '../account/accountContext';
import { refuse, requireFeature } from '../tenancy/refusals';
import { requestTenant, tenantContext } from '../tenancy/tenantContext';
import { pendingOrderPdf } from '../documents/documents';
import { requestLocale } from '../tenancy/requestLocale';
import { rejectedChangeRoutes } from './rejectedChangeRoutes';

export function purchaseOrderRoutes(deps: {
  db: Database;
  auth: AuthService;
  now: () => Date;
  invoiceRequests: InvoiceRequests;
}): Router {
  const { db } = deps;
  const router = Router();
  for (const path of ['/purchase-orders', '/pending-orders', '/publications'])
    router.use(path, requireUser(deps.auth));

  async function purchaseOrderOr404(res: import('express').Response, id: string) {
    const [order] = await listPurchaseOrdersForUser(db, requestTenant(res).id, currentUser(res).id, id);
    if (!order) throw refuse.notYours('There is no such purchase order on your account.');
    return order;
  }

  router.get('/purchase-orders', async (req, res) => {
    const tenant = requestTenant(res);
    // In the screen's language.
    res.json(
      await listPurchaseOrdersForUser(db, tenant.id, currentUser(res).id, undefined, {
        locale: requestLocale(req, tenant),
      }),
    );
  });

  // §7: query distributionArticleNumber; url and key. §2: only found downloads (expired are disabled).
  router.get(
    '/purchase-orders/:id/download',
    validateQuery('purchase-order-download-query'),
    async (req, res) => {
      const tenant = requestTenant(res);
      const order = await purchaseOrderOr404(res, String(req.params.id));
      const state = purchaseOrderDownload(tenant, order.downloadStatus);
      if (state === 'hidden' && !tenant.features.includes('purchase-order-download'))
        requireFeature(tenant, 'purchase-order-download');
      const article =
        validQuery<PurchaseOrderDownloadQuery>(res).distributionArticleNumber ??
        order.distributionArticleNumber;
      if (article !== order.distributionArticleNumber)
        throw refuse.notYours('This article is not part of the purchase order.');
      if (state !== 'enabled')
        throw new HttpError(
          409,
          'download_not_available',
          `The download of this order is ${order.downloadStatus.replace('_', ' ')}.`,
        );
      const key = await createDownloadKey(
        db,
        tenant.id,
        {
          kind: 'purchase_order',
          subjectId: order.id,
          item: article,
          fileName: `${order.purchaseOrderNumber}-${article}.pdf`,
          userId: currentUser(res).id,
        },
        deps.now(),
      );
      res.json({ url: fileUrl(res, key), key });
    },
  );

  // §7: query invoiceNumber; status. §2: only the ordering party; §9: once a day.
  router.post(
    '/purchase-orders/:id/invoices/request',
    validateQuery('invoice-request-query'),
    async (req, res) => {
      const tenant = requestTenant(res);
      // This slice serves three features (purchase-order downloads, invoice requests, pending
      // orders), so each route asks for its own flag instead of one gate where it is mounted.
      requireFeature(tenant, 'invoice-request');
      const order = await purchaseOrderOr404(res, String(req.params.id));
      if (!canRequestPurchaseOrderInvoice(tenant, order)) {
        throw refuse.notAllowed(
          'Only the ordering party can request the invoice of a purchase order (portal-core.md §2).',
        );
      }
      const { invoiceNumber } = validQuery<InvoiceRequestQuery>(res);
      if (invoiceNumber !== order.invoiceNumber)
        throw refuse.notYours('There is no such invoice for this purchase order.');
      const user = currentUser(res);
      // §4 as for a subscription's invoice: not_relevant for an amount of 0 (an order without a known
      // amount counts as payable), forwarded when the invoice goes to an invoice recipient (RE) the user
      // does not speak for, success otherwise; processing is the service's 409.
      const facts = await purchaseOrderInvoiceFacts(db, tenant.id, user.id, order.id);
      const status = invoiceRequestOutcome(
        facts.invoiceAmount ?? Number.POSITIVE_INFINITY,
        facts.roles.includes('RE'),
      );
      const subject = { kind: 'purchase_order' as const, purchaseOrderId: order.id };
      res.json(
        await deps.invoiceRequests.request({
          tenantId: tenant.id,
          userId: user.id,
          subject,
          invoiceNumber,
          status,
        }),
      );
    },
  );

  // Files of pending orders (download.isFile) are served by the portal itself, to the signed-in
  // owner only: their url is rewritten to GET /pending-orders/{id}/file; other urls are external pages.
  router.get('/pending-orders', async (req, res) => {
    const tenant = requestTenant(res);
    requireFeature(tenant, 'pending-orders');
    // Titles in the screen's language.
    const orders = await listPendingOrdersForUser(db, tenant.id, currentUser(res).id, undefined, {
      locale: requestLocale(req, tenant),
    });
    res.json(
      orders.map((order) =>
        order.download?.isFile
          ? {
              ...order,
              download: {
                url: `${tenantContext(res).basePath}api/pending-orders/${encodeURIComponent(order.id)}/file`,
                isFile: true,
              },
            }
          : order,
      ),
    );
  });

  router.get('/pending-orders/:id/file', async (req, res) => {
    const tenant = requestTenant(res);
    requireFeature(tenant, 'pending-orders');
    const locale = requestLocale(req, tenant, req.query.lang);
    const [order] = await listPendingOrdersForUser(
      db,
      tenant.id,
      currentUser(res).id,
      String(req.params.id),
      { locale },
    );
    if (!order?.download?.isFile) throw refuse.notYours('There is no such file among your pending orders.');
    res
      .type('application/pdf')
      .set(
        'content-disposition',
        `attachment; filename="${(order.articleNumber ?? order.id).replace(/[^A-Za-z0-9._-]/g, '_')}.pdf"`,
      )
      .set('cache-control', 'private, no-store')
      // In the subscriber's language, whatever language the order system wrote.
      .send(await pendingOrderPdf(tenant, locale, order));
  });

  router.get('/publications', async (_req, res) => {
    res.json(await listPublications(db, requestTenant(res).id));
  });

  // The orders page's notices of rejected changes.
  router.use(rejectedChangeRoutes(deps));
  return router;
}
