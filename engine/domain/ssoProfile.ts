/**
 * Rules of the SSO profile page (account-flows.md §2 "SSO profile", §4 "SSO delete", §5 "SSO",
 * "Password", §9 "SSO email max 50"), shared by the form and the server. The password rule itself
 * is fieldRules.ts's (§5), used here, not repeated.
 */
import {
  isPlausibleEmail,
  isSignInAddress,
  isValidPassword,
  normalizeEmail,
  passwordProblem,
  passwordRepeatProblem,
  type PasswordRuleProblem,
} from './fieldRules';
import { isFeatureOn, type FeatureSwitches } from './tenantFeatures';

/** §9: SSO email max 50 (the new address and the delete confirmation). */
export const SSO_EMAIL_MAX_LENGTH = 50;

export type SsoEmailProblem = 'required' | 'too_long' | 'invalid' | 'not_for_sign_in' | 'unchanged';

/**
 * §5 "SSO: email required, trimmed, max 50" — and a different address than the current one, which
 * the sign-in forms take (isSignInAddress: no accented letters), since it becomes the login.
 */
export function ssoEmailProblem(value: string, current?: string): SsoEmailProblem | null {
  const trimmed = value.trim();
  if (!trimmed) return 'required';
  if (trimmed.length > SSO_EMAIL_MAX_LENGTH) return 'too_long';
  if (!isPlausibleEmail(trimmed)) return 'invalid';
  if (!isSignInAddress(trimmed)) return 'not_for_sign_in';
  if (current !== undefined && normalizeEmail(trimmed) === normalizeEmail(current)) return 'unchanged';
  return null;
}

/** §5 "delete confirmation email max 50 and must match" (case and surrounding blanks do not count). */
export function deleteConfirmationMatches(typed: string, accountEmail: string): boolean {
  const trimmed = typed.trim();
  return (
    trimmed.length > 0 &&
    trimmed.length <= SSO_EMAIL_MAX_LENGTH &&
    normalizeEmail(trimmed) === normalizeEmail(accountEmail)
  );
}

export type PasswordProblem = 'current_required' | 'invalid' | 'mismatch' | 'unchanged';

/** §5 password: 8–20, upper, lower, digit; the current one is required when the account has one. */
export function passwordChangeProblem(
  input: { currentPassword?: string; newPassword: string; repeatPassword?: string },
  hasPassword: boolean,
): PasswordProblem | null {
  if (hasPassword && !input.currentPassword) return 'current_required';
  if (!isValidPassword(input.newPassword)) return 'invalid';
  if (input.repeatPassword !== undefined && input.repeatPassword !== input.newPassword) return 'mismatch';
  if (hasPassword && input.currentPassword === input.newPassword) return 'unchanged';
  return null;
}

/**
 * Every problem of the password form at once, by field (the screen's view of the rule above; the
 * server answers `newPassword: invalid` for any of the rule's problems): what the new password
 * lacks (fieldRules.ts passwordProblem — too long is said, never cut), an empty or different
 * repeat, an unchanged password.
 */
export function passwordFormProblems(
  input: { currentPassword: string; newPassword: string; repeatPassword: string },
  hasPassword: boolean,
): {
  currentPassword?: 'required';
  newPassword?: PasswordRuleProblem | 'unchanged';
  repeat?: 'required' | 'mismatch';
} {
  const problems: ReturnType<typeof passwordFormProblems> = {};
  if (hasPassword && !input.currentPassword) problems.currentPassword = 'required';
  const rule = passwordProblem(input.newPassword);
  if (rule) problems.newPassword = rule;
  else if (hasPassword && input.currentPassword === input.newPassword) problems.newPassword = 'unchanged';
  const repeat = passwordRepeatProblem(input.newPassword, input.repeatPassword);
  if (repeat && !(repeat === 'mismatch' && rule)) problems.repeat = repeat;
  return problems;
}

export interface SsoProfileSwitches extends FeatureSwitches {
  ssoProfilePage?: { editEmail?: boolean; deleteEmail?: boolean };
}

/** portal-core.md §3 tenant `ssoProfilePage.editEmail` (default on). */
export const canEditSsoEmail = (tenant: SsoProfileSwitches) =>
  isFeatureOn(tenant, 'sso-profile-page') && tenant.ssoProfilePage?.editEmail !== false;
/** portal-core.md §3 tenant `ssoProfilePage.deleteEmail` (default off, schemas/tenant.schema.json): the delete-account section. */
export const canDeleteSsoAccount = (tenant: SsoProfileSwitches) =>
  isFeatureOn(tenant, 'sso-profile-page') && tenant.ssoProfilePage?.deleteEmail === true;
