import { isUtf8 } from 'node:buffer';
import express, { type RequestHandler, type Response } from 'express';

/**
 * The JSON parser of /api and the operator API (4 MB). A body sent as UTF-8 must be UTF-8: the
 * parser would otherwise read each invalid byte as U+FFFD and hand a name with replacement marks
 * on to the database, where the person typed something else. Such a body is 400
 * `malformed_request` "The request body is not valid UTF-8." (server/http/errors.ts answers
 * body-parser's refusals). `onBytes` sees the body as sent (the operator API hashes it for
 * Idempotency-Key).
 */
export function jsonBody(onBytes?: (res: Response, bytes: Buffer) => void): RequestHandler {
  return express.json({
    limit: '4mb',
    verify: (_req, res, bytes, encoding) => {
      if (encoding.toLowerCase() === 'utf-8' && !isUtf8(bytes)) {
        throw Object.assign(new Error('The request body is not valid UTF-8.'), {
          status: 400,
          expose: true,
          type: 'entity.verify.failed',
        });
      }
      onBytes?.(res as Response, bytes);
    },
  });
}
