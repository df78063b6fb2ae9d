/**
 * The calls of the subscription page (portal-core.md §2 "Subscription detail", §7): payment history
 * and delivered issues (pages of 10), invoice request (once a day), invoice PDF, delivered-issue
 * download, gift certificates, order attributes. Each checks the same capability rule the page uses
 * to show its button (engine/domain/capabilities.ts).
 */
import { Router } from 'express';
import type { Database } from '../db/database';
import { currentUser, requireUser } from '../auth/authMiddleware';
import type { AuthService } from '../auth/authService';
import { HttpError, badRequest, notFound } from '../http/errors';
import { validateBody } from '../http/validateBody';
import { parsePageNumber } from '../../engine/domain/paging';
import { DOCUMENT_NUMBER_PATTERN, invoiceFileName, invoiceRequestOutcome } from '../../engine/domain/paymentHistory';
import { issueDownloadState } from '../../engine/domain/purchaseOrders';
import { createDownloadKey, recordActivity, recordInvoiceRequest, setOrderAttribute } from '../store/accountStore';
import { deliveredIssuesPage, findDeliveredIssue, findPayment, findPaymentByInvoice, paymentHistoryPage } from '../store/orderStore';
import { invoicePdf } from '../invoices/documents';
import { can } from '../../engine/domain/capabilities';
import { recordEvent } from '../events/recordEvent';
import { fileUrl, subscriptionOr404, utcDay } from './accountContext';
import { capabilityContext, requireCapability } from '../tenancy/refusals';
import { requestTenant } from '../tenancy/tenantContext';

/**
 * The §7 query of POST /subscriptions/{id}/invoices/request: invoiceNumber required,
 * externalDocumentNumber optional (empty counts as absent: the page sends it empty when the entry
 * has none). Every problem at once as 400 validation_failed.
 */
function invoiceRequestQuery(query: Record<string, unknown>): { invoiceNumber: string; externalDocumentNumber?: string } {
  const problems: Array<{ field: string; message: string }> = [];
  const read = (field: string, required: boolean): string | undefined => {
    const value = query[field];
    if (value === undefined || value === '') {
      if (required) problems.push({ field, message: 'is required' });
      return undefined;
    }
    if (typeof value !== 'string' || !DOCUMENT_NUMBER_PATTERN.test(value)) {
      problems.push({ field, message: 'must be 1 to 35 letters, digits or . / _ -' });
      return undefined;
    }
    return value;
  };
  const invoiceNumber = read('invoiceNumber', true);
  const externalDocumentNumber = read('externalDocumentNumber', false);
  if (problems.length > 0 || !invoiceNumber) throw badRequest('validation_failed', 'The invoice request is not valid.', problems);
  return { invoiceNumber, externalDocumentNumber };
}

