/**
 * How long a refused caller has to wait: every 429 says when to try again, so a
 * limit never leaves an honest user guessing. One rule for both sides: the server puts the seconds
 * into the 429's `details.retryAfterSeconds` and its Retry-After header (server/auth/rateLimit.ts)
 * and says the wait in its English message; the screens read the seconds from the ApiError and say
 * the wait in the screen's language (engine/core/tooManyText.ts).
 */
import { ApiError } from './apiError';

/** The seconds a 429 asks to wait, or undefined (another error, or a 429 without a time). */
export function retryAfterSecondsOf(error: unknown): number | undefined {
  if (!(error instanceof ApiError) || error.status !== 429) return undefined;
  const details =
    error.details && typeof error.details === 'object' && !Array.isArray(error.details)
      ? (error.details as Record<string, unknown>)
      : {};
  const seconds = Number(details.retryAfterSeconds);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

export const isRateLimited = (error: unknown): boolean => error instanceof ApiError && error.status === 429;

export interface Wait {
  value: number;
  unit: 'minute' | 'hour';
}

/**
 * The wait as people say it, rounded up so nobody comes back too early: whole minutes (at least
 * one) up to 90 minutes, whole hours beyond.
 */
export function waitOf(seconds: number): Wait {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes <= 90
    ? { value: minutes, unit: 'minute' }
    : { value: Math.ceil(minutes / 60), unit: 'hour' };
}

/** "14 minutes", "3 hours": the wait in English, for the server's message. */
export function waitInEnglish(seconds: number): string {
  const wait = waitOf(seconds);
  return `${wait.value} ${wait.unit}${wait.value === 1 ? '' : 's'}`;
}
