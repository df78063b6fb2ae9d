/**
 * The licence-manager appointment by its mailed link: anonymous, the
 * single-use token of the appointment mail is the proof that the appointed person reads the address.
 */
import type { Queryable } from '../../db/database';
import type { ManagerAppointmentInfo } from '../../../schemas/generated/licenses';
import { isLicenceManager } from '../../../engine/domain/capabilities';
import { licenseActionRefusal } from '../../../engine/domain/licenses';
import { HttpError, notFound } from '../../http/errors';
import { recordEvent } from '../../events/recordEvent';
import { getSubscriptionForUser } from '../../store/subscriptionStore';
import {
  addRole,
  confirmAppointment,
  createPartner,
  findAppointment,
  managersOf,
  removeRole,
} from '../../store/licenseStore';
import type { ServerTenant } from '../../tenancy/tenantContext';
import { capable, linkInvalid, tokenMatches, type LicenseKit } from '../licenseKit';

/**
 * GET on the confirm URL: what the confirm page shows, when the token is the appointment's and
 * it is pending and younger than 14 days. Same answers as the accept URL: 404 unknown,
 * 400 `license_link_invalid`, 409 `license_already_accepted`.
 */
export async function appointmentInfo(
  kit: LicenseKit,
  tenant: ServerTenant,
  id: string,
  appointmentId: string,
  token: string,
  client: string,
): Promise<ManagerAppointmentInfo> {
  return kit.withLinkToken(tenant, 'license-manager-confirm', client, async () => {
    const { appointment, publicationName, orderNumber } = await appointmentOf(
      kit,
      kit.db,
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
}

/**
 * POST on the confirm URL: the link is the proof that the appointed person reads the address.
 * Only now does the address get its account on this tenant (or its existing one is used), a
 * business partner with the LV role, and do the previous managers lose theirs — while the
 * person who appointed may still appoint (else the appointment lapsed: `license_link_invalid`).
 */
export async function confirmManager(
  kit: LicenseKit,
  tenant: ServerTenant,
  id: string,
  appointmentId: string,
  token: string,
  client: string,
): Promise<{ status: 'confirmed'; email: string }> {
  return kit.withLinkToken(tenant, 'license-manager-confirm', client, () =>
    kit.db.transaction(async (tx) => {
      const { appointment } = await appointmentOf(kit, tx, tenant, id, appointmentId, token, true);
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
      const userId = await kit.accountFor(tx, tenant, appointment.email, bpNumber, names);
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
}

/** The appointment a confirm link names, when its token is the appointment's and it is pending and live. */
async function appointmentOf(
  kit: LicenseKit,
  tx: Queryable,
  tenant: ServerTenant,
  id: string,
  appointmentId: string,
  token: string,
  forUpdate = false,
) {
  const subscription = await kit.linkedSubscription(tx, tenant, id);
  const appointment = subscription
    ? await findAppointment(tx, tenant.id, id, appointmentId, forUpdate)
    : null;
  if (!subscription || !appointment) throw notFound('There is no such appointment.');
  kit.requireLinkFeature(tenant, subscription.publication);
  if (!tokenMatches(token, appointment.tokenHash) || !appointment.live) throw linkInvalid();
  if (appointment.confirmedAt)
    throw new HttpError(409, 'license_already_accepted', 'This appointment has been confirmed already.');
  return {
    appointment,
    publicationName: subscription.publicationName,
    orderNumber: subscription.orderNumber,
  };
}
