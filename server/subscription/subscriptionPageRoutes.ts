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
import { fitsOrderAttribute } from '../../engine/domain/fieldRules';
import { validateBody, validateQuery, validQuery } from '../http/validateBody';
import type { InvoiceRequestQuery } from '../../schemas/generated/invoice-request-query';
import type { PageQuery } from '../../schemas/generated/page-query';
import type { InvoiceRequests } from '../account/invoiceRequests';
import {
  invoiceFileName,
  invoiceRequestOutcome,
  xRechnungFileName,
} from '../../engine/domain/paymentHistory';
import { issueDownloadState } from '../../engine/domain/purchaseOrders';
import { createDownloadKey, setOrderAttribute } from '../store/accountStore';
import { subscriptionPage } from './subscriptionPage';
import {
  deliveredIssuesPage,
  findDeliveredIssue,
  findPayment,
  findPaymentByInvoice,
  paymentHistoryPage,
} from '../store/orderStore';
import { billedParty } from '../documents/documents';
import { canMakeXRechnung, isBusiness } from '../documents/eInvoice';
import { invoicesAddressedTo, issuedInvoicePdf, issuedXRechnung } from '../documents/issuedInvoices';
import { partnersOfSubscription } from '../store/accountChangeStore';
import { requestLocale } from '../tenancy/requestLocale';
import { can } from '../../engine/domain/capabilities';
import { recordEvent } from '../events/recordEvent';
import { fileUrl, subscriptionOr404 } from '../account/accountContext';
import { capabilityContext, refuse, requireCapability } from '../tenancy/refusals';
import { requestTenant } from '../tenancy/tenantContext';

