/**
 * Multi-user licence rules (account-flows.md §2 "Licences", §3, §4, §5, §6, §9), shared by the
 * licences screens and the server (CONVENTIONS.md rule 3): which actions a user may take on a
 * licence object, the field rules of the add, manager and accept forms, and the limits of §9.
 * Pure TypeScript: no React, no DOM.
 */
import { isBlankText, isOneLineText, isPlausibleEmail, isSignInAddress, textLength } from './fieldRules';

/** account-flows.md §9 "Names in licence forms: max 30". */
export const LICENSE_NAME_MAX = 30;
/** account-flows.md §9 "Names and company in ... accept-licence ... forms: max 35". */
export const ACCEPT_NAME_MAX = 35;
/** account-flows.md §9 "Academic year: 2 digits". */
export const ACADEMIC_YEAR_PATTERN = /^[0-9]{2}$/;
/** account-flows.md §9 "Licence list page size: 10". */
export const LICENSE_PAGE_SIZE = 10;
/** portal-core.md §6 / account-flows.md §9 "Co-users: up to 5 (6 in total)": the demo objects' seat count. */
export const MAX_CO_USERS = 5;
/** Longest e-mail address kept with a licence (the sign-in forms' limit). */
export const LICENSE_EMAIL_MAX = 50;

/** The licence multi-user settings a rule reads (tenant `multiUserLicenses`, schemas/tenant.schema.json). */
export interface LicenseSettings {
  requireSalutation?: boolean;
  requireAcademicTitle?: boolean;
  requireRole?: boolean;
  roles?: ReadonlyArray<{ code: string; requiresAcademicYear?: boolean }>;
  allowDelete?: boolean;
  allowManagerReplacement?: boolean;
}

/** A licence (§3): its state as the list shows it. */
export interface LicenseState {
  isActive: boolean;
  isReactivatable: boolean;
  isConfirmed: boolean;
}

/** A licence object (§3): the fields the action rules read. */
export interface LicenseObjectState {
  maxActiveLicenses: number;
  selfServiceEnabled: boolean;
  licenses: readonly LicenseState[];
}

/** Who acts: a licence manager (LV) is restricted by §6; the ordering party (AG) is not. */
export interface LicenseActor {
  isLicenseManager: boolean;
}

export type LicenseAction =
  'add' | 'activate' | 'deactivate' | 'delete' | 'sendInvitation' | 'replaceManager' | 'deleteManager';

/** Why an action is refused, as the server's error code (§6, §8). */
export type LicenseRefusal =
  | 'self_service_disabled'
  | 'license_limit_reached'
  | 'not_allowed'
  | 'license_not_reactivatable'
  | 'license_already_confirmed'
  | 'no_change';

/** Active licences of an object: active ones count, whether confirmed or still invited. */
export const activeLicenseCount = (object: Pick<LicenseObjectState, 'licenses'>) =>
  object.licenses.filter((l) => l.isActive).length;

/** §6 "adding is disabled when active licences reach maxActiveLicenses". */
export const isAtMaximum = (object: Pick<LicenseObjectState, 'licenses' | 'maxActiveLicenses'>) =>
  activeLicenseCount(object) >= object.maxActiveLicenses;

/**
 * Whether an action is possible, or why not (null = allowed). §6: "Licence actions (add, invite,
 * activate, deactivate) only when selfServiceEnabled for the object; adding is disabled when active
 * licences reach maxActiveLicenses. Licence managers can add, remove and replace users when
 * self-service is on." and "A licence manager cannot delete licence managers". Deleting a licence
 * user is also a tenant setting for licence managers (`allowDelete`, §6 "delete licence"), handing
 * the manager role on one (`allowManagerReplacement`).
 */
export function licenseActionRefusal(
  action: LicenseAction,
  actor: LicenseActor,
  settings: LicenseSettings,
  object?: LicenseObjectState,
  license?: LicenseState,
): LicenseRefusal | null {
  if (action === 'deleteManager') return actor.isLicenseManager ? 'not_allowed' : null;
  if (action === 'replaceManager')
    return actor.isLicenseManager && settings.allowManagerReplacement === false ? 'not_allowed' : null;
  if (object && !object.selfServiceEnabled) return 'self_service_disabled';
  switch (action) {
    case 'add':
      return object && isAtMaximum(object) ? 'license_limit_reached' : null;
    case 'activate':
      if (license?.isActive) return 'no_change';
      if (license && !license.isReactivatable) return 'license_not_reactivatable';
      return object && isAtMaximum(object) ? 'license_limit_reached' : null;
    case 'deactivate':
      return license && !license.isActive ? 'no_change' : null;
    case 'sendInvitation':
      return license?.isConfirmed ? 'license_already_confirmed' : null;
    case 'delete':
      return actor.isLicenseManager && settings.allowDelete === false ? 'not_allowed' : null;
  }
}

export const canLicenseAction = (...args: Parameters<typeof licenseActionRefusal>) =>
  licenseActionRefusal(...args) === null;

/** The status a licence shows (§3 isActive, isConfirmed): invited until accepted, then active or inactive. */
export type LicenseStatus = 'invited' | 'active' | 'inactive';
export const licenseStatus = (l: LicenseState): LicenseStatus =>
  !l.isActive ? 'inactive' : l.isConfirmed ? 'active' : 'invited';

