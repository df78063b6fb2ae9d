/**
 * Where "Download my data" lives (docs/subscribers.md "Download my data"; GDPR Art. 15 right of access,
 * Art. 20 portability). The right belongs to every subscriber whose data the portal holds, so the export
 * is not a feature a tenant switches: every tenant whose subscribers sign in offers it, on one
 * screen — the account details page where the tenant has one (account-flows.md §2 "SSO profile"),
 * else the customer data page (/business-partners, portal-core.md §2 route table), which is always
 * on and already shows the account's own personal data. The server gates its calls and builds the
 * mailed link with these same functions, the screens show the section with them: the two never
 * disagree about whether, or where, a tenant offers the export.
 *
 * Pure: the server, the tenant package and the browser import it alike.
 */
import { ROUTES, type RouteRef } from './routeRefs';
import { isFeatureOn, type FeatureSwitches } from './tenantFeatures';

/** The part of a tenant that says how its subscribers sign in (schemas/tenant.schema.json `login`). */
export interface SignInSwitches extends FeatureSwitches {
  login?: { magicLink?: boolean; password?: boolean };
}

/**
 * Whether subscribers can sign in to an account of their own (portal-core.md §4 "Login sources",
 * the full ones): a magic link (on unless switched off), a password, single sign-on or kicker's
 * sign-on. The order-number login alone opens only "logged in only" sessions, which hold no account.
 */
export function hasSignedInSubscribers(tenant: SignInSwitches): boolean {
  return (
    tenant.login?.magicLink !== false ||
    tenant.login?.password === true ||
    tenant.features.includes('oauth') ||
    tenant.features.includes('kicker-auth')
  );
}

/** Whether the tenant offers "Download my data" at all (server gate and screens alike). */
export const offersDataExport = (tenant: SignInSwitches): boolean => hasSignedInSubscribers(tenant);

/** The one screen of the tenant that shows the export and that the mailed link opens. */
export function dataExportRoute(tenant: FeatureSwitches): RouteRef {
  return isFeatureOn(tenant, 'sso-profile-page') ? ROUTES.ssoProfile : ROUTES.businessPartners;
}

/** The query parameter of the mailed link that carries its token to that screen. */
export const DATA_EXPORT_LINK_PARAM = 'dataExport';
