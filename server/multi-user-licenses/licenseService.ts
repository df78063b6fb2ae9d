/**
 * Multi-user licences (account-flows.md §2 "Licences", §3, §4, §5, §6, §7, §8; portal-core.md §6
 * capability "multi-user licences: multi-licence and (licence manager or ordering party)").
 *
 * Every call of a signed-in user: the subscription must be theirs (else 404), the feature on for
 * its publication and the capability rule pass (requireCapability), and the licence-manager rules
 * of §6 (engine/domain/licenses.ts, the same functions the screen shows its buttons by). Each
 * change runs in one transaction and records an account event.
 *
 * Appointing a licence manager works the same way, so nobody gets rights on an address they do not
 * read: the appointment is stored as pending and the appointed address is mailed a link with a
 * single-use token (14 days); only when that link is confirmed does the address get an account and
 * the LV role, and do the previous managers lose theirs. Nobody can link an account, or a person's
 * data, to an address by typing it.
 *
 * Invitation and appointment mails go to addresses the user types, so they are limited per user
 * and per licence (LICENSE_MAIL_LIMITS): the portal is no way to mail strangers in bulk.
 *
 * Accepting is anonymous: the accept URL carries the single-use token of the invitation e-mail
 * (only its hash is stored; a resend replaces it). The token is the proof that the person reads the
 * invited address, so accepting gives that address an account on this tenant (or links the
 * existing one), makes a business partner for the person, and — while the licence is active — gives
 * that partner the goods-recipient role (WE) on the subscription: the licence user then sees the
 * licensed subscription after signing in. Deactivating takes the role away again, activating gives
 * it back, deleting removes it.
 *
 * One module per command family under ./commands (licence users, licence managers, the manager
 * appointment's link, the invitation's link), over the shared kit of ./licenseKit.ts; this module
 * only binds them to one kit, so the routes keep one `licenses` object to call.
 */
import { createLicenseKit, type LicenseKit, type LicenseServiceDeps } from './licenseKit';
import { add, list, partner, remove, sendInvitation, setActive } from './commands/licenseUsers';
import {
  appointments,
  deleteManager,
  managers,
  replaceManager,
  withdrawAppointment,
} from './commands/licenseManagers';
import { appointmentInfo, confirmManager } from './commands/managerConfirmation';
import { accept, acceptInfo } from './commands/licenseAcceptance';

export { LICENSE_MAIL_LIMITS, type LicenseMailLimits, type LicenseServiceDeps } from './licenseKit';

export function createLicenses(deps: LicenseServiceDeps) {
  const kit = createLicenseKit(deps);
  /** A command with this service's kit: the same parameters after the kit. */
  const bound =
    <A extends unknown[], R>(command: (kit: LicenseKit, ...args: A) => R) =>
    (...args: A): R =>
      command(kit, ...args);
  return {
    list: bound(list),
    managers: bound(managers),
    partner: bound(partner),
    add: bound(add),
    setActive: bound(setActive),
    sendInvitation: bound(sendInvitation),
    remove: bound(remove),
    replaceManager: bound(replaceManager),
    appointments: bound(appointments),
    withdrawAppointment: bound(withdrawAppointment),
    appointmentInfo: bound(appointmentInfo),
    confirmManager: bound(confirmManager),
    deleteManager: bound(deleteManager),
    acceptInfo: bound(acceptInfo),
    accept: bound(accept),
  };
}

export type Licenses = ReturnType<typeof createLicenses>;
