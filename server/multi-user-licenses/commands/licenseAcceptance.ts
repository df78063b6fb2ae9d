/**
 * Accepting a licence by the invitation's link (account-flows.md §8): anonymous, the single-use
 * token of the invitation e-mail is the proof that the person reads the invited address.
 */
import type { Queryable } from '../../db/database';
import type { AcceptLicenseInfo } from '../../../schemas/generated/licenses';
import type { LicenseAcceptRequest } from '../../../schemas/generated/license-accept-request';
import { acceptLicenseErrors } from '../../../engine/domain/licenses';
import { HttpError, notFound } from '../../http/errors';
import { recordEvent } from '../../events/recordEvent';
import {
  addRole,
  confirmLicense,
  createPartner,
  findLicense,
  type LicensePartner,
} from '../../store/licenseStore';
import type { ServerTenant } from '../../tenancy/tenantContext';
import {
  invalidFields,
  licenseView,
  linkInvalid,
  salutationCodes,
  tokenMatches,
  trimmed,
  type LicenseKit,
} from '../licenseKit';

/**
 * GET on the accept URL: what the form shows, when the token is the licence's current one and
 * it has not been used. 404 for an unknown licence; 400 `license_link_invalid` for a wrong or
 * replaced token; 409 `license_already_accepted` for a used one.
 */
export async function acceptInfo(
  kit: LicenseKit,
  tenant: ServerTenant,
  id: string,
  licenseId: string,
  token: string,
  client: string,
): Promise<AcceptLicenseInfo> {
  return kit.withLinkToken(tenant, 'license-accept', client, async () => {
    const { license, publicationName } = await invitation(kit, kit.db, tenant, id, licenseId, token);
    return {
      email: license.email,
      publicationName,
      orderNumber: license.orderNumber,
      businessPartner: licenseView(license).businessPartner,
    };
  });
}

/** POST on the accept URL: the licence becomes confirmed and the invited address gets its account. */
export async function accept(
  kit: LicenseKit,
  tenant: ServerTenant,
  id: string,
  licenseId: string,
  body: LicenseAcceptRequest,
  client: string,
): Promise<{ status: 'accepted'; email: string }> {
  return kit.withLinkToken(tenant, 'license-accept', client, () =>
    kit.db.transaction(async (tx) => {
      const { license } = await invitation(kit, tx, tenant, id, licenseId, body.token, true);
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
      const userId = await kit.accountFor(tx, tenant, license.email, bpNumber, {
        firstName: partner.firstName ?? null,
        lastName: partner.lastName1 ?? null,
      });
      // Only an active licence's invitation is accepted (invitation below): its user receives it.
      await addRole(tx, tenant.id, id, bpNumber, 'WE', true);
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
}

/** The licence an invitation link names, when its token is the current, unused one. */
async function invitation(
  kit: LicenseKit,
  tx: Queryable,
  tenant: ServerTenant,
  id: string,
  licenseId: string,
  token: string,
  forUpdate = false,
) {
  const subscription = await kit.linkedSubscription(tx, tenant, id);
  const license = subscription ? await findLicense(tx, tenant.id, id, licenseId, forUpdate) : null;
  if (!subscription || !license) throw notFound('There is no such licence.');
  kit.requireLinkFeature(tenant, subscription.publication);
  if (!tokenMatches(token, license.inviteTokenHash) || !license.invitationLive) throw linkInvalid();
  if (license.isConfirmed)
    throw new HttpError(409, 'license_already_accepted', 'This licence has been accepted already.');
  // A licence its manager deactivated (account-flows.md §3 "activate, deactivate") gives no access:
  // its invitation waits until the licence is active again.
  if (!license.isActive) throw linkInvalid();
  return { license, publicationName: subscription.publicationName };
}
