/**
 * The operator API's input guard (docs/going-live.md "Going live with your order system"): odd input is the
 * client's 400 naming the field, never a 500 once it reaches PostgreSQL, nor a 503 that tells a
 * well-behaved client to retry forever. The checks are /api's (server/http/inputGuard.ts), not a
 * second copy: query values here, path keys and records in entities/orderSystemRecords.ts, bodies
 * of the change feed by guardRequestInput itself. Only what a route reads is checked and parsed,
 * after its key and scope: a JSON body is read by the routes that take one (operatorJsonBody).
 */
import { createHash } from 'node:crypto';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { badRequest, databaseInputError } from '../http/errors';
import { queryProblems } from '../http/inputGuard';
import { jsonBody } from '../http/jsonBody';
import type { Logger } from '../http/requestLog';
import { recordedPath } from '../http/recordedPath';

/**
 * The JSON parser of the routes with a JSON body (an upsert's record, an acknowledgement): 4 MB,
 * batches go through the import, which streams its body itself. Its refusals are the same on every
 * such route — 400 `malformed_request` (not JSON, not UTF-8), 413 `payload_too_large`, 415
 * `unsupported_media_type` (another media type, a charset or Content-Encoding it cannot read) — and
 * the OpenAPI document lists them on each (server/http/jsonBody.ts).
 */
export const operatorJsonBody: RequestHandler = jsonBody((res, bytes) => {
  // The body as sent, for Idempotency-Key (idempotency.ts): hashed from its bytes, since the
  // parsed value may nest deeper than JSON.stringify can walk back.
  res.locals.bodySha256 = createHash('sha256').update(bytes).digest('base64url');
});

/** SHA-256 of the body operatorJsonBody read (base64url), or undefined for a call without one. */
export function bodyDigest(res: Response): string | undefined {
  return res.locals.bodySha256 as string | undefined;
}

/** /api's query check (NUL, unpaired surrogates, control characters, length) on a route that reads its query. */
export const guardOperatorQuery: RequestHandler = (req, _res, next) => {
  const problems = queryProblems(req.query as Record<string, unknown>);
  if (problems.length) throw badRequest('validation_failed', 'The request is not valid.', problems);
  next();
};

/**
 * The net under the checks: a database error that the request's values caused becomes its 4xx
 * (databaseInputError), logged as a warning, since it means a limit the schemas do not carry yet.
 */
export function operatorDatabaseErrors(log: Logger): ErrorRequestHandler {
  return (error, req, _res, next) => {
    const answer = databaseInputError(error);
    if (!answer) return next(error);
    log({
      level: 'warn',
      msg: 'operator API input refused by the database',
      method: req.method,
      path: recordedPath(req.originalUrl),
      code: (error as { code?: string }).code,
      error: String((error as Error).message),
    });
    next(answer);
  };
}
