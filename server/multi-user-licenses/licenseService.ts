/**
 * Multi-user licences (account-flows.md §2 "Licences", §3, §4, §5, §6, §7, §8; portal-core.md §6
 * capability "multi-user licences: multi-licence and (licence manager or ordering party)").
 *
 * Every call of a signed-in user: the subscription must be theirs (else 404), the feature on for
 * its publication and the capability rule pass (requireCapability), and the licence-manager rules
 * of §6 (engine/domain/licenses.ts, the same functions the screen shows its buttons by). Each
 * change runs in one transaction and records an account event.
 *
 * Appointing a licence manager works the same way (issue 13 review, finding 1): the appointment is
 * stored as pending and the appointed address is mailed a link with a single-use token (14 days);
 * only when that link is confirmed does the address get an account and the LV role, and do the
 * previous managers lose theirs. Nobody can link an account, or a person's data, to an address by
 * typing it.
 *
 * Invitation and appointment mails go to addresses the user types, so they are limited per user
 * and per licence (issue 13 review, finding 3; LICENSE_MAIL_LIMITS).
 *
 * Accepting is anonymous: the accept URL carries the single-use token of the invitation e-mail
 * (only its hash is stored; a resend replaces it). The token is the proof that the person reads the
 * invited address, so accepting gives that address an account on this tenant (or links the
 * existing one), makes a business partner for the person, and — while the licence is active — gives
 * that partner the goods-recipient role (WE) on the subscription: the licence user then sees the
 * licensed subscription after signing in. Deactivating takes the role away again, activating gives
 * it back, deleting removes it.
 */
import type { Database, Queryable } from '../db/database';
import type { Locale } from '../../engine/domain/locales';
import type { Subscription } from '../../schemas/generated/subscription';
import type {
  AcceptLicenseInfo,
  License,
  LicenseManager,
  LicenseManagerAppointment,
  LicenseObject,
  ManagerAppointmentInfo,
} from '../../schemas/generated/licenses';
import type { LicenseAddRequest } from '../../schemas/generated/license-add-request';
import type { LicensePersonRequest } from '../../schemas/generated/license-person-request';
import type { LicenseAcceptRequest } from '../../schemas/generated/license-accept-request';
import { isLicenceManager } from '../../engine/domain/capabilities';
import {
  acceptLicenseErrors,
  licenseActionRefusal,
  licensePersonErrors,
  type FieldErrors,
  type LicenseAction,
  type LicenseObjectState,
  type LicenseState,
} from '../../engine/domain/licenses';
import { badRequest, HttpError, notFound } from '../http/errors';
import { enqueueMail } from '../mail/mailQueue';
import { recordEvent } from '../events/recordEvent';
import { constantTimeEquals, hashToken, newSecretToken } from '../auth/tokens';
import {
  consumeRateLimit,
  countingFailures,
  DEFAULT_SIGN_IN_LIMITS,
  signInRules,
  type SignInLimits,
} from '../auth/rateLimit';
import { getSubscriptionForUser } from '../store/subscriptionStore';
import { createUser, findUserByEmail, linkBusinessPartner, normalizeEmail } from '../store/userStore';
import {
  addRole,
  confirmAppointment,
  confirmLicense,
  createPartner,
  deleteLicense,
  deletePendingAppointment,
  findAppointment,
  findLicense,
  insertLicense,
  licenseObjectsOf,
  licensesOf,
  lockLicenseObject,
  managersOf,
  pendingAppointmentsOf,
  removeRole,
  replacePendingAppointment,
  setInviteToken,
  setLicenseActive,
  type AppointmentRow,
  type LicenseObjectRow,
  type LicensePartner,
  type LicenseRow,
  APPOINTMENT_DAYS,
} from '../store/licenseStore';
import { refuse, requireCapability, requireFeature } from '../tenancy/refusals';
import type { ServerTenant } from '../tenancy/tenantContext';
import type { AccountCaller } from '../account/accountContext';
import { licenseMail } from './licenseMails';
import { langParam } from '../../engine/domain/language';

const ORDER_NUMBER = /^[0-9]{10}$/;