export function subscriptionPageRoutes(deps: {
  db: Database;
  auth: AuthService;
  now: () => Date;
  invoiceRequests: InvoiceRequests;
}): Router {
  const { db } = deps;
  const router = Router();
  router.use('/subscriptions/:id', requireUser(deps.auth));

  router.get('/subscriptions/:id/payment-history', validateQuery('page-query'), async (req, res) => {
    const tenant = requestTenant(res);
    const subscription = await subscriptionOr404(db, res, String(req.params.id));
    requireCapability('paymentHistory', subscription, tenant);
    const page = await paymentHistoryPage(db, tenant.id, subscription.id, {
      page: validQuery<PageQuery>(res).page ?? 0,
      hiddenCodes: tenant.paymentHistory?.hiddenStatusCodes ?? [],
    });
    // The screen offers the XRechnung beside an invoice's PDF when the download below would make
    // one of it; the billed parties are read only for tenants that offer it.
    const offered =
      canMakeXRechnung(tenant) && can('invoiceDownload', subscription, capabilityContext(tenant));
    const addressedTo = offered
      ? await invoicesAddressedTo(
          db,
          { tenantId: tenant.id, subscriptionId: subscription.id },
          page.items.filter((item) => item.documentId),
          await billedPartyOf(tenant.id, subscription, currentUser(res).id),
        )
      : new Map();
    res.json({
      ...page,
      items: page.items.map((item) => ({ ...item, xRechnung: isBusiness(addressedTo.get(item.id)) })),
    });
  });

  router.get('/subscriptions/:id/delivered-issues', validateQuery('page-query'), async (req, res) => {
    const tenant = requestTenant(res);
    const subscription = await subscriptionOr404(db, res, String(req.params.id));
    // The list backs the issue history and the issue downloads (the card's "latest issue").
    if (!can('issueDownload', subscription, capabilityContext(tenant)))
      requireCapability('issueHistory', subscription, tenant);
    res.json(
      await deliveredIssuesPage(
        db,
        tenant.id,
        subscription.id,
        { page: validQuery<PageQuery>(res).page ?? 0 },
        { locale: requestLocale(req, tenant) },
      ),
    );
  });

  // §7: body issue; answers the url and key of the file. Only found issues can be downloaded (§4).
  router.post(
    '/subscriptions/:id/delivered-issues/download',
    validateBody('delivered-issue-download-request'),
    async (req, res) => {
      const tenant = requestTenant(res);
      const subscription = await subscriptionOr404(db, res, String(req.params.id));
      requireCapability('issueDownload', subscription, tenant);
      const issue = await findDeliveredIssue(db, tenant.id, subscription.id, String(req.body.issue));
      if (!issue) throw notFound('This issue was not delivered with this subscription.');
      if (issueDownloadState(issue.downloadStatus) !== 'enabled') {
        throw new HttpError(
          409,
          'download_not_available',
          `The download of this issue is ${issue.downloadStatus.replace('_', ' ')}.`,
        );
      }
      const user = currentUser(res);
      const fileName = `${subscription.publication}-${(issue.issueNumber ?? issue.issue).replace(/[^A-Za-z0-9]+/g, '-')}.pdf`;
      const key = await createDownloadKey(
        db,
        tenant.id,
        { kind: 'delivered_issue', subjectId: subscription.id, item: issue.issue, fileName, userId: user.id },
        deps.now(),
      );
      res.json({ url: fileUrl(res, key), key });
    },
  );

  // §7: query invoiceNumber, externalDocumentNumber; no body. Once a day per invoice (§9).
  router.post(
    '/subscriptions/:id/invoices/request',
    validateQuery('invoice-request-query'),
    async (req, res) => {
      const tenant = requestTenant(res);
      const subscription = await subscriptionOr404(db, res, String(req.params.id));
      requireCapability('invoiceRequest', subscription, tenant);
      const { invoiceNumber, externalDocumentNumber } = validQuery<InvoiceRequestQuery>(res);
      // externalDocumentNumber, when given, picks the payment-history entry of that invoice (§7).
      const payment = await findPaymentByInvoice(
        db,
        tenant.id,
        subscription.id,
        invoiceNumber,
        externalDocumentNumber,
      );
      if (!payment) throw refuse.notYours('There is no such invoice for this subscription.');
      // Forwarded when the invoice goes to an invoice recipient the user does not speak for.
      const status = invoiceRequestOutcome(payment.amount, subscription.roles.includes('RE'));
      const subject = { kind: 'subscription' as const, subscriptionId: subscription.id };
      res.json(
        await deps.invoiceRequests.request({
          tenantId: tenant.id,
          userId: currentUser(res).id,
          subject,
          invoiceNumber,
          status,
        }),
      );
    },
  );

  /** The invoice recipient (RE) of the subscription, else the ordering party (portal-core.md §6 roles). */
  async function billedPartyOf(
    tenantId: string,
    subscription: Awaited<ReturnType<typeof subscriptionOr404>>,
    userId: string,
  ) {
    return billedParty(
      await partnersOfSubscription(db, tenantId, subscription.id, userId),
      subscription.orderingParty,
    );
  }

  // The XRechnung (CII syntax) of an invoice, beside its PDF, for a business customer. The
  // PDF download's checks (its capability rule, the user's subscription, the payment with a
  // document), then the tenant's switch (403 feature_disabled) and a company as the billed party
  // (404: there is no XRechnung of an invoice to a private person).
  router.get('/subscriptions/:id/invoices/:paymentId/xrechnung', async (req, res) => {
    const tenant = requestTenant(res);
    const locale = requestLocale(req, tenant, req.query.lang);
    // The product name in the invoice's language, as the subscription screens show it.
    const subscription = await subscriptionOr404(db, res, String(req.params.id), req, locale);
    requireCapability('invoiceDownload', subscription, tenant);
    if (!canMakeXRechnung(tenant)) throw refuse.featureDisabled('XRechnung downloads');
    const payment = await findPayment(db, tenant.id, subscription.id, String(req.params.paymentId));
    if (!payment || !payment.documentId) throw notFound('There is no such invoice for this subscription.');
    const billedTo = await billedPartyOf(tenant.id, subscription, currentUser(res).id);
    // Whom the invoice was issued to decides, not whom the partner on record is today.
    const issuedTo = await invoicesAddressedTo(
      db,
      { tenantId: tenant.id, subscriptionId: subscription.id },
      [payment],
      billedTo,
    );
    if (!isBusiness(issuedTo.get(payment.id)))
      throw notFound('This invoice is not addressed to a business: there is no XRechnung of it.');
    // Made once per set of inputs and kept (server/documents/issuedInvoices.ts).
    const xml = await issuedXRechnung(
      db,
      {
        tenantId: tenant.id,
        subscriptionId: subscription.id,
        input: { tenant, locale, subscription, payment, billedTo },
      },
      { now: deps.now },
    );
    res
      .status(200)
      .type('application/xml')
      .set('content-disposition', `attachment; filename="${xRechnungFileName(payment.documentId)}"`)
      .set('cache-control', 'private, no-store')
      .send(xml);
  });

  // §7: binary pdf, saved as documentId.pdf.
  router.get('/subscriptions/:id/invoices/:paymentId/download', async (req, res) => {
    const tenant = requestTenant(res);
    // In the subscriber's language (the screen's Accept-Language, or ?lang=), the product name too
    // (docs/invoices.md "Invoices and documents"), addressed to the invoice recipient (RE) when there is one,
    // else the ordering party (portal-core.md §6 roles).
    const locale = requestLocale(req, tenant, req.query.lang);
    const subscription = await subscriptionOr404(db, res, String(req.params.id), req, locale);
    requireCapability('invoiceDownload', subscription, tenant);
    const payment = await findPayment(db, tenant.id, subscription.id, String(req.params.paymentId));
    if (!payment || !payment.documentId) throw notFound('There is no such invoice for this subscription.');
    const billedTo = await billedPartyOf(tenant.id, subscription, currentUser(res).id);
    // An issued invoice is made once per set of inputs and kept (server/documents/issuedInvoices.ts).
    const pdf = await issuedInvoicePdf(
      db,
      {
        tenantId: tenant.id,
        subscriptionId: subscription.id,
        input: { tenant, locale, subscription, payment, billedTo },
      },
      { now: deps.now },
    );
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
    // The title it answers is shown: in the screen's language (portal-core.md §1).
    const subscription = await subscriptionOr404(db, res, String(req.params.id), req);
    requireCapability('giftCertificate', subscription, tenant);
    const user = currentUser(res);
    const fileName = `gift-${subscription.orderNumber}.pdf`;
    const key = await createDownloadKey(
      db,
      tenant.id,
      {
        kind: 'gift_certificate',
        subjectId: subscription.id,
        item: subscription.orderNumber,
        fileName,
        userId: user.id,
      },
      deps.now(),
    );
    res.json([{ title: subscription.displayName, download: { url: fileUrl(res, key) } }]);
  });

  // §5 "Order attribute edit: value required"; only types the tenant marks editable (or creatable when missing).
  router.post('/subscriptions/:id/attributes', validateBody('order-attribute-request'), async (req, res) => {
    const tenant = requestTenant(res);
    // In the screen's language: it is also the answer (below).
    const subscription = await subscriptionOr404(db, res, String(req.params.id), req);
    requireCapability('orderAttributes', subscription, tenant);
    const type = String(req.body.type);
    const value = String(req.body.value).trim();
    const config = (tenant.orderAttributes?.attributes ?? []).find((a) => a.type === type);
    const exists = subscription.orderAttributes.some((a) => a.type === type);
    if (!config || (exists ? !config.editable : !config.creatable)) {
      throw new HttpError(
        403,
        'not_allowed',
        `The attribute ${type} cannot be ${exists ? 'changed' : 'added'} online.`,
      );
    }
    if (!fitsOrderAttribute(config.inputType, value))
      throw badRequest(
        'validation_failed',
        `The value is not of the attribute's kind (${config.inputType}).`,
        {
          fields: { value: 'invalid' },
        },
      );
    const user = currentUser(res);
    const attributes = await db.transaction(async (tx) => {
      const written = await setOrderAttribute(tx, tenant.id, subscription.id, type, value);
      if (!written) throw refuse.notYours('There is no such subscription on your account.');
      await recordEvent(
        tx,
        tenant.id,
        'order_attribute.changed',
        {
          userId: user.id,
          subscriptionId: subscription.id,
          orderNumber: subscription.orderNumber,
          type,
          value,
          previousValue: subscription.orderAttributes.find((a) => a.type === type)?.value ?? null,
        },
        {
          activity: {
            userId: user.id,
            action: 'order_attribute',
            subjectId: subscription.id,
            details: { type, value },
          },
        },
      );
      return written;
    });
    // The subscription as read for the check, with its attributes as the update left them: the
    // change touches nothing else of it, and a second read would cost a round trip of its own
    // (its page's reading of the lifecycle is one query).
    res.json(
      await subscriptionPage(db, tenant.id, { ...subscription, orderAttributes: attributes }, deps.now()),
    );
  });

  return router;
}
