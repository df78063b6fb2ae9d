import { Router } from 'express';
import { guardRequestInput } from './http/inputGuard';
import { createInvoiceRequests } from './account/invoiceRequests';
import { createOfferService } from './offers/offerService';
import { createCancellationService } from './cancellation/cancellationService';
import {
  createPaymentProviders,
  paymentReconciliation,
  settlingThroughProviders,
} from './payments/paymentProviders';
import { createPaymentPages } from './payments/paymentPages';
import { paymentRefundRound } from './payments/paymentRefunds';
import { createPaymentMethodChange } from './payment-method-change/paymentMethodChangeService';
import { findPaymentRecord } from './store/paymentStore';
import type { SettledStatus } from './payments/paymentProvider';
import type { ServerTenant } from './tenancy/tenantContext';
import { featureRouters, type ApiDeps, type SharedServices } from './featureManifest';
import { SERVER_FEATURES } from './features';

export type { ApiDeps };

/**
 * The services several features' routers use, built once (server/featureManifest.ts SharedServices):
 * one invoice-request service behind the subscription page and the purchase orders; the payment
 * providers with the offers and the payment method change that their payments settle through.
 */
export function sharedServices(deps: ApiDeps): SharedServices {
  const invoiceRequests = createInvoiceRequests(deps);
  // The payment providers a tenant may choose (`payments.provider`, docs/architecture.md "Payments").
  const providers = createPaymentProviders(deps);
  const paymentPages = createPaymentPages(providers);
  const paymentMethods = createPaymentMethodChange({ ...deps, paymentPages });
  // A payment settles by what it pays for: offers, or the registration of a card or PayPal. The
  // providers' reports settle through this; the portal's own flows give a payment up at its
  // provider first (settlingThroughProviders).
  const settle = async (tenant: ServerTenant, paymentId: string, status: SettledStatus): Promise<boolean> => {
    const payment = await findPaymentRecord(deps.db, tenant.id, paymentId);
    return payment?.purpose === 'payment-method'
      ? paymentMethods.settle(tenant, paymentId, status)
      : offers.settle(tenant, paymentId, status);
  };
  const settleFromPortal = settlingThroughProviders(deps, providers, settle);
  const offers = createOfferService({ ...deps, paymentPages, settleAny: settleFromPortal });
  const cancellations = createCancellationService({ ...deps, offers, paymentPages });
  return { invoiceRequests, offers, cancellations, paymentMethods, providers, settle };
}

/**
 * The API routers of every feature, mounted in this order under each tenant's `/api`: derived from
 * the features' manifests (server/features.ts, where the order and its reasons are), each given the
 * shared services built here once.
 */
export function apiRouters(deps: ApiDeps): ApiParts {
  const shared = sharedServices(deps);
  const { providers, settle } = shared;
  const paymentCallbacks = Router();
  // Before any body parser: the query passes the API's input guard here, each body where it is read.
  paymentCallbacks.use(guardRequestInput);
  for (const provider of providers.values())
    if (provider.callbacks) paymentCallbacks.use(provider.callbacks(settle));
  const routers = featureRouters(SERVER_FEATURES, deps, shared).map(({ router }) => router);
  return {
    routers,
    paymentCallbacks,
    reconcilePayments: (tenants) =>
      paymentReconciliation({ db: deps.db, now: deps.now, log: deps.log, tenants, providers, settle })(),
    refundPayments: (tenants) =>
      paymentRefundRound({
        db: deps.db,
        now: deps.now,
        log: deps.log,
        mailFrom: deps.mailFrom,
        tenants,
        providers,
      })(),
  };
}

/** The API's parts: the routers under /api, the payment providers' webhooks, the reconciliation and refund rounds. */
export interface ApiParts {
  routers: Router[];
  /** Mounted under each tenant's /api/payments before the JSON parser and the XSRF check. */
  paymentCallbacks: Router;
  /** One round of asking providers about late payments (server/payments/paymentProviders.ts). */
  reconcilePayments: (
    tenants: (id: string) => ServerTenant | undefined,
  ) => Promise<{ asked: number; settled: number }>;
  /** One round of the refund job (server/payments/paymentRefunds.ts). */
  refundPayments: (
    tenants: (id: string) => ServerTenant | undefined,
  ) => Promise<{ issued: number; failed: number; retried: number }>;
}
