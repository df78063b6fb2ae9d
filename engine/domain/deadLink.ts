import { ApiError } from './apiError';

/**
 * The answer to a link whose token the server does not know: 404, 401 `invalid_token`, or a token
 * refused by its shape (one cut short when the link was copied out of a mail: 400 at `/token`).
 * Such a link is dead, and the screen says so rather than "please try again".
 */
export function isDeadLinkAnswer(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 404 || error.code === 'invalid_token') return true;
  return (
    error.status === 400 &&
    error.code === 'validation_failed' &&
    Array.isArray(error.details) &&
    error.details.some((problem) => (problem as { field?: unknown } | null)?.field === '/token')
  );
}
