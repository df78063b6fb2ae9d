/**
 * Named outcomes of the SSO profile forms → text keys (CONVENTIONS.md, Ghost Portal's named
 * outcomes): a field problem of engine/domain/ssoProfile.ts or of the server's answer
 * (`details.fields`), else §8's "an exception shows 'error'".
 */
import { ApiError } from '../../domain/apiError';
import { tooManyText } from '../../core/tooManyText';
import type { TranslateFn } from '../../core/translation';

const FIELD_TEXTS: Record<string, Record<string, string>> = {
  email: {
    required: 'sso-profile-page.email.required',
    too_long: 'sso-profile-page.email.tooLong',
    invalid: 'sso-profile-page.email.invalid',
    not_for_sign_in: 'sso-profile-page.email.notForSignIn',
    unchanged: 'sso-profile-page.email.unchanged',
    mismatch: 'sso-profile-page.delete.mismatch',
  },
  currentPassword: {
    required: 'sso-profile-page.password.currentRequired',
    wrong: 'sso-profile-page.password.wrong',
    current_required: 'sso-profile-page.password.currentRequired',
  },
  newPassword: {
    invalid: 'sso-profile-page.password.invalid',
    required: 'sso-profile-page.password.required',
    too_short: 'sso-profile-page.password.tooShort',
    too_long: 'sso-profile-page.password.tooLong',
    needs_mix: 'sso-profile-page.password.needsMix',
    mismatch: 'sso-profile-page.password.mismatch',
    unchanged: 'sso-profile-page.password.unchanged',
  },
  repeat: {
    required: 'sso-profile-page.password.repeatRequired',
    mismatch: 'sso-profile-page.password.mismatch',
  },
};

export function fieldTextKey(field: string, problem: string): string {
  return FIELD_TEXTS[field]?.[problem] ?? 'sso-profile-page.error';
}

/** The field errors of a refused call, as text keys; `general` for anything else. */
export function failureTextKeys(error: unknown): Record<string, string> {
  if (error instanceof ApiError && error.status === 429) return { general: 'sso-profile-page.tooMany' };
  if (error instanceof ApiError && error.code === 'password_set_meanwhile')
    return { general: 'sso-profile-page.passwordSetMeanwhile' };
  const fields =
    error instanceof ApiError
      ? (error.details as { fields?: Record<string, string> } | undefined)?.fields
      : undefined;
  if (!fields) return { general: 'sso-profile-page.error' };
  return Object.fromEntries(
    Object.entries(fields).map(([field, problem]) => [field, fieldTextKey(field, problem)]),
  );
}

/**
 * The message of a refusal that belongs to no field: too many attempts says when to try again
 * (in the screen's language); anything else is §8's "an exception shows 'error'".
 */
export function generalFailureText(error: unknown, t: TranslateFn): string {
  if (error instanceof ApiError && error.status === 429)
    return tooManyText(t, error, t('sso-profile-page.tooMany'));
  return t(failureTextKeys(error).general ?? 'sso-profile-page.error');
}
