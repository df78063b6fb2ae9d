/**
 * Multi-user licences (account-flows.md §2 "Licences", §3, §4, §5, §6, §7, §8; portal-core.md §6
 * capability "multi-user licences: multi-licence and (licence manager or ordering party)").
 *
 * Every call of a signed-in user: the subscription must be theirs (else 404), the feature on for
 * its publication and the capability rule pass (requireCapability), and the licence-manager rules
 * of §6 (engine/domain/licenses.ts, the same functions the screen shows its buttons by). Each
 * change runs in one transaction and records an account event.
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
import type { Locale } from '../../engine/core/portalConfig';
import type { Subscription } from '../../schemas/generated/subscription';
import type { AcceptLicenseInfo, License, LicenseManager, LicenseObject } from '../../schemas/generated/licenses';
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
import { DEFAULT_SIGN_IN_LIMITS, limitSignInAttempt, type SignInLimits } from '../auth/rateLimit';
import { getSubscriptionForUser } from '../store/subscriptionStore';
import { createUser, findUserByEmail, linkBusinessPartner, normalizeEmail } from '../store/userStore';
import {
  addRole,
  confirmLicense,
  createPartner,
  deleteLicense,
  findLicense,
  insertLicense,
  licenseObjectsOf,
  licensesOf,
  lockLicenseObject,
  managersOf,
  removeRole,
  setInviteToken,
  setLicenseActive,
  type LicenseObjectRow,
  type LicensePartner,
  type LicenseRow,
} from '../store/licenseStore';
import { refuse, requireCapability, requireFeature } from '../tenancy/refusals';
import type { ServerTenant } from '../tenancy/tenantContext';
import type { AccountCaller } from '../account/accountContext';
import { licenseMail } from './licenseMails';

const ORDER_NUMBER = /^[0-9]{10}$/;

/** The refusals of §6 and §8 as answers: 403 for rules, 409 for states. */
const REFUSALS = {
  self_service_disabled: () => new HttpError(403, 'self_service_disabled', 'Self-service is switched off for this licence object.'),
  not_allowed: () => refuse.notAllowed('A licence manager may not do this (account-flows.md §6).'),
  license_limit_reached: () => new HttpError(409, 'license_limit_reached', 'All licences of this object are in use.'),
  license_not_reactivatable: () => new HttpError(409, 'license_not_reactivatable', 'This licence cannot be activated again.'),
  license_already_confirmed: () => new HttpError(409, 'license_already_confirmed', 'This licence has been accepted already.'),
  no_change: () => new HttpError(409, 'no_change', 'The licence is in that state already.'),
} as const;

const invalidFields = (fields: FieldErrors) => badRequest('validation_failed', 'Some fields are not valid.', { fields });
const trimmed = (value: string | null | undefined) => (value == null || value.trim() === '' ? null : value.trim());

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

const objectState = (object: LicenseObjectRow, licenses: readonly LicenseState[]): LicenseObjectState => ({
  maxActiveLicenses: object.maxActiveLicenses,
  selfServiceEnabled: object.selfServiceEnabled,
  licenses,
});

