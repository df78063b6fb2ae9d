import type { Database, Queryable } from '../db/database';
import type { Locale } from '../../engine/domain/locales';
import type { Subscription } from '../../schemas/generated/subscription';
import type { License, LicenseManagerAppointment } from '../../schemas/generated/licenses';
import { isLicenceManager } from '../../engine/domain/capabilities';
import {
  licenseActionRefusal,
  type FieldErrors,
  type LicenseAction,
  type LicenseObjectState,
  type LicenseState,
} from '../../engine/domain/licenses';
import { langParam } from '../../engine/domain/language';
import { badRequest, HttpError, notFound } from '../http/errors';
import { recordEvent } from '../events/recordEvent';
import { constantTimeEquals, hashToken } from '../auth/tokens';
import {
  consumeRateLimit,
  countingFailuresOfSecret,
  DEFAULT_SIGN_IN_LIMITS,
  signInRules,
  type SignInLimits,
} from '../auth/rateLimit';
import { getSubscriptionForUser } from '../store/subscriptionStore';
import { createUser, findUserByEmail, linkBusinessPartner } from '../store/userStore';
import {
  licensesOf,
  lockLicenseObject,
  type AppointmentRow,
  type LicenseObjectRow,
  type LicenseRow,
} from '../store/licenseStore';
import { refuse, requireCapability, requireFeature } from '../tenancy/refusals';
import type { ServerTenant } from '../tenancy/tenantContext';
import type { AccountCaller } from '../account/accountContext';

export const ORDER_NUMBER = /^[0-9]{10}$/;

/**
 * Limits of the mails a signed-in user makes the portal send to addresses they type (licence
 * invitations and resends, licence-manager appointments): per user and hour, and per address and
 * day, for a licence (its object and invited address, so deleting and adding the same person again
 * does not reset it) as for the manager appointments of a subscription (each replaces the last, so
 * without it one address could be sent an appointment after another). Beyond them the call
 * answers 429 `rate_limited` and sends nothing.
 */
export interface LicenseMailLimits {
  perUserPerHour: number;
  perLicencePerDay: number;
}
export const LICENSE_MAIL_LIMITS: LicenseMailLimits = { perUserPerHour: 50, perLicencePerDay: 5 };

export interface LicenseServiceDeps {
  db: Database;
  mailFrom: string;
  now: () => Date;
  signInLimits?: SignInLimits;
  licenseMailLimits?: LicenseMailLimits;
}

/** The refusals of §6 and §8 as answers: 403 for rules, 409 for states. */
const REFUSALS = {
  self_service_disabled: () =>
    new HttpError(403, 'self_service_disabled', 'Self-service is switched off for this licence object.'),
  not_allowed: () => refuse.notAllowed('A licence manager may not do this (account-flows.md §6).'),
  license_limit_reached: () =>
    new HttpError(409, 'license_limit_reached', 'All licences of this object are in use.'),
  license_not_reactivatable: () =>
    new HttpError(409, 'license_not_reactivatable', 'This licence cannot be activated again.'),
  license_already_confirmed: () =>
    new HttpError(409, 'license_already_confirmed', 'This licence has been accepted already.'),
  no_change: () => new HttpError(409, 'no_change', 'The licence is in that state already.'),
} as const;

export const linkInvalid = () =>
  badRequest('license_link_invalid', 'This link is not valid (any more). Ask for a new invitation.');
export const invalidFields = (fields: FieldErrors) =>
  badRequest('validation_failed', 'Some fields are not valid.', { fields });
export const trimmed = (value: string | null | undefined) =>
  value == null || value.trim() === '' ? null : value.trim();
export const salutationCodes = (tenant: ServerTenant) => tenant.salutations.options.map((o) => o.code);

export function licenseView(row: LicenseRow): License {
  const bp = row.businessPartner;
  return {
    id: row.id,
    isActive: row.isActive,
    isReactivatable: row.isReactivatable,
    isConfirmed: row.isConfirmed,
    role: row.role,
    academicYear: row.academicYear,
    businessPartner: {
      bpNumber: row.bpNumber,
      salutationCode: bp.salutationCode ?? null,
      titleAcademic: bp.titleAcademic ?? null,
      firstName: bp.firstName ?? null,
      lastName1: bp.lastName1 ?? null,
      company1: bp.company1 ?? null,
      emailAddress: row.email,
    },
  };
}

