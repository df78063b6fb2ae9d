/**
 * Named outcomes of the licence calls → text keys (account-flows.md §8 "Licences"), the way
 * engine/features/login/loginErrors.ts maps sign-in errors: what the screen says for each error
 * code of the server; anything else is the generic error.
 */
import { ApiError } from '../../domain/apiError';
import { tooManyText } from '../../core/tooManyText';
import type { TranslateFn } from '../../core/translation';

const ACTION_ERRORS: Record<string, string> = {
  license_limit_reached: 'multi-user-licenses.error.limit',
  self_service_disabled: 'multi-user-licenses.error.selfService',
  not_allowed: 'multi-user-licenses.error.notAllowed',
  license_not_reactivatable: 'multi-user-licenses.error.notReactivatable',
  license_already_confirmed: 'multi-user-licenses.error.alreadyConfirmed',
  license_exists: 'multi-user-licenses.error.exists',
  // Removed meanwhile, in another tab for instance: the list, loaded again, shows it gone.
  not_found: 'multi-user-licenses.error.gone',
  // Too many invitation or appointment mails (LICENSE_MAIL_LIMITS in server/multi-user-licenses/licenseKit.ts).
  rate_limited: 'multi-user-licenses.error.rateLimited',
};

/** The message key of a failed licence action, or undefined for the generic error dialog. */
export function actionErrorKey(error: unknown): string | undefined {
  return error instanceof ApiError ? ACTION_ERRORS[error.code] : undefined;
}

/**
 * The message of a failed licence action, or undefined for the generic error dialog; too many
 * mails says when to try again (in the screen's language).
 */
export function actionErrorText(error: unknown, t: TranslateFn): string | undefined {
  const key = actionErrorKey(error);
  if (!key) return undefined;
  return error instanceof ApiError && error.status === 429 ? tooManyText(t, error, t(key)) : t(key);
}

/** What the accept page shows after a failed GET or POST (§8). */
export type AcceptOutcome = 'notFound' | 'invalidLink' | 'alreadyAccepted' | 'rateLimited' | 'error';

export function acceptOutcome(error: unknown): AcceptOutcome {
  if (!(error instanceof ApiError)) return 'error';
  if (error.status === 404) return 'notFound';
  if (error.code === 'license_link_invalid') return 'invalidLink';
  if (error.code === 'license_already_accepted') return 'alreadyAccepted';
  if (error.code === 'rate_limited') return 'rateLimited';
  return 'error';
}

/** Field errors of a 400 `validation_failed` answer ({ fields: { name: code } }). */
export function fieldErrorsOf(error: unknown): Record<string, string> | undefined {
  if (!(error instanceof ApiError) || error.code !== 'validation_failed') return undefined;
  const fields = (error.details as { fields?: Record<string, string> } | undefined)?.fields;
  return fields && Object.keys(fields).length > 0 ? fields : undefined;
}
