import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isConnectionError } from '../db/database';
import type { ErrorBody } from '../../schemas/generated/error-body';
import { ApiError as HttpError } from '../../engine/domain/apiError';
import { recordedPath } from './recordedPath';

/**
 * The one error shape of the API (docs/architecture.md "The folders": `server/`):
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

const camelCase = (column: string) => column.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** What a class of PostgreSQL's data exceptions (SQLSTATE 22xxx) says about the value. */
function dataExceptionMessage(code: string): string {
  if (code === '22001') return 'is longer than its field holds';
  if (code === '22003') return 'is a number outside the range its field holds';
  if (code === '22007' || code === '22008') return 'is a date or time outside the range its field holds';
  if (code === '22021' || code === '22P05')
    return 'holds a character the database cannot store (NUL, or an unpaired UTF-16 surrogate)';
  if (code === '22P02') return 'is not a value of its field’s type';
  return 'is not a value its field can hold';
}

/**
 * A database error that the request's values caused, as the answer it deserves; undefined for
 * anything else. PostgreSQL's SQLSTATEs (its manual, Appendix A "Error Codes"): data exceptions
 * (class 22: too long, out of range, a NUL byte, an unpaired surrogate in JSON, …), a check or
 * not-null constraint refused (23514, 23502) and a value too large for an index (54000) are the
 * client's bad input, 400 `validation_failed`; a unique value another row holds (23505) is 409
 * `duplicate_value`; a row the request names that is not there (23503) is 422 `unknown_reference`.
 * The operator API checks records against schemas that encode the tables' limits first
 * (docs/going-live.md "Going live with your order system"); this is the net under those checks, so that a
 * limit the schemas miss is still the client's 4xx, never a 500 — nor a 503, which means only
 * that the database is unreachable (isConnectionError).
 */
export function databaseInputError(error: unknown): HttpError | undefined {
  const e = error as { code?: unknown; column?: unknown; message?: unknown; detail?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  // SQLSTATEs are five digits or capitals; Node's errnos (ECONNREFUSED, …) are not.
  if (!/^[0-9A-Z]{5}$/.test(code)) return undefined;
  const field = typeof e!.column === 'string' ? `/${camelCase(e!.column)}` : '/';
  const said = typeof e!.message === 'string' ? ` (the database says: ${e!.message})` : '';
  const refused = (message: string) =>
    badRequest('validation_failed', 'The database refused a value of the request.', [
      { field, message: `${message}${said}` },
    ]);
  if (code.startsWith('22')) return refused(dataExceptionMessage(code));
  if (code === '23514') return refused('is refused by a rule of its table');
  if (code === '23502') return refused('is required');
  if (code === '54000') return refused('is too large to be stored');
  if (code === '23505') {
    // "Key (tenant_id, client_id, order_number)=(…) already exists.": the columns, not the values.
    const columns = /^Key \(([^)]*)\)/.exec(typeof e!.detail === 'string' ? e!.detail : '')?.[1];
    const fields = (columns ?? '')
      .split(',')
      .map((c) => c.trim())
      .filter((c) => c && c !== 'tenant_id')
      .map(camelCase);
    return new HttpError(
      409,
      'duplicate_value',
      `Another record holds the same ${fields.length ? fields.join(' and ') : 'unique value'}: nothing was changed.`,
      fields.length ? { fields } : undefined,
    );
  }
  if (code === '23503')
    return new HttpError(
      422,
      'unknown_reference',
      'The request names a row that does not exist (or was deleted meanwhile): write it first.',
    );
  return undefined;
}

/** The SQLSTATEs of class 22 that a request's own values cause (PostgreSQL's Appendix A). */
const INPUT_DATA_EXCEPTIONS: ReadonlySet<string> = new Set([
  '22001',
  '22003',
  '22007',
  '22008',
  '22021',
  '22P02',
  '22P05',
]);

export function errorMiddleware(log: (entry: Record<string, unknown>) => void): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (error instanceof HttpError) {
      const retryAfter = (error.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
      if (error.status === 429 && retryAfter) res.setHeader('Retry-After', String(retryAfter));
      res.status(error.status).json(errorBody(error.code, error.message, error.details));
      return;
    }
    // A path parameter whose %-escapes are not UTF-8 (e.g. a lone surrogate as %ED%A0%80): the router
    // cannot decode it; the boundary check's answer (server/http/inputGuard.ts).
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
      // body-parser's 415s are a charset or Content-Encoding it cannot read: the media type's fault,
      // not the body's (RFC 9110 §15.5.16), and answered as such.
      const code =
        error.type === 'entity.too.large'
          ? 'payload_too_large'
          : status === 415
            ? 'unsupported_media_type'
            : 'malformed_request';
      res.status(status).json(
        errorBody(
          code,
          error.type === 'entity.parse.failed'
            ? // express.json's strict mode takes objects and arrays only: `null`, `42` or `"text"`
              // is valid JSON, only not a body this API reads.
              parsesAsJson(error.body)
              ? 'The request body must be a JSON object, not a single value.'
              : 'The request body is not valid JSON.'
            : error.type === 'charset.unsupported'
              ? 'Send the body in UTF-8.'
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
      // An error, not a warning: every request fails meanwhile, and the log is what an operator
      // without metrics alerts on (docs/going-live.md "Running it and its log").
      log({
        level: 'error',
        msg: 'database unavailable',
        method: req.method,
        path: recordedPath(req.originalUrl),
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
    // A value the database could not take that a route's checks let through (too long, out of
    // range, a bad date, a NUL byte or a lone surrogate, not of its type): the request's fault, a 400
    // without the database's words (they name tables and columns), logged as a warning since it
    // means a check is missing. Other data exceptions (a division by zero) are the server's own and
    // stay 500s. The operator API answers these itself, with the field
    // (server/operator/operatorInputGuard.ts).
    if (typeof error?.code === 'string' && INPUT_DATA_EXCEPTIONS.has(error.code)) {
      log({
        level: 'warn',
        msg: 'request input refused by the database',
        method: req.method,
        path: recordedPath(req.originalUrl),
        code: error.code,
        error: String(error.message),
      });
      res.status(400).json(errorBody('validation_failed', 'The request is not valid.'));
      return;
    }
    // The path as the request log keeps it (recordedPath): the query may carry tokens (login
    // links, OAuth codes), a path a download key or an e-mail address.
    log({
      level: 'error',
      msg: 'unhandled error',
      method: req.method,
      path: recordedPath(req.originalUrl),
      error: String(error?.stack ?? error),
    });
    res
      .status(500)
      .json(errorBody('internal_error', 'An unexpected error occurred. Please try again later.'));
  };
}

function parsesAsJson(body: unknown): boolean {
  if (typeof body !== 'string') return false;
  try {
    JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}