/**
 * Limits of the mails a signed-in user makes the portal send to addresses they type (licence
 * invitations and resends, licence-manager appointments): per user and hour, and per licence (its
 * object and invited address, so deleting and adding the same person again does not reset it) and
 * day. Beyond them the call answers 429 `rate_limited` and sends nothing.
 */
export interface LicenseMailLimits {
  perUserPerHour: number;
  perLicencePerDay: number;
}
export const LICENSE_MAIL_LIMITS: LicenseMailLimits = { perUserPerHour: 50, perLicencePerDay: 5 };

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

const linkInvalid = () =>
  badRequest('license_link_invalid', 'This link is not valid (any more). Ask for a new invitation.');
const invalidFields = (fields: FieldErrors) =>
  badRequest('validation_failed', 'Some fields are not valid.', { fields });
const trimmed = (value: string | null | undefined) =>
  value == null || value.trim() === '' ? null : value.trim();

function licenseView(row: LicenseRow): License {
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

const appointmentView = (a: AppointmentRow): LicenseManagerAppointment => ({
  id: a.id,
  salutationCode: a.salutationCode,
  firstName: a.firstName,
  lastName1: a.lastName1,
  email: a.email,
  sentAt: a.sentAt,
  expiresAt: a.expiresAt,
});

/** The capability rule of portal-core.md §6 for a subscription as its user holds it. */
function capable(s: Subscription, tenant: ServerTenant): boolean {
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

export function createLicenses(deps: {
  db: Database;
  mailFrom: string;
  now: () => Date;
  signInLimits?: SignInLimits;
  licenseMailLimits?: LicenseMailLimits;
}) {
  const { db } = deps;
  const limits = deps.signInLimits ?? DEFAULT_SIGN_IN_LIMITS;
  /**
   * A licence mail's link opened by an anonymous client: refused tokens count against the client,
   * successes and form mistakes do not (issue 22: limits count failures, not honest use).
   */
  const withLinkToken = <T>(
    tenant: ServerTenant,
    action: string,
    client: string,
    attempt: () => Promise<T>,
  ) =>
    countingFailures(
      db,
      tenant.id,
      signInRules(limits, action, { client }),
      deps.now(),
      attempt,
      (error) => !(error instanceof HttpError && error.code === 'validation_failed'),
    );
  const mailLimits = deps.licenseMailLimits ?? LICENSE_MAIL_LIMITS;

  /**
   * Counts one mail to a typed address against the user's hourly budget and, for an invitation,
   * the licence's daily one. Called inside the transaction that sends it: a refused call changes
   * nothing (an added licence is rolled back with it), a failed one counts nothing.
   */
  async function limitMail(
    tx: Queryable,
    caller: AccountCaller,
    licence?: { subscriptionId: string; orderNumber: string; email: string },
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
    if (licence) {
      const bucket = `license-mail:licence:${licence.subscriptionId}:${licence.orderNumber}:${licence.email}`;
      await consumeRateLimit(
        tx,
        caller.tenant.id,
        { bucket, windowSeconds: 86_400, limit: mailLimits.perLicencePerDay },
        now,
      );
    }
  }

  /** The user's multi-licence subscription, capability checked (portal-core.md §6). */
  async function mine(tx: Queryable, caller: AccountCaller, id: string): Promise<Subscription> {
    const s = await getSubscriptionForUser(tx, caller.tenant.id, caller.user.id, id, {
      locale: caller.locale,
    });
    if (!s) throw refuse.notYours('There is no such subscription on your account.');
    requireCapability('multiUserLicenses', s, caller.tenant);
    return s;
  }

  function check(
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
  }

  /** The object (locked) and its licences, or 404. */
  async function objectOf(tx: Queryable, caller: AccountCaller, s: Subscription, orderNumber: string) {
    const object = ORDER_NUMBER.test(orderNumber)
      ? await lockLicenseObject(tx, caller.tenant.id, s.id, orderNumber)
      : null;
    if (!object) throw notFound('There is no such licence object on this subscription.');
    const licenses = await licensesOf(tx, caller.tenant.id, s.id, orderNumber);
    return { object, licenses, state: objectState(object, licenses) };
  }

  function licenseIn(licenses: LicenseRow[], licenseId: string): LicenseRow {
    const license = licenses.find((l) => l.id === licenseId);
    if (!license) throw notFound('There is no such licence.');
    return license;
  }

  function acceptLink(portalUrl: string, s: Subscription, licenseId: string, token: string, locale: Locale) {
    return `${portalUrl}subscriptions/${encodeURIComponent(s.id)}/licenses/${encodeURIComponent(licenseId)}/accept?token=${encodeURIComponent(token)}&lang=${langParam(locale)}`;
  }

  /** A fresh single-use token for the licence, mailed to the invited address (the old link stops working). */
  async function invite(
    tx: Queryable,
    caller: AccountCaller,
    s: Subscription,
    license: LicenseRow,
    portalUrl: string,
  ): Promise<void> {
    await limitMail(tx, caller, {
      subscriptionId: s.id,
      orderNumber: license.orderNumber,
      email: license.email,
    });
    const token = newSecretToken();
    await setInviteToken(tx, caller.tenant.id, license.id, hashToken(token));
    const bp = license.businessPartner;
    const mail = licenseMail('invitation', caller.locale, {
      tenant: caller.tenant.name,
      name: [bp.firstName, bp.lastName1].filter(Boolean).join(' '),
      publication: s.publicationName,
      orderNumber: license.orderNumber,
      link: acceptLink(portalUrl, s, license.id, token, caller.locale),
    });
    await enqueueMail(tx, { tenantId: caller.tenant.id, to: license.email, from: deps.mailFrom, ...mail });
    await recordEvent(tx, caller.tenant.id, 'license.invitation_sent', {
      userId: caller.user.id,
      subscriptionId: s.id,
      orderNumber: license.orderNumber,
      licenseId: license.id,
    });
  }

  const salutationCodes = (tenant: ServerTenant) => tenant.salutations.options.map((o) => o.code);

  return {
    /** GET /subscriptions/{id}/licenses: the licence objects with all their licences. */
    async list(caller: AccountCaller, id: string): Promise<LicenseObject[]> {
      const s = await mine(db, caller, id);
      const objects = await licenseObjectsOf(db, caller.tenant.id, s.id);
      const licenses = await licensesOf(db, caller.tenant.id, s.id);
      return objects.map((o) => ({
        orderNumber: o.orderNumber,
        publicationName: s.publicationName,
        licenses: licenses.filter((l) => l.orderNumber === o.orderNumber).map(licenseView),
        maxActiveLicenses: o.maxActiveLicenses,
        selfServiceEnabled: o.selfServiceEnabled,
      }));
    },

    /** GET /subscriptions/{id}/license-managers. */
    async managers(caller: AccountCaller, id: string): Promise<LicenseManager[]> {
      const s = await mine(db, caller, id);
      return managersOf(db, caller.tenant.id, s.id);
    },

    /** GET .../objects/{orderNumber}/licenses/{licenseId}/business-partner. */
    async partner(caller: AccountCaller, id: string, orderNumber: string, licenseId: string) {
      const s = await mine(db, caller, id);
      const license = ORDER_NUMBER.test(orderNumber)
        ? await findLicense(db, caller.tenant.id, s.id, licenseId)
        : null;
      if (!license || license.orderNumber !== orderNumber) throw notFound('There is no such licence.');
      return licenseView(license).businessPartner;
    },

    /** POST .../objects/{orderNumber}/licenses: a new licence user, invited by e-mail unless sendInvitation is false. */
    async add(
      caller: AccountCaller,
      id: string,
      orderNumber: string,
      body: LicenseAddRequest,
      portalUrl: string,
    ): Promise<License> {
      const { tenant } = caller;
      return db.transaction(async (tx) => {
        const s = await mine(tx, caller, id);
        const { state } = await objectOf(tx, caller, s, orderNumber);
        check('add', caller, s, state);
        const person = body.businessPartner ?? {};
        const errors = licensePersonErrors(person, {
          salutationRequired: tenant.multiUserLicenses.requireSalutation,
          salutationCodes: salutationCodes(tenant),
        });
        if (Object.keys(errors).length > 0) throw invalidFields(errors);
        const email = normalizeEmail(person.emailAddress ?? '');
        const partner: LicensePartner = {
          salutationCode: trimmed(person.salutationCode),
          firstName: trimmed(person.firstName),
          lastName1: trimmed(person.lastName1),
          emailAddress: email,
        };
        const license = await insertLicense(tx, tenant.id, {
          subscriptionId: s.id,
          orderNumber,
          isReactivatable: body.reactivatable ?? true,
          businessPartner: partner,
          email,
          inviteTokenHash: null,
        });
        if (!license)
          throw new HttpError(
            409,
            'license_exists',
            'This e-mail address has a licence of this object already.',
            { fields: { emailAddress: 'taken' } },
          );
        await recordEvent(tx, tenant.id, 'license.added', {
          userId: caller.user.id,
          subscriptionId: s.id,
          orderNumber,
          licenseId: license.id,
        });
        if (body.sendInvitation !== false) await invite(tx, caller, s, license, portalUrl);
        return licenseView(license);
      });
    },

    /** POST .../licenses/{licenseId} {isActive}. */
    async setActive(
      caller: AccountCaller,
      id: string,
      orderNumber: string,
      licenseId: string,
      isActive: boolean,
    ): Promise<License> {
      const { tenant } = caller;
      return db.transaction(async (tx) => {
        const s = await mine(tx, caller, id);
        const { licenses, state } = await objectOf(tx, caller, s, orderNumber);
        const license = licenseIn(licenses, licenseId);
        check(isActive ? 'activate' : 'deactivate', caller, s, state, license);
        const updated = await setLicenseActive(tx, tenant.id, license.id, isActive);
        // While active, an accepted licence lets its user see the subscription (WE); inactive, not.
        if (license.bpNumber) {
          if (isActive) await addRole(tx, tenant.id, s.id, license.bpNumber, 'WE', true);
          else await removeRole(tx, tenant.id, s.id, license.bpNumber, 'WE');
        }
        await recordEvent(tx, tenant.id, isActive ? 'license.activated' : 'license.deactivated', {
          userId: caller.user.id,
          subscriptionId: s.id,
          orderNumber,
          licenseId,
        });
        return licenseView(updated);
      });
    },

    /** POST .../licenses/{licenseId}/send-invitation: a new link; the previous one stops working. */
    async sendInvitation(
      caller: AccountCaller,
      id: string,
      orderNumber: string,
      licenseId: string,
      portalUrl: string,
    ): Promise<void> {
      await db.transaction(async (tx) => {
        const s = await mine(tx, caller, id);
        const { licenses, state } = await objectOf(tx, caller, s, orderNumber);
        const license = licenseIn(licenses, licenseId);
        check('sendInvitation', caller, s, state, license);
        await invite(tx, caller, s, license, portalUrl);
      });
    },

    /** DELETE .../licenses/{licenseId}. */
    async remove(caller: AccountCaller, id: string, orderNumber: string, licenseId: string): Promise<void> {
      const { tenant } = caller;
      await db.transaction(async (tx) => {
        const s = await mine(tx, caller, id);
        const { licenses, state } = await objectOf(tx, caller, s, orderNumber);
        const license = licenseIn(licenses, licenseId);
        check('delete', caller, s, state, license);
        if (license.bpNumber) await removeRole(tx, tenant.id, s.id, license.bpNumber, 'WE');
        await deleteLicense(tx, tenant.id, license.id);
        await recordEvent(tx, tenant.id, 'license.deleted', {
          userId: caller.user.id,
          subscriptionId: s.id,
          orderNumber,
          licenseId,
        });
      });
    },

    /**
     * POST /subscriptions/{id}/license-managers: appoints the given person licence manager in place
     * of the current ones — pending until they confirm the mailed link (confirmManager). Nothing
     * changes on the subscription now: no account, no partner, no role (issue 13 review, finding 1).
     * A pending appointment of the subscription is replaced (its link stops working).
     */
    async replaceManager(
      caller: AccountCaller,
      id: string,
      body: LicensePersonRequest,
      portalUrl: string,
    ): Promise<LicenseManagerAppointment> {
      const { tenant } = caller;
      return db.transaction(async (tx) => {
        const s = await mine(tx, caller, id);
        check('replaceManager', caller, s);
        // §5 "Manager dialog: salutation, email, first name, last name (max 30)".
        const errors = licensePersonErrors(body, {
          salutationRequired: true,
          salutationCodes: salutationCodes(tenant),
        });
        if (Object.keys(errors).length > 0) throw invalidFields(errors);
        await limitMail(tx, caller);
        const email = normalizeEmail(body.emailAddress ?? '');
        const token = newSecretToken();
        const appointment = await replacePendingAppointment(tx, tenant.id, {
          subscriptionId: s.id,
          salutationCode: trimmed(body.salutationCode),
          firstName: trimmed(body.firstName),
          lastName1: trimmed(body.lastName1),
          email,
          tokenHash: hashToken(token),
          appointedByUserId: caller.user.id,
          locale: caller.locale,
        });
        await recordEvent(tx, tenant.id, 'license_manager.appointment_sent', {
          userId: caller.user.id,
          subscriptionId: s.id,
          appointmentId: appointment.id,
        });
        const mail = licenseMail('managerAppointment', caller.locale, {
          tenant: tenant.name,
          name: [appointment.firstName, appointment.lastName1].filter(Boolean).join(' '),
          publication: s.publicationName,
          orderNumber: s.orderNumber,
          days: String(APPOINTMENT_DAYS),
          link: `${portalUrl}subscriptions/${encodeURIComponent(s.id)}/license-managers/${encodeURIComponent(appointment.id)}/confirm?token=${encodeURIComponent(token)}&lang=${langParam(caller.locale)}`,
        });
        await enqueueMail(tx, { tenantId: tenant.id, to: email, from: deps.mailFrom, ...mail });
        return appointmentView(appointment);
      });
    },

    /** GET /subscriptions/{id}/license-manager-appointments: the pending appointment (whose link still works), if any. */
    async appointments(caller: AccountCaller, id: string): Promise<LicenseManagerAppointment[]> {
      const s = await mine(db, caller, id);
      return (await pendingAppointmentsOf(db, caller.tenant.id, s.id)).map(appointmentView);
    },

    /** DELETE /subscriptions/{id}/license-manager-appointments/{appointmentId}: withdraws a pending appointment (its link stops working). */
    async withdrawAppointment(caller: AccountCaller, id: string, appointmentId: string): Promise<void> {
      const { tenant } = caller;
      await db.transaction(async (tx) => {
        const s = await mine(tx, caller, id);
        check('replaceManager', caller, s);
        if ((await deletePendingAppointment(tx, tenant.id, s.id, appointmentId)) === 0)
          throw notFound('There is no such pending appointment.');
      });
    },

    /**
     * GET on the confirm URL: what the confirm page shows, when the token is the appointment's and
     * it is pending and younger than 14 days. Same answers as the accept URL: 404 unknown,
     * 400 `license_link_invalid`, 409 `license_already_accepted`.
     */
    async appointmentInfo(
      tenant: ServerTenant,
      id: string,
      appointmentId: string,
      token: string,
      client: string,
    ): Promise<ManagerAppointmentInfo> {
      return withLinkToken(tenant, 'license-manager-confirm', client, async () => {
        const { appointment, publicationName, orderNumber } = await appointmentOf(
          db,
          tenant,
          id,
          appointmentId,
          token,
        );
        return {
          email: appointment.email,
          firstName: appointment.firstName,
          lastName1: appointment.lastName1,
          publicationName,
          orderNumber,
        };
      });
    },

    /**
     * POST on the confirm URL: the link is the proof that the appointed person reads the address.
     * Only now does the address get its account on this tenant (or its existing one is used), a
     * business partner with the LV role, and do the previous managers lose theirs — while the
     * person who appointed may still appoint (else the appointment lapsed: `license_link_invalid`).
     */
    async confirmManager(
      tenant: ServerTenant,
      id: string,
      appointmentId: string,
      token: string,
      client: string,
    ): Promise<{ status: 'confirmed'; email: string }> {
      return withLinkToken(tenant, 'license-manager-confirm', client, () =>
        db.transaction(async (tx) => {
          const { appointment } = await appointmentOf(tx, tenant, id, appointmentId, token, true);
          const appointer = await getSubscriptionForUser(tx, tenant.id, appointment.appointedByUserId, id);
          const stillAllowed =
            Boolean(appointer) &&
            capable(appointer!, tenant) &&
            licenseActionRefusal(
              'replaceManager',
              { isLicenseManager: isLicenceManager(appointer!) },
              tenant.multiUserLicenses,
            ) === null;
          if (!stillAllowed) throw linkInvalid();
          const previous = await managersOf(tx, tenant.id, id);
          for (const manager of previous) await removeRole(tx, tenant.id, id, manager.bpNumber, 'LV');
          const names = { firstName: appointment.firstName, lastName: appointment.lastName1 };
          const bpNumber = await createPartner(tx, tenant.id, {
            salutationCode: appointment.salutationCode,
            firstName: appointment.firstName,
            lastName1: appointment.lastName1,
            emailAddress: appointment.email,
          });
          await addRole(tx, tenant.id, id, bpNumber, 'LV');
          const userId = await accountFor(tx, tenant, appointment.email, bpNumber, names);
          await confirmAppointment(tx, tenant.id, appointment.id, { userId, bpNumber });
          await recordEvent(tx, tenant.id, 'license_manager.replaced', {
            userId,
            subscriptionId: id,
            bpNumber,
            previousBpNumbers: previous.map((m) => m.bpNumber),
            appointmentId: appointment.id,
          });
          return { status: 'confirmed' as const, email: appointment.email };
        }),
      );
    },

    /** DELETE /subscriptions/{id}/license-managers/{bpNumber}: never by a licence manager (§6). */
    async deleteManager(caller: AccountCaller, id: string, bpNumber: string): Promise<void> {
      const { tenant } = caller;
      await db.transaction(async (tx) => {
        const s = await mine(tx, caller, id);
        check('deleteManager', caller, s);
        const removed = await removeRole(tx, tenant.id, s.id, bpNumber, 'LV');
        if (removed === 0) throw notFound('There is no such licence manager.');
        await recordEvent(tx, tenant.id, 'license_manager.replaced', {
          userId: caller.user.id,
          subscriptionId: s.id,
          bpNumber: null,
          previousBpNumbers: [bpNumber],
        });
      });
    },

    /**
     * GET on the accept URL: what the form shows, when the token is the licence's current one and
     * it has not been used. 404 for an unknown licence; 400 `license_link_invalid` for a wrong or
     * replaced token; 409 `license_already_accepted` for a used one.
     */
    async acceptInfo(
      tenant: ServerTenant,
      id: string,
      licenseId: string,
      token: string,
      client: string,
    ): Promise<AcceptLicenseInfo> {
      return withLinkToken(tenant, 'license-accept', client, async () => {
        const { license, publicationName } = await invitation(db, tenant, id, licenseId, token);
        return {
          email: license.email,
          publicationName,
          orderNumber: license.orderNumber,
          businessPartner: licenseView(license).businessPartner,
        };
      });
    },

    /** POST on the accept URL: the licence becomes confirmed and the invited address gets its account. */
    async accept(
      tenant: ServerTenant,
      id: string,
      licenseId: string,
      body: LicenseAcceptRequest,
      client: string,
    ): Promise<{ status: 'accepted'; email: string }> {
      return withLinkToken(tenant, 'license-accept', client, () =>
        db.transaction(async (tx) => {
          const { license } = await invitation(tx, tenant, id, licenseId, body.token, true);
          const settings = tenant.multiUserLicenses;
          const errors = acceptLicenseErrors(body, settings, {
            salutationCodes: salutationCodes(tenant),
            academicTitleCodes: tenant.academicTitles.options.map((o) => o.code),
          });
          if (Object.keys(errors).length > 0) throw invalidFields(errors);
          const bp = body.businessPartner;
          const role = trimmed(body.role);
          const needsYear = settings.roles.find((r) => r.code === role)?.requiresAcademicYear ?? false;
          const partner: LicensePartner = {
            salutationCode: trimmed(bp.salutationCode),
            titleAcademic: trimmed(bp.titleAcademic),
            firstName: trimmed(bp.firstName),
            lastName1: trimmed(bp.lastName1),
            company1: trimmed(bp.company1),
            emailAddress: license.email,
          };
          const bpNumber = await createPartner(tx, tenant.id, partner);
          const userId = await accountFor(tx, tenant, license.email, bpNumber, {
            firstName: partner.firstName ?? null,
            lastName: partner.lastName1 ?? null,
          });
          if (license.isActive) await addRole(tx, tenant.id, id, bpNumber, 'WE', true);
          await confirmLicense(tx, tenant.id, license.id, {
            businessPartner: partner,
            bpNumber,
            role,
            academicYear: needsYear ? trimmed(body.academicYear) : null,
            userId,
          });
          await recordEvent(tx, tenant.id, 'license.accepted', {
            userId,
            subscriptionId: id,
            orderNumber: license.orderNumber,
            licenseId: license.id,
          });
          return { status: 'accepted' as const, email: license.email };
        }),
      );
    },
  };

  /** The licence an invitation link names, when its token is the current, unused one. */
  async function invitation(
    tx: Queryable,
    tenant: ServerTenant,
    id: string,
    licenseId: string,
    token: string,
    forUpdate = false,
  ) {
    const rows = await tx.query<{ publication: string; publicationName: string | null }>(
      `select s.publication, p.description as "publicationName" from subscriptions s
         left join publications p on p.tenant_id = s.tenant_id and p.publication = s.publication
        where s.tenant_id = $1 and s.id = $2`,
      [tenant.id, id],
    );
    const license = rows[0] ? await findLicense(tx, tenant.id, id, licenseId, forUpdate) : null;
    if (!rows[0] || !license) throw notFound('There is no such licence.');
    // Per publication (portal-core.md §6 blacklists): the licence's subscription decides, so the
    // flag is asked here and not where the slice is mounted.
    requireFeature(tenant, 'multi-user-licenses', rows[0].publication);
    const matches =
      Boolean(token) &&
      license.inviteTokenHash !== null &&
      constantTimeEquals(hashToken(token), license.inviteTokenHash);
    if (!matches || !license.invitationLive) throw linkInvalid();
    if (license.isConfirmed)
      throw new HttpError(409, 'license_already_accepted', 'This licence has been accepted already.');
    return { license, publicationName: rows[0].publicationName ?? rows[0].publication };
  }

  /** The appointment a confirm link names, when its token is the appointment's and it is pending and live. */
  async function appointmentOf(
    tx: Queryable,
    tenant: ServerTenant,
    id: string,
    appointmentId: string,
    token: string,
    forUpdate = false,
  ) {
    const rows = await tx.query<{ publication: string; publicationName: string | null; orderNumber: string }>(
      `select s.publication, p.description as "publicationName", s.order_number::text as "orderNumber" from subscriptions s
         left join publications p on p.tenant_id = s.tenant_id and p.publication = s.publication
        where s.tenant_id = $1 and s.id = $2`,
      [tenant.id, id],
    );
    const appointment = rows[0] ? await findAppointment(tx, tenant.id, id, appointmentId, forUpdate) : null;
    if (!rows[0] || !appointment) throw notFound('There is no such appointment.');
    requireFeature(tenant, 'multi-user-licenses', rows[0].publication);
    const matches = Boolean(token) && constantTimeEquals(hashToken(token), appointment.tokenHash);
    if (!matches || !appointment.live) throw linkInvalid();
    if (appointment.confirmedAt)
      throw new HttpError(409, 'license_already_accepted', 'This appointment has been confirmed already.');
    return {
      appointment,
      publicationName: rows[0].publicationName ?? rows[0].publication,
      orderNumber: rows[0].orderNumber,
    };
  }

  /** The account of an address on this tenant (made when there is none), speaking for the partner. */
  async function accountFor(
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
  }
}

export type Licenses = ReturnType<typeof createLicenses>;
