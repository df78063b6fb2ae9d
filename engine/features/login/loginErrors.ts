import { ApiError } from '../../core/apiClient';
import { tooManyText } from '../../core/tooManyText';
import type { TranslateFn } from '../../core/translation';
import { isPlausibleEmail, isSignInAddress } from '../../domain/fieldRules';

/** The text key for a failed sign-in call (§8 "Login error"); unknown failures get the generic one. */
export function loginErrorKey(error: unknown): string {
  if (!(error instanceof ApiError)) return 'login.error';
  switch (error.code) {
    case 'invalid_credentials':
      return 'login.invalidCredentials';
    case 'invalid_token':
      return 'login.tokenInvalid';
    case 'rate_limited':
      return 'login.rateLimited';
    case 'weak_password':
      return 'login.passwordRule';
    case 'password_mismatch':
      return 'login.passwordMismatch';
    case 'account_exists':
      return 'login.accountExists';
    // A tenant without password sign-in (a form opened from an old link or another tab).
    case 'password_login_disabled':
      return 'login.passwordNotOffered';
    case 'already_confirmed':
      return 'login.alreadyConfirmed';
    case 'wrong_registration_password':
      return 'login.wrongRegistrationPassword';
    case 'invalid_sso_session':
      return 'login.ssoSessionInvalid';
    // The browser sent no security cookie with the call: most often a portal inside another site's
    // page whose browser keeps cookies from framed sites (docs/subscribers.md "Embedded"), where
    // trying again changes nothing.
    case 'xsrf_failed':
      return 'login.cookieRefused';
    case 'invalid_oauth_state':
    case 'oauth_failed':
    case 'oauth_no_email':
    case 'sso_unavailable':
      return 'login.ssoFailed';
    default:
      return 'login.error';
  }
}

/**
 * The text of a failed sign-in call: its key's text, and for too many attempts when to try again,
 * in the screen's language.
 */
export function loginErrorText(error: unknown, t: TranslateFn): string {
  const key = loginErrorKey(error);
  return key === 'login.rateLimited' ? tooManyText(t, error, t(key)) : t(key);
}

/**
 * The text of a failed request for a login link. Past the limit of links per address (which anyone
 * who types the address spends, server/auth/rateLimit.ts), a link sent before still works: the
 * visitor is told to look in the inbox before being told when to ask again.
 */
export function magicLinkErrorText(error: unknown, t: TranslateFn): string {
  return loginErrorKey(error) === 'login.rateLimited'
    ? tooManyText(t, error, t('login.linkRateLimited'))
    : loginErrorText(error, t);
}

/**
 * What is wrong with a typed sign-in address, in the screen's language, or undefined: missing, not
 * an address, or one no sign-in form takes (isSignInAddress: accented letters), which the server
 * would refuse with the same rule.
 */
export function signInAddressError(value: string, t: TranslateFn): string | undefined {
  if (!value) return t('login.emailRequired');
  if (!isPlausibleEmail(value)) return t('login.emailInvalid');
  if (!isSignInAddress(value)) return t('login.emailRefused');
  return undefined;
}
