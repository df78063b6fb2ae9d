import { Router } from 'express';
import { guardRequestInput } from './http/inputGuard';
import type { Database } from './db/database';
import type { AuthService } from './auth/authService';
import type { Mailer } from './mail/mailer';
import type { Logger } from './http/requestLog';
import { authRoutes } from './auth/authRoutes';
import { subscriptionRoutes } from './subscription/subscriptionRoutes';
import { subscriptionPageRoutes } from './subscription/subscriptionPageRoutes';
import { linkSlice } from './link-subscription/linkRoutes';
import { purchaseOrderRoutes } from './orders/purchaseOrderRoutes';
import { businessPartnerRoutes } from './business-partners/businessPartnerRoutes';
import { fileRoutes } from './account/fileRoutes';
import { createInvoiceRequests } from './account/invoiceRequests';
import { faqRoutes } from './faq/faqRoutes';
import { issueCalendarSlice } from './issue-calendar/issueCalendarRoutes';
import { contactSlice } from './contact/contactRoutes';
import { createContactService } from './contact/contactService';
import { userIdRoutes } from './external-page/userIdRoutes';
import type { OAuthLogin } from './auth/oauthLogin';
import { oauthApiRoutes } from './auth/oauthRoutes';
import { kickerAuthSlice } from './auth/kickerAuth';
import { partialLoginRoutes } from './auth/partialLogin';
import type { SignInLimits } from './auth/rateLimit';
import { createOfferService } from './offers/offerService';
import { offerRoutes } from './offers/offerRoutes';
import { createCancellationService } from './cancellation/cancellationService';
import { cancellationSlice } from './cancellation/cancellationRoutes';
import { bulkRenewalSlice } from './renewal/bulkRenewalRoutes';
import {
  createPaymentProviders,
  paymentReconciliation,
  settlingThroughProviders,
} from './payments/paymentProviders';
import { createPaymentPages } from './payments/paymentPages';
import { createHolidayService } from './holiday-service/holidayService';
import { holidayServiceRoutes } from './holiday-service/holidayServiceRoutes';
import { createPaymentMethodChange } from './payment-method-change/paymentMethodChange';
import { paymentMethodChangeRoutes } from './payment-method-change/paymentMethodChangeRoutes';
import { createComplaintService } from './issue-complaint/complaintService';
import { complaintRoutes } from './issue-complaint/complaintRoutes';
import { createAddressChange } from './address-change/addressChange';
import { addressChangeRoutes } from './address-change/addressChangeRoutes';
import { createOptIns } from './opt-ins/optIns';
import { optInRoutes } from './opt-ins/optInRoutes';
import { createECards } from './e-card/eCardService';
import { eCardImageRoutes, eCardSlice } from './e-card/eCardRoutes';
import { createEmailWidget } from './email-widget/emailWidget';
import { emailWidgetSlice } from './email-widget/emailWidgetRoutes';
import { createOptInWidget } from './opt-in-widget/optInWidget';
import { optInWidgetSlice } from './opt-in-widget/optInWidgetRoutes';
import { createSsoProfileService } from './sso-profile-page/ssoProfileService';
import { ssoProfileSlice } from './sso-profile-page/ssoProfileRoutes';
import { createDataExport } from './data-export/dataExport';
import { dataExportRoutes } from './data-export/dataExportRoutes';
import { createLoyaltyService } from './loyalty-programme/loyaltyService';
import { loyaltySlice } from './loyalty-programme/loyaltyRoutes';
import { createLicenses } from './multi-user-licenses/licenseService';
import { licenseAcceptRoutes, licenseRoutes } from './multi-user-licenses/licenseRoutes';
import { findPaymentRecord } from './store/paymentStore';
import type { SettledStatus } from './payments/paymentProvider';
import type { ServerTenant } from './tenancy/tenantContext';
import { gatedSlice } from './tenancy/apiSlice';

/** What every API router gets: the database, auth, the mailer and the log. */
export interface ApiDeps {
  db: Database;
  auth: AuthService;
  mailer: Mailer;
  mailFrom: string;
  log: Logger;
  now: () => Date;
  /** `development` only under `portal dev`: enables the development login. */
  mode: 'production' | 'development';
  oauth: OAuthLogin;
  signInLimits?: SignInLimits;
}

/**
 * The API routers of every feature, mounted in this order under each tenant's `/api` (after the
 * JSON body parser and the XSRF check, before the JSON 404). Add a feature's router here.
 *
 * A slice of one switchable feature exports its router with the feature's id (server/tenancy/apiSlice.ts)
 * and is gated here, once, by gatedSlice: its routes answer 403 feature_disabled while the tenant
 * has none of the flags the feature declares in engine/features/<id>/index.ts on (portal-core.md
 * §6; read from the feature catalog, so a feature's flags are written once). The others ask in their handlers, each saying why: routes
 * several features share (purchase orders: downloads, invoices, pending orders), flags that count
 * per publication (offers, licences: a capability rule of engine/domain/capabilities.ts), a flag
 * the request names (the order-number login's flow), sign-in routes that are not a feature's.
 */