export function subscriptionPageRoutes(deps: { db: Database; auth: AuthService; now: () => Date }): Router {
  const { db } = deps;
  const router = Router();
  router.use('/subscriptions/:id', requireUser(deps.auth));

  router.get('/subscriptions/:id/payment-history', async (req, res) => {
    const tenant = requestTenant(res);
    const subscription = await subscriptionOr404(db, res, String(req.params.id));
    requireCapability('paymentHistory', subscription, tenant);
    res.json(
      await paymentHistoryPage(db, tenant.id, subscription.id, {
        page: parsePageNumber(req.query.page),
        hiddenCodes: tenant.paymentHistory?.hiddenStatusCodes ?? [],
      }),
    );
  });

  router.get('/subscriptions/:id/delivered-issues', async (req, res) => {
    const tenant = requestTenant(res);
    const subscription = await subscriptionOr404(db, res, String(req.params.id));
    // The list backs the issue history and the issue downloads (the card's "latest issue").
    if (!can('issueDownload', subscription, capabilityContext(tenant))) requireCapability('issueHistory', subscription, tenant);
    res.json(await deliveredIssuesPage(db, tenant.id, subscription.id, { page: parsePageNumber(req.query.page) }));
  });

  // §7: body issue; answers the url and key of the file. Only found issues can be downloaded (§4).
  router.post('/subscriptions/:id/delivered-issues/download', validateBody('delivered-issue-download-request'), async (req, res) => {
    const tenant = requestTenant(res);
    const subscription = await subscriptionOr404(db, res, String(req.params.id));
    requireCapability('issueDownload', subscription, tenant);
    const issue = await findDeliveredIssue(db, tenant.id, subscription.id, String(req.body.issue));
    if (!issue) throw notFound('This issue was not delivered with this subscription.');
    if (issueDownloadState(issue.downloadStatus) !== 'enabled') {
      throw new HttpError(409, 'download_not_available', `The download of this issue is ${issue.downloadStatus.replace('_', ' ')}.`);
    }
    const user = currentUser(res);
    const fileName = `${subscription.publication}-${(issue.issueNumber ?? issue.issue).replace(/[^A-Za-z0-9]+/g, '-')}.pdf`;
    const key = await createDownloadKey(db, tenant.id, { kind: 'delivered_issue', subjectId: subscription.id, item: issue.issue, fileName, userId: user.id }, deps.now());
    res.json({ url: fileUrl(res, key), key });
  });

  // §7: query invoiceNumber, externalDocumentNumber; no body. Once a day per invoice (§9).
  router.post('/subscriptions/:id/invoices/request', async (req, res) => {
    const tenant = requestTenant(res);
    const subscription = await subscriptionOr404(db, res, String(req.params.id));
    requireCapability('invoiceRequest', subscription, tenant);
    // Express 5: req.query is read-only, the validated values live here.
    const { invoiceNumber, externalDocumentNumber } = invoiceRequestQuery(req.query);
    // externalDocumentNumber, when given, picks the payment-history entry of that invoice (§7).
    const payment = await findPaymentByInvoice(db, tenant.id, subscription.id, invoiceNumber, externalDocumentNumber);
    if (!payment) throw notFound('There is no such invoice for this subscription.');
    const user = currentUser(res);
    // Forwarded when the invoice goes to an invoice recipient the user does not speak for.
    const recipientIsUser = subscription.roles.includes('RE');
    const status = invoiceRequestOutcome(payment.amount, recipientIsUser);
    const recorded = await db.transaction(async (tx) => {
      const first = await recordInvoiceRequest(tx, {
        tenantId: tenant.id,
        userId: user.id,
        kind: 'subscription',
        subjectId: subscription.id,
        invoiceNumber,
        day: utcDay(deps.now()),
        status,
      });
      if (first) {
        await recordActivity(tx, { tenantId: tenant.id, userId: user.id, action: 'invoice_request', subjectId: subscription.id, details: { invoiceNumber, status } });
        // Issue 8 "Account events": only the request that is recorded; a refused repeat changes nothing.
        await recordEvent(tx, tenant.id, 'invoice.requested', {
          userId: user.id,
          subjectKind: 'subscription',
          subscriptionId: subscription.id,
          purchaseOrderId: null,
          invoiceNumber,
          status,
        });
      }
      return first;
    });
    if (!recorded) {
      throw new HttpError(409, 'processing', 'This invoice was already requested today; it is being processed. You can request it again tomorrow.', {
        status: 'processing',
      });
    }
    res.json({ status });
  });

  // §7: binary pdf, saved as documentId.pdf.
  router.get('/subscriptions/:id/invoices/:paymentId/download', async (req, res) => {
    const tenant = requestTenant(res);
    const subscription = await subscriptionOr404(db, res, String(req.params.id));
    requireCapability('invoiceDownload', subscription, tenant);
    const payment = await findPayment(db, tenant.id, subscription.id, String(req.params.paymentId));
    if (!payment || !payment.documentId) throw notFound('There is no such invoice for this subscription.');
    const pdf = invoicePdf(tenant, subscription, payment);
    res
      .status(200)
      .type('application/pdf')
      .set('content-disposition', `attachment; filename="${invoiceFileName(payment.documentId)}"`)
      .set('cache-control', 'private, no-store')
      .send(pdf);
  });

  // §3 "Gift certificate": title and download url, for the ordering party of a gift.
  router.get('/subscriptions/:id/gift-certificates', async (req, res) => {
    const tenant = requestTenant(res);
    const subscription = await subscriptionOr404(db, res, String(req.params.id));
    requireCapability('giftCertificate', subscription, tenant);
    const user = currentUser(res);
    const fileName = `gift-${subscription.orderNumber}.pdf`;
    const key = await createDownloadKey(
      db,
      tenant.id,
      { kind: 'gift_certificate', subjectId: subscription.id, item: subscription.orderNumber, fileName, userId: user.id },
      deps.now(),
    );
    res.json([{ title: subscription.displayName, download: { url: fileUrl(res, key) } }]);
  });

  // §5 "Order attribute edit: value required"; only types the tenant marks editable (or creatable when missing).
  router.post('/subscriptions/:id/attributes', validateBody('order-attribute-request'), async (req, res) => {
    const tenant = requestTenant(res);
    const subscription = await subscriptionOr404(db, res, String(req.params.id));
    requireCapability('orderAttributes', subscription, tenant);
    const type = String(req.body.type);
    const value = String(req.body.value).trim();
    const config = (tenant.orderAttributes?.attributes ?? []).find((a) => a.type === type);
    const exists = subscription.orderAttributes.some((a) => a.type === type);
    if (!config || (exists ? !config.editable : !config.creatable)) {
      throw new HttpError(403, 'not_allowed', `The attribute ${type} cannot be ${exists ? 'changed' : 'added'} online.`);
    }
    const user = currentUser(res);
    await db.transaction(async (tx) => {
      await setOrderAttribute(tx, tenant.id, subscription.id, type, value);
      await recordActivity(tx, { tenantId: tenant.id, userId: user.id, action: 'order_attribute', subjectId: subscription.id, details: { type, value } });
      await recordEvent(tx, tenant.id, 'order_attribute.changed', {
        userId: user.id,
        subscriptionId: subscription.id,
        orderNumber: subscription.orderNumber,
        type,
        value,
        previousValue: subscription.orderAttributes.find((a) => a.type === type)?.value ?? null,
      });
    });
    res.json(await subscriptionOr404(db, res, subscription.id));
  });

  return router;
}