export function createLicenses(deps: { db: Database; mailFrom: string; now: () => Date; signInLimits?: SignInLimits }) {
  const { db } = deps;
  const limits = deps.signInLimits ?? DEFAULT_SIGN_IN_LIMITS;

  /** The user's multi-licence subscription, capability checked (portal-core.md §6). */
  async function mine(tx: Queryable, caller: AccountCaller, id: string): Promise<Subscription> {
    const s = await getSubscriptionForUser(tx, caller.tenant.id, caller.user.id, id);
    if (!s) throw refuse.notYours('There is no such subscription on your account.');
    requireCapability('multiUserLicenses', s, caller.tenant);
    return s;
  }

  function check(action: LicenseAction, caller: AccountCaller, s: Subscription, object?: LicenseObjectState, license?: LicenseState) {
    const refusal = licenseActionRefusal(action, { isLicenseManager: isLicenceManager(s) }, caller.tenant.multiUserLicenses, object, license);
    if (refusal) throw REFUSALS[refusal]();
  }

  /** The object (locked) and its licences, or 404. */
  async function objectOf(tx: Queryable, caller: AccountCaller, s: Subscription, orderNumber: string) {
    const object = ORDER_NUMBER.test(orderNumber) ? await lockLicenseObject(tx, caller.tenant.id, s.id, orderNumber) : null;
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
    return `${portalUrl}subscriptions/${encodeURIComponent(s.id)}/licenses/${encodeURIComponent(licenseId)}/accept?token=${encodeURIComponent(token)}&lang=${locale === 'de-DE' ? 'de' : 'en'}`;
  }

  /** A fresh single-use token for the licence, mailed to the invited address (the old link stops working). */
  async function invite(tx: Queryable, caller: AccountCaller, s: Subscription, license: LicenseRow, portalUrl: string): Promise<void> {
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
    await recordEvent(tx, caller.tenant.id, 'license.invitation_sent', { userId: caller.user.id, subscriptionId: s.id, orderNumber: license.orderNumber, licenseId: license.id });
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
      const license = ORDER_NUMBER.test(orderNumber) ? await findLicense(db, caller.tenant.id, s.id, licenseId) : null;
      if (!license || license.orderNumber !== orderNumber) throw notFound('There is no such licence.');
      return licenseView(license).businessPartner;
    },

    /** POST .../objects/{orderNumber}/licenses: a new licence user, invited by e-mail unless sendInvitation is false. */
    async add(caller: AccountCaller, id: string, orderNumber: string, body: LicenseAddRequest, portalUrl: string): Promise<License> {
      const { tenant } = caller;
      return db.transaction(async (tx) => {
        const s = await mine(tx, caller, id);
        const { state } = await objectOf(tx, caller, s, orderNumber);
        check('add', caller, s, state);
        const person = body.businessPartner ?? {};
        const errors = licensePersonErrors(person, { salutationRequired: tenant.multiUserLicenses.requireSalutation, salutationCodes: salutationCodes(tenant) });
        if (Object.keys(errors).length > 0) throw invalidFields(errors);
        const email = normalizeEmail(person.emailAddress ?? '');
        const partner: LicensePartner = { salutationCode: trimmed(person.salutationCode), firstName: trimmed(person.firstName), lastName1: trimmed(person.lastName1), emailAddress: email };
        const license = await insertLicense(tx, tenant.id, { subscriptionId: s.id, orderNumber, isReactivatable: body.reactivatable ?? true, businessPartner: partner, email, inviteTokenHash: null });
        if (!license) throw new HttpError(409, 'license_exists', 'This e-mail address has a licence of this object already.', { fields: { emailAddress: 'taken' } });
        await recordEvent(tx, tenant.id, 'license.added', { userId: caller.user.id, subscriptionId: s.id, orderNumber, licenseId: license.id });
        if (body.sendInvitation !== false) await invite(tx, caller, s, license, portalUrl);
        return licenseView(license);
      });
    },

    /** POST .../licenses/{licenseId} {isActive}. */
    async setActive(caller: AccountCaller, id: string, orderNumber: string, licenseId: string, isActive: boolean): Promise<License> {
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
        await recordEvent(tx, tenant.id, isActive ? 'license.activated' : 'license.deactivated', { userId: caller.user.id, subscriptionId: s.id, orderNumber, licenseId });
        return licenseView(updated);
      });
    },

    /** POST .../licenses/{licenseId}/send-invitation: a new link; the previous one stops working. */
    async sendInvitation(caller: AccountCaller, id: string, orderNumber: string, licenseId: string, portalUrl: string): Promise<void> {
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
        await recordEvent(tx, tenant.id, 'license.deleted', { userId: caller.user.id, subscriptionId: s.id, orderNumber, licenseId });
      });
    },

    /**
     * POST /subscriptions/{id}/license-managers: the given person becomes the licence manager in
     * place of the current ones. Their address gets an account on this tenant (or its existing one
     * is used) that speaks for the new partner, and a notice with the portal's address.
     */
    async replaceManager(caller: AccountCaller, id: string, body: LicensePersonRequest, portalUrl: string): Promise<LicenseManager> {
      const { tenant } = caller;
      return db.transaction(async (tx) => {
        const s = await mine(tx, caller, id);
        check('replaceManager', caller, s);
        // §5 "Manager dialog: salutation, email, first name, last name (max 30)".
        const errors = licensePersonErrors(body, { salutationRequired: true, salutationCodes: salutationCodes(tenant) });
        if (Object.keys(errors).length > 0) throw invalidFields(errors);
        const email = normalizeEmail(body.emailAddress ?? '');
        const previous = await managersOf(tx, tenant.id, s.id);
        for (const manager of previous) await removeRole(tx, tenant.id, s.id, manager.bpNumber, 'LV');
        const bpNumber = await createPartner(tx, tenant.id, { salutationCode: trimmed(body.salutationCode), firstName: trimmed(body.firstName), lastName1: trimmed(body.lastName1), emailAddress: email });
        await addRole(tx, tenant.id, s.id, bpNumber, 'LV');
        await accountFor(tx, tenant, email, bpNumber, { firstName: trimmed(body.firstName), lastName: trimmed(body.lastName1) });
        await recordEvent(tx, tenant.id, 'license_manager.replaced', { userId: caller.user.id, subscriptionId: s.id, bpNumber, previousBpNumbers: previous.map((m) => m.bpNumber) });
        const mail = licenseMail('managerAppointed', caller.locale, {
          tenant: tenant.name,
          name: [trimmed(body.firstName), trimmed(body.lastName1)].filter(Boolean).join(' '),
          publication: s.publicationName,
          orderNumber: s.orderNumber,
          link: `${portalUrl}login`,
        });
        await enqueueMail(tx, { tenantId: tenant.id, to: email, from: deps.mailFrom, ...mail });
        return (await managersOf(tx, tenant.id, s.id)).find((m) => m.bpNumber === bpNumber)!;
      });
    },

    /** DELETE /subscriptions/{id}/license-managers/{bpNumber}: never by a licence manager (§6). */
    async deleteManager(caller: AccountCaller, id: string, bpNumber: string): Promise<void> {
      const { tenant } = caller;
      await db.transaction(async (tx) => {
        const s = await mine(tx, caller, id);
        check('deleteManager', caller, s);
        const removed = await removeRole(tx, tenant.id, s.id, bpNumber, 'LV');
        if (removed === 0) throw notFound('There is no such licence manager.');
        await recordEvent(tx, tenant.id, 'license_manager.replaced', { userId: caller.user.id, subscriptionId: s.id, bpNumber: null, previousBpNumbers: [bpNumber] });
      });
    },

    /**
     * GET on the accept URL: what the form shows, when the token is the licence's current one and
     * it has not been used. 404 for an unknown licence; 400 `license_link_invalid` for a wrong or
     * replaced token; 409 `license_already_accepted` for a used one.
     */
    async acceptInfo(tenant: ServerTenant, id: string, licenseId: string, token: string, client: string): Promise<AcceptLicenseInfo> {
      await limitSignInAttempt(db, tenant.id, limits, 'license-accept', { client }, deps.now());
      const { license, publicationName } = await invitation(db, tenant, id, licenseId, token);
      return { email: license.email, publicationName, orderNumber: license.orderNumber, businessPartner: licenseView(license).businessPartner };
    },

    /** POST on the accept URL: the licence becomes confirmed and the invited address gets its account. */
    async accept(tenant: ServerTenant, id: string, licenseId: string, body: LicenseAcceptRequest, client: string): Promise<{ status: 'accepted'; email: string }> {
      await limitSignInAttempt(db, tenant.id, limits, 'license-accept', { client }, deps.now());
      return db.transaction(async (tx) => {
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
        const userId = await accountFor(tx, tenant, license.email, bpNumber, { firstName: partner.firstName ?? null, lastName: partner.lastName1 ?? null });
        if (license.isActive) await addRole(tx, tenant.id, id, bpNumber, 'WE', true);
        await confirmLicense(tx, tenant.id, license.id, { businessPartner: partner, bpNumber, role, academicYear: needsYear ? trimmed(body.academicYear) : null, userId });
        await recordEvent(tx, tenant.id, 'license.accepted', { userId, subscriptionId: id, orderNumber: license.orderNumber, licenseId: license.id });
        return { status: 'accepted' as const, email: license.email };
      });
    },
  };

  /** The licence an invitation link names, when its token is the current, unused one. */
  async function invitation(tx: Queryable, tenant: ServerTenant, id: string, licenseId: string, token: string, forUpdate = false) {
    const rows = await tx.query<{ publication: string; publicationName: string | null }>(
      `select s.publication, p.description as "publicationName" from subscriptions s
         left join publications p on p.tenant_id = s.tenant_id and p.publication = s.publication
        where s.tenant_id = $1 and s.id = $2`,
      [tenant.id, id],
    );
    const license = rows[0] ? await findLicense(tx, tenant.id, id, licenseId, forUpdate) : null;
    if (!rows[0] || !license) throw notFound('There is no such licence.');
    requireFeature(tenant, 'multi-user-licenses', rows[0].publication);
    const matches = Boolean(token) && license.inviteTokenHash !== null && constantTimeEquals(hashToken(token), license.inviteTokenHash);
    if (!matches || !license.invitationLive) throw badRequest('license_link_invalid', 'This link is not valid (any more). Ask for a new invitation.');
    if (license.isConfirmed) throw new HttpError(409, 'license_already_accepted', 'This licence has been accepted already.');
    return { license, publicationName: rows[0].publicationName ?? rows[0].publication };
  }

  /** The account of an address on this tenant (made when there is none), speaking for the partner. */
  async function accountFor(tx: Queryable, tenant: ServerTenant, email: string, bpNumber: string, names: { firstName: string | null; lastName: string | null }): Promise<string> {
    let user = await findUserByEmail(tx, tenant.id, email);
    if (!user) {
      user = await createUser(tx, tenant.id, { email, firstName: names.firstName, lastName: names.lastName, displayName: [names.firstName, names.lastName].filter(Boolean).join(' ') || null });
      await recordEvent(tx, tenant.id, 'account.created', { userId: user.id, email: user.email, source: 'license-invitation', bpNumbers: [bpNumber] });
    }
    await linkBusinessPartner(tx, tenant.id, user.id, bpNumber);
    return user.id;
  }
}

export type Licenses = ReturnType<typeof createLicenses>;