export function apiRouters(deps: ApiDeps): ApiParts {
  // One invoice-request service behind the subscription page and the purchase orders.
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
  const cancellations = createCancellationService({ ...deps, offers });
  const paymentCallbacks = Router();
  // Before any body parser: the query passes the API's input guard here, each body where it is read.
  paymentCallbacks.use(guardRequestInput);
  for (const provider of providers.values())
    if (provider.callbacks) paymentCallbacks.use(provider.callbacks(settle));
  const routers = [
    authRoutes(deps),
    oauthApiRoutes(deps.oauth),
    gatedSlice(kickerAuthSlice(deps)),
    partialLoginRoutes(deps),
    // The anonymous accept-licence URL, before the subscription routes that require a user under /subscriptions.
    licenseAcceptRoutes({ licenses: createLicenses(deps) }),
    subscriptionRoutes(deps),
    // portal-core.md §2: orders, subscription page, link, purchase orders, business partners, files.
    gatedSlice(linkSlice(deps)),
    subscriptionPageRoutes({ ...deps, invoiceRequests }),
    purchaseOrderRoutes({ ...deps, invoiceRequests }),
    businessPartnerRoutes(deps),
    fileRoutes(deps),
    // Account flows (account-flows.md §2): cancellation, renewal and upgrade offers, bulk renewal, payments.
    gatedSlice(bulkRenewalSlice({ auth: deps.auth, offers })),
    gatedSlice(cancellationSlice({ ...deps, cancellations })),
    offerRoutes({ auth: deps.auth, offers }),
    ...[...providers.values()].map((provider) => provider.routes(settle)),
    // Account changes (account-flows.md §2): holidays, payment method, complaints, addresses, opt-ins.
    holidayServiceRoutes({ auth: deps.auth, holiday: createHolidayService(deps) }),
    paymentMethodChangeRoutes({ auth: deps.auth, paymentMethods }),
    complaintRoutes({ auth: deps.auth, complaints: createComplaintService(deps) }),
    optInRoutes({ auth: deps.auth, optIns: createOptIns(deps) }),
    addressChangeRoutes({ auth: deps.auth, addresses: createAddressChange(deps) }),
    // E-cards, the e-mail widget and the opt-in widget (account-flows.md §2, §7).
    gatedSlice(eCardSlice({ auth: deps.auth, eCards: createECards(deps) })),
    eCardImageRoutes({}),
    gatedSlice(
      emailWidgetSlice({
        db: deps.db,
        emailWidget: createEmailWidget(deps),
        now: deps.now,
        signInLimits: deps.signInLimits,
      }),
    ),
    gatedSlice(
      optInWidgetSlice({
        db: deps.db,
        optInWidget: createOptInWidget(deps),
        now: deps.now,
        signInLimits: deps.signInLimits,
      }),
    ),
    // Multi-user licences (account-flows.md §7).
    licenseRoutes({ auth: deps.auth, licenses: createLicenses(deps) }),
    // Public pages (FAQ, contact, issue calendar, external pages).
    faqRoutes(deps),
    gatedSlice(issueCalendarSlice(deps)),
    gatedSlice(contactSlice({ auth: deps.auth, contact: createContactService(deps) })),
    userIdRoutes(deps),
    // The SSO profile page and the loyalty programme (account-flows.md §2, §7).
    gatedSlice(ssoProfileSlice({ auth: deps.auth, ssoProfile: createSsoProfileService(deps) })),
    // "Download my data": on every tenant whose subscribers sign in (engine/domain/dataExport.ts).
    dataExportRoutes({ auth: deps.auth, dataExport: createDataExport(deps) }),
    gatedSlice(loyaltySlice({ auth: deps.auth, loyalty: createLoyaltyService(deps) })),
  ];
  return {
    routers,
    paymentCallbacks,
    reconcilePayments: (tenants) =>
      paymentReconciliation({ db: deps.db, now: deps.now, log: deps.log, tenants, providers, settle })(),
  };
}

/** The API's parts: the routers under /api, the payment providers' webhooks, the reconciliation round. */
export interface ApiParts {
  routers: Router[];
  /** Mounted under each tenant's /api/payments before the JSON parser and the XSRF check. */
  paymentCallbacks: Router;
  /** One round of asking providers about late payments (server/payments/paymentProviders.ts). */
  reconcilePayments: (
    tenants: (id: string) => ServerTenant | undefined,
  ) => Promise<{ asked: number; settled: number }>;
}