export const appointmentView = (a: AppointmentRow): LicenseManagerAppointment => ({
  id: a.id,
  salutationCode: a.salutationCode,
  firstName: a.firstName,
  lastName1: a.lastName1,
  email: a.email,
  sentAt: a.sentAt,
  expiresAt: a.expiresAt,
});

/** The capability rule of portal-core.md §6 for a subscription as its user holds it. */
export function capable(s: Subscription, tenant: ServerTenant): boolean {
  try {
    requireCapability('multiUserLicenses', s, tenant);
    return true;
  } catch {
    return false;
  }
}

const objectState = (object: LicenseObjectRow, licenses: readonly LicenseState[]): LicenseObjectState => ({
  maxActiveLicenses: object.maxActiveLicenses,
  selfServiceEnabled: object.selfServiceEnabled,
  licenses,
});

export function licenseIn(licenses: LicenseRow[], licenseId: string): LicenseRow {
  const license = licenses.find((l) => l.id === licenseId);
  if (!license) throw notFound('There is no such licence.');
  return license;
}

/** A link of a licence mail: `subscriptions/{id}/{path}` on the portal, with its token and the mail's language. */
export const mailedLink = (
  portalUrl: string,
  subscriptionId: string,
  path: string,
  token: string,
  locale: Locale,
) =>
  `${portalUrl}subscriptions/${encodeURIComponent(subscriptionId)}/${path}?token=${encodeURIComponent(token)}&lang=${langParam(locale)}`;

/** Whether a link's token is the one whose hash is stored (none stored: no token matches). */
export const tokenMatches = (token: string, tokenHash: string | null) =>
  Boolean(token) && tokenHash !== null && constantTimeEquals(hashToken(token), tokenHash);

/** The full name of a person as a mail greets them. */
export const fullName = (person: { firstName?: string | null; lastName1?: string | null }) =>
  [person.firstName, person.lastName1].filter(Boolean).join(' ');

/**
 * What every licence command shares (server/multi-user-licenses/commands/*): the database, the
 * clock, the limits of links and mails, the caller's subscription and licence object, the rules of
 * §6 and the accounts links make. One per server, made by createLicenses.
 */
