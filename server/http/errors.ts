import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isConnectionError } from '../db/database';
import type { ErrorBody } from '../../schemas/generated/error-body';
import { ApiError as HttpError } from '../../engine/domain/apiError';

/**
 * The one error shape of the API (DESIGN.md "server/"):
 *   { "error": { "code": "validation_failed", "message": "...", "details": [...] } }
 * Handlers throw HttpError; the error middleware answers. Anything else is a 500 whose cause is
 * logged but never shown to the client. HttpError is the portal's own ApiError (engine/domain): the
 * same status, code, message and details on both sides of the wire.
 */
export { HttpError };

export const badRequest = (code: string, message: string, details?: unknown) =>
  new HttpError(400, code, message, details);
export const unauthorized = (code = 'unauthorized', message = 'Please log in.') =>
  new HttpError(401, code, message);
export const forbidden = (code: string, message: string) => new HttpError(403, code, message);
export const notFound = (message = 'Not found.') => new HttpError(404, 'not_found', message);

/** schemas/api/error-body.schema.json */
export function errorBody(code: string, message: string, details?: unknown): ErrorBody {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

/** An unknown /api path is a JSON 404, never the SPA's HTML. */
export const apiNotFound: RequestHandler = (req, res) => {
  res
    .status(404)
    .json(errorBody('not_found', `No API endpoint ${req.method} ${req.originalUrl.split('?')[0]}.`));
};

export function errorMiddleware(log: (entry: Record<string, unknown>) => void): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (error instanceof HttpError) {
      const retryAfter = (error.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
      if (error.status === 429 && retryAfter) res.setHeader('Retry-After', String(retryAfter));
      res.status(error.status).json(errorBody(error.code, error.message, error.details));
      return;
    }
    // A path parameter whose %-escapes are not UTF-8 (e.g. a lone surrogate as %ED%A0%80): the router
    // cannot decode it; the boundary check's answer (server/http/inputGuard.ts, issue 10 finding 5).
    if (error instanceof URIError && (error as URIError & { status?: number }).status === 400) {
      res
        .status(400)
        .json(
          errorBody('validation_failed', 'The request is not valid.', [
            { field: 'params', message: 'must be valid UTF-8 percent-encoding' },
          ]),
        );
      return;
    }
    // body-parser errors (malformed JSON, too large) carry a status and `expose`.
    const status = typeof error?.status === 'number' ? error.status : 500;
    // A file that is not there (serve-static's 404 for a missing asset): its message names the
    // server's path, which is nobody's business outside.
    if (status === 404) {
      res.status(404).json(errorBody('not_found', 'There is no such file.'));
      return;
    }
    if (status >= 400 && status < 500) {
      const code = error.type === 'entity.too.large' ? 'payload_too_large' : 'malformed_request';
      res.status(status).json(
        errorBody(
          code,
          error.type === 'entity.parse.failed'
            ? 'The request body is not valid JSON.'
            : // Only body-parser's own messages are meant for the client (`expose`).
              error.expose === true && String(error.type ?? '').startsWith('entity.')
              ? String(error.message)
              : 'The request could not be read.',
        ),
      );
      return;
    }
    if (isConnectionError(error) || isConnectionError(error?.cause)) {
      // The database is down or restarting: say so, and let the client retry; the pool reconnects
      // by itself when it is back (no restart needed). /readyz answers 503 meanwhile.
      log({
        level: 'warn',
        msg: 'database unavailable',
        method: req.method,
        path: req.originalUrl.split('?')[0],
        error: String(error?.code ?? error?.message ?? error),
      });
      res.setHeader('Retry-After', '5');
      res
        .status(503)
        .json(
          errorBody(
            'database_unavailable',
            'The service is briefly unavailable. Please try again in a moment.',
          ),
        );
      return;
    }
    if (error?.code === 'user_exists') {
      // Two requests created the same account at once: the second one is told, not crashed.
      res
        .status(409)
        .json(errorBody('account_exists', 'An account with this e-mail address exists already.'));
      return;
    }
    // The query is left out of the log: it may carry tokens (login links, OAuth codes).
    log({
      level: 'error',
      msg: 'unhandled error',
      method: req.method,
      path: req.originalUrl.split('?')[0],
      error: String(error?.stack ?? error),
    });
    res
      .status(500)
      .json(errorBody('internal_error', 'An unexpected error occurred. Please try again later.'));
  };
}