/** One page of a list (zero-based), §9 page size 10. */
export function pageOf<T>(
  items: readonly T[],
  page: number,
  size = LICENSE_PAGE_SIZE,
): { items: T[]; totalPages: number; page: number } {
  const totalPages = Math.max(1, Math.ceil(items.length / size));
  const current = Math.min(Math.max(0, page), totalPages - 1);
  return { items: items.slice(current * size, current * size + size), totalPages, page: current };
}

// --- field rules (§5) ------------------------------------------------------------------------------

export type FieldError = 'required' | 'too_long' | 'invalid' | 'not_for_sign_in' | 'one_line' | 'no_link';
export type FieldErrors = Record<string, FieldError>;

const blank = isBlankText;

function text(
  errors: FieldErrors,
  field: string,
  value: string | null | undefined,
  max: number,
  required: boolean,
) {
  if (blank(value)) {
    if (required) errors[field] = 'required';
  } else if (!isOneLineText(value)) errors[field] = 'one_line';
  else if (textLength(value!.trim()) > max) errors[field] = 'too_long';
}

/** A licence user's or manager's address: they sign in with it, so the sign-in forms must take it. */
function email(errors: FieldErrors, field: string, value: string | null | undefined) {
  if (blank(value)) errors[field] = 'required';
  else if (value!.trim().length > LICENSE_EMAIL_MAX) errors[field] = 'too_long';
  else if (!isPlausibleEmail(value!.trim())) errors[field] = 'invalid';
  else if (!isSignInAddress(value!.trim())) errors[field] = 'not_for_sign_in';
}

/** A person in the add and manager forms (§3 businessPartner). */
export interface LicensePersonForm {
  salutationCode?: string | null;
  emailAddress?: string | null;
  firstName?: string | null;
  lastName1?: string | null;
}

/**
 * §5 "Licences: add needs email, first name (max 30), last name (max 30), salutation if required by
 * config. Manager dialog: salutation, email, first name, last name (max 30)." `salutationCodes`: the
 * tenant's salutations, so an unknown code is refused.
 */
export function licensePersonErrors(
  form: LicensePersonForm,
  opts: { salutationRequired: boolean; salutationCodes: readonly string[] },
): FieldErrors {
  const errors: FieldErrors = {};
  if (blank(form.salutationCode)) {
    if (opts.salutationRequired) errors.salutationCode = 'required';
  } else if (!opts.salutationCodes.includes(form.salutationCode!)) errors.salutationCode = 'invalid';
  email(errors, 'emailAddress', form.emailAddress);
  text(errors, 'firstName', form.firstName, LICENSE_NAME_MAX, true);
  text(errors, 'lastName1', form.lastName1, LICENSE_NAME_MAX, true);
  // The names open the invitation or appointment mail to an address anyone may give, in the
  // tenant's name: no web address in them (a link there would read as the publisher's).
  for (const field of ['firstName', 'lastName1'] as const)
    if (!errors[field] && hasWebAddress(form[field])) errors[field] = 'no_link';
  return errors;
}

/** A web address a mail program would offer as a link: a scheme (`https://`) or `www.`. */
export const hasWebAddress = (value: string | null | undefined): boolean =>
  /:\/\/|\bwww\./i.test(value ?? '');

/** The accept form (§3 "Accept form: businessPartner, role, academicYear"). */
export interface AcceptLicenseForm {
  businessPartner: {
    salutationCode?: string | null;
    titleAcademic?: string | null;
    firstName?: string | null;
    lastName1?: string | null;
    company1?: string | null;
  };
  role?: string | null;
  academicYear?: string | null;
}

/**
 * §5 "Accept licence: salutation, first name, last name, company required, each max 35; academic
 * title if the tenant requires it; role required if config requires; academic year (2-digit mask,
 * max 2) required when the chosen role demands it."
 */
export function acceptLicenseErrors(
  form: AcceptLicenseForm,
  settings: LicenseSettings,
  opts: { salutationCodes: readonly string[]; academicTitleCodes: readonly string[] },
): FieldErrors {
  const errors: FieldErrors = {};
  const bp = form.businessPartner ?? {};
  if (blank(bp.salutationCode)) errors.salutationCode = 'required';
  else if (!opts.salutationCodes.includes(bp.salutationCode!)) errors.salutationCode = 'invalid';
  text(errors, 'firstName', bp.firstName, ACCEPT_NAME_MAX, true);
  text(errors, 'lastName1', bp.lastName1, ACCEPT_NAME_MAX, true);
  text(errors, 'company1', bp.company1, ACCEPT_NAME_MAX, true);
  if (blank(bp.titleAcademic)) {
    if (settings.requireAcademicTitle) errors.titleAcademic = 'required';
  } else if (!opts.academicTitleCodes.includes(bp.titleAcademic!)) errors.titleAcademic = 'invalid';
  const roles = settings.roles ?? [];
  const role = roles.find((r) => r.code === form.role);
  if (blank(form.role)) {
    if (settings.requireRole && roles.length > 0) errors.role = 'required';
  } else if (!role) errors.role = 'invalid';
  if (role?.requiresAcademicYear) {
    if (blank(form.academicYear)) errors.academicYear = 'required';
    else if (!ACADEMIC_YEAR_PATTERN.test(form.academicYear!)) errors.academicYear = 'invalid';
  }
  return errors;
}

/** Whether the chosen role asks for the academic year (§5). */
export const roleNeedsAcademicYear = (settings: LicenseSettings, role: string | null | undefined) =>
  Boolean(settings.roles?.find((r) => r.code === role)?.requiresAcademicYear);
