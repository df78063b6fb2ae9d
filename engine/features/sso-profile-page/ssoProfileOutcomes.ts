/**
 * Named outcomes of the SSO profile forms → text keys (CONVENTIONS.md, Ghost Portal's named
 * outcomes): a field problem of engine/domain/ssoProfile.ts or of the server's answer
 * (`details.fields`), else §8's "an exception shows 'error'".
 */
import { ApiError } from '../../domain/apiError';

const FIELD_TEXTS: Record<string, Record<string, string>> = {
  email: {
    required: 'sso-profile-page.email.required',
    too_long: 'sso-profile-page.email.tooLong',
    invalid: 'sso-profile-page.email.invalid',
    unchanged: 'sso-profile-page.email.unchanged',
    mismatch: 'sso-profile-page.delete.mismatch',
  },
  currentPassword: { required: 'sso-profile-page.password.currentRequired', wrong: 'sso-profile-page.password.wrong', current_required: 'sso-profile-page.password.currentRequired' },
  newPassword: { invalid: 'sso-profile-page.password.invalid', mismatch: 'sso-profile-page.password.mismatch', unchanged: 'sso-profile-page.password.unchanged' },
};

export function fieldTextKey(field: string, problem: string): string {
  return FIELD_TEXTS[field]?.[problem] ?? 'sso-profile-page.error';
}

/** The field errors of a refused call, as text keys; `general` for anything else. */
export function failureTextKeys(error: unknown): Record<string, string> {
  if (error instanceof ApiError && error.status === 429) return { general: 'sso-profile-page.tooMany' };
  const fields = error instanceof ApiError ? (error.details as { fields?: Record<string, string> } | undefined)?.fields : undefined;
  if (!fields) return { general: 'sso-profile-page.error' };
  return Object.fromEntries(Object.entries(fields).map(([field, problem]) => [field, fieldTextKey(field, problem)]));
}
