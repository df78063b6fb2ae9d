/**
 * Licence managers of a subscription (account-flows.md §5, §6, §7): listing them, appointing one in
 * place of the current ones (pending until the appointed person confirms the mailed link, see
 * ./managerConfirmation.ts), the pending appointment and withdrawing it, deleting a manager.
 */
import type { LicenseManager, LicenseManagerAppointment } from '../../../schemas/generated/licenses';
import type { LicensePersonRequest } from '../../../schemas/generated/license-person-request';
import { licensePersonErrors } from '../../../engine/domain/licenses';
import { notFound } from '../../http/errors';
import { enqueueMail } from '../../store/mailQueueStore';
import { recordEvent } from '../../events/recordEvent';
import { hashToken, newSecretToken } from '../../auth/tokens';
import { normalizeEmail } from '../../store/userStore';
import {
  APPOINTMENT_DAYS,
  deletePendingAppointment,
  managersOf,
  pendingAppointmentsOf,
  removeRole,
  replacePendingAppointment,
} from '../../store/licenseStore';
import type { AccountCaller } from '../../account/accountContext';
import { licenseMail } from '../licenseMails';
import {
  appointmentView,
  fullName,
  invalidFields,
  mailedLink,
  salutationCodes,
  trimmed,
  type LicenseKit,
} from '../licenseKit';

/** GET /subscriptions/{id}/license-managers. */
export async function managers(
  kit: LicenseKit,
  caller: AccountCaller,
  id: string,
): Promise<LicenseManager[]> {
  const s = await kit.mine(kit.db, caller, id);
  return managersOf(kit.db, caller.tenant.id, s.id);
}

/**
 * POST /subscriptions/{id}/license-managers: appoints the given person licence manager in place
 * of the current ones — pending until they confirm the mailed link (confirmManager). Nothing
 * changes on the subscription now: no account, no partner, no role before the address proved it is
 * theirs. A pending appointment of the subscription is replaced (its link stops working).
 */
export async function replaceManager(
  kit: LicenseKit,
  caller: AccountCaller,
  id: string,
  body: LicensePersonRequest,
  portalUrl: string,
): Promise<LicenseManagerAppointment> {
  const { tenant } = caller;
  return kit.db.transaction(async (tx) => {
    const s = await kit.mine(tx, caller, id);
    kit.check('replaceManager', caller, s);
    // §5 "Manager dialog: salutation, email, first name, last name (max 30)".
    const errors = licensePersonErrors(body, {
      salutationRequired: true,
      salutationCodes: salutationCodes(tenant),
    });
    if (Object.keys(errors).length > 0) throw invalidFields(errors);
    const email = normalizeEmail(body.emailAddress ?? '');
    await kit.limitMail(tx, caller, { kind: 'manager', subscriptionId: s.id, email });
    const token = newSecretToken();
    const { appointment, replaced } = await replacePendingAppointment(tx, tenant.id, {
      subscriptionId: s.id,
      salutationCode: trimmed(body.salutationCode),
      firstName: trimmed(body.firstName),
      lastName1: trimmed(body.lastName1),
      email,
      tokenHash: hashToken(token),
      appointedByUserId: caller.user.id,
      locale: caller.locale,
    });
    // The one it replaces is withdrawn: its link no longer works.
    for (const appointmentId of replaced)
      await recordEvent(tx, tenant.id, 'license_manager.appointment_withdrawn', {
        userId: caller.user.id,
        subscriptionId: s.id,
        appointmentId,
      });
    await recordEvent(tx, tenant.id, 'license_manager.appointment_sent', {
      userId: caller.user.id,
      subscriptionId: s.id,
      appointmentId: appointment.id,
    });
    const mail = licenseMail('managerAppointment', caller.locale, {
      tenant: tenant.name,
      name: fullName(appointment),
      publication: s.publicationName,
      orderNumber: s.orderNumber,
      days: String(APPOINTMENT_DAYS),
      link: mailedLink(
        portalUrl,
        s.id,
        `license-managers/${encodeURIComponent(appointment.id)}/confirm`,
        token,
        caller.locale,
      ),
    });
    await enqueueMail(tx, { tenantId: tenant.id, to: email, from: kit.mailFrom, ...mail });
    return appointmentView(appointment);
  });
}

/** GET /subscriptions/{id}/license-manager-appointments: the pending appointment (whose link still works), if any. */
export async function appointments(
  kit: LicenseKit,
  caller: AccountCaller,
  id: string,
): Promise<LicenseManagerAppointment[]> {
  const s = await kit.mine(kit.db, caller, id);
  return (await pendingAppointmentsOf(kit.db, caller.tenant.id, s.id)).map(appointmentView);
}

/** DELETE /subscriptions/{id}/license-manager-appointments/{appointmentId}: withdraws a pending appointment (its link stops working). */
export async function withdrawAppointment(
  kit: LicenseKit,
  caller: AccountCaller,
  id: string,
  appointmentId: string,
): Promise<void> {
  const { tenant } = caller;
  await kit.db.transaction(async (tx) => {
    const s = await kit.mine(tx, caller, id);
    kit.check('replaceManager', caller, s);
    if ((await deletePendingAppointment(tx, tenant.id, s.id, appointmentId)) === 0)
      throw notFound('There is no such pending appointment.');
    await recordEvent(tx, tenant.id, 'license_manager.appointment_withdrawn', {
      userId: caller.user.id,
      subscriptionId: s.id,
      appointmentId,
    });
  });
}

/** DELETE /subscriptions/{id}/license-managers/{bpNumber}: never by a licence manager (§6). */
export async function deleteManager(
  kit: LicenseKit,
  caller: AccountCaller,
  id: string,
  bpNumber: string,
): Promise<void> {
  const { tenant } = caller;
  await kit.db.transaction(async (tx) => {
    const s = await kit.mine(tx, caller, id);
    kit.check('deleteManager', caller, s);
    const removed = await removeRole(tx, tenant.id, s.id, bpNumber, 'LV');
    if (removed === 0) throw notFound('There is no such licence manager.');
    await recordEvent(tx, tenant.id, 'license_manager.replaced', {
      userId: caller.user.id,
      subscriptionId: s.id,
      bpNumber: null,
      previousBpNumbers: [bpNumber],
    });
  });
}