export function createLicenseKit(deps: LicenseServiceDeps) {
  const { db } = deps;
  const limits = deps.signInLimits ?? DEFAULT_SIGN_IN_LIMITS;
  const mailLimits = deps.licenseMailLimits ?? LICENSE_MAIL_LIMITS;

  return {
    db,
    mailFrom: deps.mailFrom,
    now: deps.now,

    /**
     * A licence mail's link opened by an anonymous client: refused tokens count against the client,
     * successes and form mistakes do not (limits count failures, not honest use); over the budget a
     * token is still tried, so a valid one works after someone else's failures from the address.
     */
    withLinkToken: <T>(tenant: ServerTenant, action: string, client: string, attempt: () => Promise<T>) =>
      countingFailuresOfSecret(
        db,
        tenant.id,
        signInRules(limits, action, { client }),
        deps.now(),
        attempt,
        (error) => !(error instanceof HttpError && error.code === 'validation_failed'),
      ),

    /**
     * Counts one mail to a typed address against the user's hourly budget and the address's daily
     * one: per licence for an invitation, per subscription for a manager appointment. Called inside
     * the transaction that sends it: a refused call changes nothing (an added licence is rolled
     * back with it), a failed one counts nothing.
     */
    async limitMail(
      tx: Queryable,
      caller: AccountCaller,
      to:
        | { kind: 'licence'; subscriptionId: string; orderNumber: string; email: string }
        | { kind: 'manager'; subscriptionId: string; email: string },
    ) {
      const now = deps.now();
      await consumeRateLimit(
        tx,
        caller.tenant.id,
        {
          bucket: `license-mail:user:${caller.user.id}`,
          windowSeconds: 3600,
          limit: mailLimits.perUserPerHour,
        },
        now,
      );
      const bucket =
        to.kind === 'licence'
          ? `license-mail:licence:${to.subscriptionId}:${to.orderNumber}:${to.email}`
          : `license-mail:manager:${to.subscriptionId}:${to.email}`;
      await consumeRateLimit(
        tx,
        caller.tenant.id,
        { bucket, windowSeconds: 86_400, limit: mailLimits.perLicencePerDay },
        now,
      );
    },

    /** The user's multi-licence subscription, capability checked (portal-core.md §6). */
    async mine(tx: Queryable, caller: AccountCaller, id: string): Promise<Subscription> {
      const s = await getSubscriptionForUser(tx, caller.tenant.id, caller.user.id, id, {
        locale: caller.locale,
      });
      if (!s) throw refuse.notYours('There is no such subscription on your account.');
      requireCapability('multiUserLicenses', s, caller.tenant);
      return s;
    },

    /** The licence-manager rules of §6 (engine/domain/licenses.ts, as the screen shows its buttons). */
    check(
      action: LicenseAction,
      caller: AccountCaller,
      s: Subscription,
      object?: LicenseObjectState,
      license?: LicenseState,
    ) {
      const refusal = licenseActionRefusal(
        action,
        { isLicenseManager: isLicenceManager(s) },
        caller.tenant.multiUserLicenses,
        object,
        license,
      );
      if (refusal) throw REFUSALS[refusal]();
    },

    /** The object (locked) and its licences, or 404. */
    async objectOf(tx: Queryable, caller: AccountCaller, s: Subscription, orderNumber: string) {
      const object = ORDER_NUMBER.test(orderNumber)
        ? await lockLicenseObject(tx, caller.tenant.id, s.id, orderNumber)
        : null;
      if (!object) throw notFound('There is no such licence object on this subscription.');
      const licenses = await licensesOf(tx, caller.tenant.id, s.id, orderNumber);
      return { object, licenses, state: objectState(object, licenses) };
    },

    /**
     * The subscription a mailed link names (its publication, name and order number), read for an
     * anonymous client; null when there is none. The caller answers 404 before asking requireLinkFeature.
     */
    async linkedSubscription(tx: Queryable, tenant: ServerTenant, id: string) {
      const rows = await tx.query<{
        publication: string;
        publicationName: string | null;
        orderNumber: string;
      }>(
        `select s.publication, p.description as "publicationName", s.order_number::text as "orderNumber" from subscriptions s
           left join publications p on p.tenant_id = s.tenant_id and p.publication = s.publication
          where s.tenant_id = $1 and s.id = $2`,
        [tenant.id, id],
      );
      const row = rows[0];
      return row
        ? {
            publication: row.publication,
            publicationName: row.publicationName ?? row.publication,
            orderNumber: row.orderNumber,
          }
        : null;
    },

    /**
     * Per publication (portal-core.md §6 blacklists): the subscription a link names decides, so the
     * flag is asked here and not where the slice is mounted.
     */
    requireLinkFeature: (tenant: ServerTenant, publication: string) =>
      requireFeature(tenant, 'multi-user-licenses', publication),

    /** The account of an address on this tenant (made when there is none), speaking for the partner. */
    async accountFor(
      tx: Queryable,
      tenant: ServerTenant,
      email: string,
      bpNumber: string,
      names: { firstName: string | null; lastName: string | null },
    ): Promise<string> {
      let user = await findUserByEmail(tx, tenant.id, email);
      if (!user) {
        user = await createUser(tx, tenant.id, {
          email,
          firstName: names.firstName,
          lastName: names.lastName,
          displayName: [names.firstName, names.lastName].filter(Boolean).join(' ') || null,
        });
        await recordEvent(tx, tenant.id, 'account.created', {
          userId: user.id,
          email: user.email,
          source: 'license-invitation',
          bpNumbers: [bpNumber],
        });
      }
      await linkBusinessPartner(tx, tenant.id, user.id, bpNumber);
      return user.id;
    },
  };
}

export type LicenseKit = ReturnType<typeof createLicenseKit>;
