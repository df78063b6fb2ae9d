/**
 * The server's only list of features (server/featureManifest.ts), the counterpart of the engine's
 * registry engine/features/index.ts: each folder under server/ that mounts API routes, runs a job,
 * resolves mail jobs, records account events or keeps personal data declares it in its own
 * `manifest.ts`, and is one line here. Derived from this list: the /api routers and their order
 * (server/apiRoutes.ts), the features' background jobs (server/main.ts), the mail job resolvers
 * (server/mail/mailSender.ts) and the personal-data catalogue (server/privacy/catalogue.ts).
 * tests/server/features/featureManifests.test.ts fails for a manifest.ts that is not listed.
 *
 * The order is the mount order of the routers under each tenant's /api (after the JSON body parser
 * and the XSRF check, before the JSON 404), and the start order of the jobs. Express answers with
 * the first route that matches, so the order matters where paths overlap; a router that must stand
 * elsewhere than its feature names its anchor in its manifest (FeatureRouter `before`/`after`):
 *  - the anonymous accept-licence URL (multi-user-licenses) before the subscription routes, which
 *    require a user under /subscriptions;
 *  - the subscription page's routes after the link slice, where they have always been.
 *
 * A slice of one switchable feature is gated where it is mounted (gatedSlice, server/tenancy/apiSlice.ts):
 * its routes answer 403 feature_disabled while the tenant has none of the flags the feature declares
 * in engine/features/<id>/index.ts on (portal-core.md §6; read from the feature catalog, so a
 * feature's flags are written once). The others ask in their handlers, each manifest saying why:
 * routes several features share (purchase orders: downloads, invoices, pending orders), flags that
 * count per publication (offers, licences: a capability rule of engine/domain/capabilities.ts), a
 * flag the request names (the order-number login's flow), sign-in routes that are not a feature's.
 */
import type { FeatureManifest } from './featureManifest';
import { authManifest } from './auth/manifest';
import { subscriptionManifest } from './subscription/manifest';
import { linkSubscriptionManifest } from './link-subscription/manifest';
import { ordersManifest } from './orders/manifest';
import { businessPartnersManifest } from './business-partners/manifest';
import { accountManifest } from './account/manifest';
import { renewalManifest } from './renewal/manifest';
import { cancellationManifest } from './cancellation/manifest';
import { offersManifest } from './offers/manifest';
import { paymentsManifest } from './payments/manifest';
import { holidayServiceManifest } from './holiday-service/manifest';
import { phaseUpgradeManifest } from './phase-upgrade/manifest';
import { paymentMethodChangeManifest } from './payment-method-change/manifest';
import { issueComplaintManifest } from './issue-complaint/manifest';
import { optInsManifest } from './opt-ins/manifest';
import { addressChangeManifest } from './address-change/manifest';
import { eCardManifest } from './e-card/manifest';
import { emailWidgetManifest } from './email-widget/manifest';
import { optInWidgetManifest } from './opt-in-widget/manifest';
import { multiUserLicensesManifest } from './multi-user-licenses/manifest';
import { faqManifest } from './faq/manifest';
import { issueCalendarManifest } from './issue-calendar/manifest';
import { contactManifest } from './contact/manifest';
import { externalPageManifest } from './external-page/manifest';
import { ssoProfilePageManifest } from './sso-profile-page/manifest';
import { dataExportManifest } from './data-export/manifest';
import { loyaltyProgrammeManifest } from './loyalty-programme/manifest';
import { clientErrorsManifest } from './client-errors/manifest';
import { documentsManifest } from './documents/manifest';
import { insightsManifest } from './insights/manifest';
import { eventsManifest } from './events/manifest';
import { mailManifest } from './mail/manifest';
import { databaseManifest } from './db/manifest';
import { operatorManifest } from './operator/manifest';

export const SERVER_FEATURES: readonly FeatureManifest[] = [
  // Sign-in: the routes every other router's sign-in builds on.
  authManifest,
  // portal-core.md §2: orders, subscription page, link, purchase orders, business partners, files.
  subscriptionManifest,
  linkSubscriptionManifest,
  ordersManifest,
  businessPartnersManifest,
  accountManifest,
  // Account flows (account-flows.md §2): cancellation, renewal and upgrade offers, bulk renewal, payments.
  renewalManifest,
  cancellationManifest,
  offersManifest,
  paymentsManifest,
  // The phase upgrade (portal-core.md §2, §6).
  phaseUpgradeManifest,
  // Account changes (account-flows.md §2): holidays, payment method, complaints, opt-ins, addresses.
  holidayServiceManifest,
  paymentMethodChangeManifest,
  issueComplaintManifest,
  optInsManifest,
  addressChangeManifest,
  // E-cards, the e-mail widget and the opt-in widget (account-flows.md §2, §7).
  eCardManifest,
  emailWidgetManifest,
  optInWidgetManifest,
  // Multi-user licences (account-flows.md §7).
  multiUserLicensesManifest,
  // Public pages (FAQ, contact, issue calendar, external pages).
  faqManifest,
  issueCalendarManifest,
  contactManifest,
  externalPageManifest,
  // The SSO profile page, "Download my data" and the loyalty programme (account-flows.md §2, §7).
  ssoProfilePageManifest,
  dataExportManifest,
  loyaltyProgrammeManifest,
  // The browsers' error reports (portal-core.md §9), from every page, signed in or not.
  clientErrorsManifest,
  // No /api routers: jobs, personal data, events.
  documentsManifest,
  insightsManifest,
  eventsManifest,
  mailManifest,
  databaseManifest,
  operatorManifest,
];
