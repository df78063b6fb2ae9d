/**
 * Licence users of a licence object (account-flows.md §2 "Licences", §5, §6, §7): listing them,
 * adding one (invited by e-mail), activating and deactivating, a new invitation, deleting. While
 * active, an accepted licence's partner has the goods-recipient role (WE) on the subscription.
 */
import type { Queryable } from '../../db/database';
import type { Subscription } from '../../../schemas/generated/subscription';
import type { License, LicenseObject } from '../../../schemas/generated/licenses';
import type { LicenseAddRequest } from '../../../schemas/generated/license-add-request';
import { licensePersonErrors } from '../../../engine/domain/licenses';
import { HttpError, notFound } from '../../http/errors';
import { enqueueMail } from '../../store/mailQueueStore';
import { lockUntilCommit } from '../../store/transactionLocks';
import { recordEvent } from '../../events/recordEvent';
import { hashToken, newSecretToken } from '../../auth/tokens';
import { normalizeEmail } from '../../store/userStore';
import {
  addRole,
  deleteLicense,
  findLicense,
  insertLicense,
  licenseObjectsOf,
  licensesOf,
  removeRole,
  setInviteToken,
  setLicenseActive,
  type LicensePartner,
  type LicenseRow,
} from '../../store/licenseStore';
import type { AccountCaller } from '../../account/accountContext';
import { licenseMail } from '../licenseMails';
import {
  fullName,
  invalidFields,
  licenseIn,
  licenseView,
  mailedLink,
  ORDER_NUMBER,
  salutationCodes,
  trimmed,
  type LicenseKit,
} from '../licenseKit';

/** GET /subscriptions/{id}/licenses: the licence objects with all their licences. */
export async function list(kit: LicenseKit, caller: AccountCaller, id: string): Promise<LicenseObject[]> {
  const { db } = kit;
  const s = await kit.mine(db, caller, id);
  const objects = await licenseObjectsOf(db, caller.tenant.id, s.id);
  const licenses = await licensesOf(db, caller.tenant.id, s.id);
  return objects.map((o) => ({
    orderNumber: o.orderNumber,
    publicationName: s.publicationName,
    licenses: licenses.filter((l) => l.orderNumber === o.orderNumber).map(licenseView),
    maxActiveLicenses: o.maxActiveLicenses,
    selfServiceEnabled: o.selfServiceEnabled,
  }));
}

/** GET .../objects/{orderNumber}/licenses/{licenseId}/business-partner. */
export async function partner(
  kit: LicenseKit,
  caller: AccountCaller,
  id: string,
  orderNumber: string,
  licenseId: string,
) {
  const s = await kit.mine(kit.db, caller, id);
  const license = ORDER_NUMBER.test(orderNumber)
    ? await findLicense(kit.db, caller.tenant.id, s.id, licenseId)
    : null;
  if (!license || license.orderNumber !== orderNumber) throw notFound('There is no such licence.');
  return licenseView(license).businessPartner;
}

/** POST .../objects/{orderNumber}/licenses: a new licence user, invited by e-mail unless sendInvitation is false. */
export async function add(
  kit: LicenseKit,
  caller: AccountCaller,
  id: string,
  orderNumber: string,
  body: LicenseAddRequest,
  portalUrl: string,
): Promise<License> {
  const { tenant } = caller;
  return kit.db.transaction(async (tx) => {
    const s = await kit.mine(tx, caller, id);
    const { state } = await kit.objectOf(tx, caller, s, orderNumber);
    kit.check('add', caller, s, state);
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
        {
          fields: { emailAddress: 'taken' },
        },
      );
    await recordEvent(tx, tenant.id, 'license.added', {
      userId: caller.user.id,
      subscriptionId: s.id,
      orderNumber,
      licenseId: license.id,
      // The order system keys its licence record by the person's address (docs/going-live.md, licences).
      email,
      businessPartner: partner,
    });
    if (body.sendInvitation !== false) await invite(kit, tx, caller, s, license, portalUrl);
    return licenseView(license);
  });
}

