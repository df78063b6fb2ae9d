import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Queryable } from '../db/database';
import { HttpError } from '../http/errors';
import {
  CLAIM_SECONDS,
  claimIdempotencyKey,
  keepIdempotentAnswer,
  releaseIdempotencyClaim,
  renewIdempotencyClaim,
} from '../store/idempotencyStore';
import { requestTenant } from '../tenancy/tenantContext';
import { operatorKey, scopeChecked } from './keys/operatorAuth';
import { bodyDigest } from './operatorInputGuard';

/** Longest Idempotency-Key accepted (Stripe's limit; a UUID is 36). */
const MAX_KEY_LENGTH = 255;

/** The query as one text whatever the order of its parameters: `?b=2&a=1` is `?a=1&b=2`. */
function canonicalQuery(query: Record<string, unknown>): string {
  return JSON.stringify(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * `Idempotency-Key` on the operator API's writes, after the IETF draft and Stripe: the
 * first answer to a key is kept for a day, and a retry carrying the same key and the same request
 * gets that answer again (`Idempotent-Replayed: true`) without anything being done twice. The same
 * key with another request is a client's mistake: 422 `idempotency_key_reused`. Answers of 5xx are
 * not kept, so a retry after a failure runs again. A retry arriving while the first request still
 * runs gets 409 `idempotency_key_in_use` with `Retry-After`, never a second run (the IETF draft's
 * "concurrent request"). Without the header a write runs as it is; the
 * record versions keep retries harmless anyway, the key makes them answer alike.
 *
 * Only after authorisation (docs/going-live.md "Going live with your order system" 2): mounted on each write
 * route behind authenticateOperator and requireScope, so a key without the route's scope gets its
 * own 403 and never an answer kept for another key, and no refusal of the auth is ever kept. An
 * answer belongs to the API key that got it (each key has its own idempotency keys, migration 025)
 * and to its request: method, path, query and body — `DELETE …?version=2` and `?version=7` are two
 * requests.
 */
export function idempotentWrites(db: Queryable): RequestHandler {
  return async (req, res, next) => {
    // Mounted before requireScope, it would hand kept answers to keys that may not have them.
    if (!scopeChecked(res)) throw new Error('idempotentWrites must come after requireScope');
    const key = req.get('Idempotency-Key');
    if (key === undefined || req.method === 'GET' || req.method === 'HEAD') return next();
    if (key.length === 0 || key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key))
      throw new HttpError(
        400,
        'invalid_idempotency_key',
        `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters.`,
      );
    const owner = { tenantId: requestTenant(res).id, apiKeyId: operatorKey(res).id };
    // The path under /operator/v1 (the same on the tenant's host and under /t/<tenant>/), the query
    // as parameters, the body as sent (its bytes' hash: a parsed body may nest deeper than
    // JSON.stringify can walk, and a retry sends the same bytes).
    const requestHash = createHash('sha256')
      .update(
        `${req.method} ${req.path}\n${canonicalQuery(req.query as Record<string, unknown>)}\n${bodyDigest(res) ?? ''}`,
      )
      .digest('base64url');
    const found = await claimIdempotencyKey(db, owner, key, requestHash);
    if (!found.claimed) {
      if ((found.inFlight ? found.requestHash : found.answer.requestHash) !== requestHash)
        throw new HttpError(
          422,
          'idempotency_key_reused',
          'This Idempotency-Key was used for another request within the last day; use a new key for a new request.',
        );
      if (found.inFlight) {
        res.setHeader('Retry-After', '1');
        throw new HttpError(
          409,
          'idempotency_key_in_use',
          'A request with this Idempotency-Key is still running; retry it in a moment to get its answer.',
        );
      }
      res.setHeader('Idempotent-Replayed', 'true');
      res.status(found.answer.status).json(found.answer.response);
      return;
    }
    const { claim } = found;
    // This request holds the key until its handler answers: renewed while it runs (a slow write, a
    // pool waiting for connections), so a concurrent retry waits for the answer; a claim whose
    // server stopped lapses after CLAIM_SECONDS.
    const renewal = setInterval(
      () => void renewIdempotencyClaim(db, owner, key, claim).catch(() => undefined),
      (CLAIM_SECONDS * 1000) / 3,
    );
    renewal.unref();
    let settled = false;
    const settle = (kept: Promise<void>) => {
      settled = true;
      clearInterval(renewal);
      return kept.catch(() => undefined);
    };
    // An answer sent without res.json (none of the write routes' own) is not kept: the key is
    // given back. A client that went away does not end the request: its handler still runs and
    // answers, and that answer is kept for the client's retry (never a second run); a handler that
    // never answers stops being renewed an hour on, and its claim lapses.
    res.on('close', () => {
      if (settled) return;
      if (res.writableFinished) void settle(releaseIdempotencyClaim(db, owner, key, claim));
      else setTimeout(() => clearInterval(renewal), 3_600_000).unref();
    });
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      // Kept before the answer goes out: a retry that races the first answer finds it. Answers of
      // 5xx are not kept: the key is given back, and a retry runs again.
      void settle(
        res.statusCode < 500
          ? keepIdempotentAnswer(db, owner, key, claim, { status: res.statusCode, response: body })
          : releaseIdempotencyClaim(db, owner, key, claim),
      ).finally(() => json(body));
      return res;
    };
    next();
  };
}
