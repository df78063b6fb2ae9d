import { retryAfterSecondsOf, waitOf } from '../domain/retryAfter';
import type { TranslateFn } from './translation';

/**
 * "Please try again in 14 minutes." in the screen's language (plural keys `_one` / `_other`, so a
 * tenant can word them too); "… later." when the wait is unknown.
 */
export function tryAgainText(t: TranslateFn, seconds: number | undefined): string {
  if (seconds === undefined) return t('shell.tryAgainLater');
  const wait = waitOf(seconds);
  return t(wait.unit === 'minute' ? 'shell.tryAgainInMinutes' : 'shell.tryAgainInHours', {
    count: wait.value,
  });
}

/**
 * The message of a 429 on any form, in the user's language: what happened — the form's own lead,
 * else "Too many attempts." — and when to try again, from the answer's retryAfterSeconds
 * (engine/domain/retryAfter.ts).
 */
export function tooManyText(t: TranslateFn, error: unknown, lead?: string): string {
  return `${lead ?? t('shell.tooManyAttempts')} ${tryAgainText(t, retryAfterSecondsOf(error))}`;
}