/** POST .../licenses/{licenseId} {isActive}. */
export async function setActive(
  kit: LicenseKit,
  caller: AccountCaller,
  id: string,
  orderNumber: string,
  licenseId: string,
  isActive: boolean,
): Promise<License> {
  const { tenant } = caller;
  return kit.db.transaction(async (tx) => {
    const s = await kit.mine(tx, caller, id);
    const { licenses, state } = await kit.objectOf(tx, caller, s, orderNumber);
    const license = licenseIn(licenses, licenseId);
    kit.check(isActive ? 'activate' : 'deactivate', caller, s, state, license);
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
      email: license.email,
    });
    return licenseView(updated);
  });
}

/** POST .../licenses/{licenseId}/send-invitation: a new link; the previous one stops working. */
export async function sendInvitation(
  kit: LicenseKit,
  caller: AccountCaller,
  id: string,
  orderNumber: string,
  licenseId: string,
  portalUrl: string,
): Promise<void> {
  await kit.db.transaction(async (tx) => {
    const s = await kit.mine(tx, caller, id);
    const { licenses, state } = await kit.objectOf(tx, caller, s, orderNumber);
    const license = licenseIn(licenses, licenseId);
    kit.check('sendInvitation', caller, s, state, license);
    await invite(kit, tx, caller, s, license, portalUrl);
  });
}

/** DELETE .../licenses/{licenseId}. */
export async function remove(
  kit: LicenseKit,
  caller: AccountCaller,
  id: string,
  orderNumber: string,
  licenseId: string,
): Promise<void> {
  const { tenant } = caller;
  await kit.db.transaction(async (tx) => {
    const s = await kit.mine(tx, caller, id);
    const { licenses, state } = await kit.objectOf(tx, caller, s, orderNumber);
    const license = licenseIn(licenses, licenseId);
    kit.check('delete', caller, s, state, license);
    if (license.bpNumber) await removeRole(tx, tenant.id, s.id, license.bpNumber, 'WE');
    await deleteLicense(tx, tenant.id, license.id);
    await recordEvent(tx, tenant.id, 'license.deleted', {
      userId: caller.user.id,
      subscriptionId: s.id,
      orderNumber,
      licenseId,
      email: license.email,
    });
  });
}

/** A fresh single-use token for the licence, mailed to the invited address (the old link stops working). */
async function invite(
  kit: LicenseKit,
  tx: Queryable,
  caller: AccountCaller,
  s: Subscription,
  license: LicenseRow,
  portalUrl: string,
): Promise<void> {
  // One invitation of a licence at a time: the last to commit holds the link that works, and its
  // mail replaces the earlier ones still waiting in the queue.
  const replacing = `license-invitation:${license.id}`;
  await lockUntilCommit(tx, `${caller.tenant.id}:${replacing}`);
  await kit.limitMail(tx, caller, {
    kind: 'licence',
    subscriptionId: s.id,
    orderNumber: license.orderNumber,
    email: license.email,
  });
  const token = newSecretToken();
  await setInviteToken(tx, caller.tenant.id, license.id, hashToken(token));
  const mail = licenseMail('invitation', caller.locale, {
    tenant: caller.tenant.name,
    name: fullName(license.businessPartner),
    publication: s.publicationName,
    orderNumber: license.orderNumber,
    link: mailedLink(
      portalUrl,
      s.id,
      `licenses/${encodeURIComponent(license.id)}/accept`,
      token,
      caller.locale,
    ),
  });
  await enqueueMail(
    tx,
    { tenantId: caller.tenant.id, to: license.email, from: kit.mailFrom, ...mail },
    { replacing },
  );
  await recordEvent(tx, caller.tenant.id, 'license.invitation_sent', {
    userId: caller.user.id,
    subscriptionId: s.id,
    orderNumber: license.orderNumber,
    licenseId: license.id,
  });
}
