/**
 * Authentication of the operator API (docs/going-live.md "1. An API key"): every call carries one
 * of the tenant's API keys as `Authorization: Bearer <key>`; scopes (read, write, import) are asked
 * per route with requireScope. Every authenticated call is logged with its answer's status, never
 * the key.
 */
import type { RequestHandler, Response } from 'express';
import { constantTimeEquals, hashToken } from '../../auth/tokens';
import { clientKey, consumeRateLimit, peekHits, tooMany, type RateLimitRule } from '../../auth/rateLimit';
import { HttpError } from '../../http/errors';
import type { Queryable } from '../../db/database';
import type { Logger } from '../../http/requestLog';
import { requestTenant } from '../../tenancy/tenantContext';
import { recordedPath } from '../../http/recordedPath';
import {
  findOperatorKeyByHash,
  recordOperatorKeyUse,
  type OperatorScope,
} from '../../store/operatorKeyStore';

/** The key of an authenticated operator call, in `res.locals.operatorKey`. */
export interface OperatorKey {
  id: string;
  tenantId: string;
  prefix: string;
  name: string;
  scopes: readonly OperatorScope[];
}

/**
 * Failed authentications per client address before the operator API answers 429 (in a 15-minute
 * window). A 256-bit key cannot be guessed, so this is not what keeps keys safe; it keeps a client
 * with a wrong or revoked key (or a scanner) from hammering the database and the log, and makes a
 * misconfigured order system see a clear 429 with Retry-After instead of endless 401s.
 */
export const OPERATOR_AUTH_FAILURE_LIMIT = { windowSeconds: 15 * 60, limit: 30 };

export interface OperatorAuthDeps {
  db: Queryable;
  log: Logger;
  now: () => Date;
}

const BEARER = /^Bearer[ ]+([A-Za-z0-9_.~+/=-]{1,512})[ ]*$/i;

function invalidKey(res: Response): HttpError {
  res.setHeader('WWW-Authenticate', 'Bearer realm="operator", error="invalid_token"');
  return new HttpError(
    401,
    'invalid_api_key',
    'Send a valid API key of this tenant as "Authorization: Bearer <key>" (make one with `portal keys create <tenant>`).',
  );
}

/**
 * Failed authentications are one count per client across every tenant of the server: a guesser
 * does not get a fresh budget by switching the tenant in the URL.
 */
const ACROSS_TENANTS = '*';

/**
 * Reads and checks the request's key: unknown, revoked and other tenants' keys are all the same
 * 401 `invalid_api_key` (a caller learns nothing about keys it does not hold). Failures count per
 * client address across tenants, and only failures: a client at the limit gets 429 with
 * Retry-After for every further wrong key until the window ends, while a valid key still passes.
 * Else whoever shares an address with an order system (a NAT, an integration platform, every
 * caller behind a proxy without TRUST_PROXY) could lock it out with 30 wrong keys; a 256-bit key
 * cannot be guessed, so the limit only keeps a scanner from hammering the database and the log
 * (past it a wrong key costs one indexed read and no write). A
 * failure is counted with one atomic increment whose result decides the answer, so parallel
 * guesses cannot all slip under the limit: of 120 at once, 30 are told 401 and the rest 429, never
 * more 401s than the limit. A valid key writes nothing here, so an order system's burst of good
 * calls is never limited by its own number.
 */
export function authenticateOperator(
  deps: OperatorAuthDeps,
  limits: { windowSeconds: number; limit: number } = OPERATOR_AUTH_FAILURE_LIMIT,
): RequestHandler {
  return async (req, res, next) => {
    const secret = BEARER.exec(req.get('authorization') ?? '')?.[1];
    const found = await checkOperatorKey(deps, req.ip, requestTenant(res).id, secret, limits, () =>
      invalidKey(res),
    );
    res.locals.operatorKey = found;
    logUseWhenAnswered(deps, req.method, `${req.baseUrl}${req.path}`, req.ip ?? 'unknown', found, res);
    next();
  };
}

/**
 * The tenant's valid key whose secret this is, or the failure authenticateOperator describes:
 * `invalid()` (401) counted against the client, 429 past the limit. Also the outbox viewer's check
 * at its public name (server/mail/outboxPage.ts), with the same budget of failures.
 */
export async function checkOperatorKey(
  deps: Pick<OperatorAuthDeps, 'db' | 'now'>,
  clientIp: string | undefined,
  tenantId: string,
  secret: string | undefined,
  limits: { windowSeconds: number; limit: number },
  invalid: () => HttpError,
): Promise<OperatorKey> {
  const now = deps.now();
  const rule: RateLimitRule = {
    bucket: `operator-auth:client:${clientKey(clientIp ?? 'unknown')}`,
    windowSeconds: limits.windowSeconds,
    limit: limits.limit,
  };
  const hash = secret ? hashToken(secret) : undefined;
  const found = hash ? await findOperatorKeyByHash(deps.db, hash) : undefined;
  // The lookup compared hashes in an index; compare again in constant time (and the tenant),
  // so no answer's timing depends on how much of a stored hash a guess matched.
  const valid =
    found !== undefined &&
    hash !== undefined &&
    constantTimeEquals(found.secretHash, hash) &&
    found.tenantId === tenantId &&
    found.revokedAt === null;
  if (!valid) {
    // Past the limit a wrong key is answered 429 without a write: the count is spent until the
    // window ends. Under it, 429 instead of 401 for every failure counted past the limit.
    if ((await peekHits(deps.db, ACROSS_TENANTS, rule, now)).hits >= limits.limit) {
      const windowMs = limits.windowSeconds * 1000;
      throw tooMany((Math.floor(now.getTime() / windowMs) * windowMs + windowMs - now.getTime()) / 1000);
    }
    await consumeRateLimit(deps.db, ACROSS_TENANTS, rule, now);
    throw invalid();
  }
  return {
    id: found.id,
    tenantId: found.tenantId,
    prefix: found.prefix,
    name: found.name,
    scopes: found.scopes,
  };
}

/**
 * Logs the call once its answer is sent (or the connection closed), with the answer's status: the
 * key's audit trail and its last use. Also the outbox viewer's reads with a key.
 */
export function logUseWhenAnswered(
  deps: OperatorAuthDeps,
  method: string,
  path: string,
  client: string,
  key: { id: string; tenantId: string },
  res: Response,
): void {
  const at = deps.now();
  let logged = false;
  const log = () => {
    if (logged) return;
    logged = true;
    recordOperatorKeyUse(deps.db, {
      tenantId: key.tenantId,
      keyId: key.id,
      at,
      method,
      // The path only, without what does not belong in a log (recordedPath): a licence's key
      // names its user's e-mail address.
      path: recordedPath(path).slice(0, 2048),
      status: res.statusCode,
      client,
    }).catch((error: unknown) =>
      deps.log({ level: 'error', msg: 'operator key use not logged', keyId: key.id, error: String(error) }),
    );
  };
  res.once('finish', log);
  res.once('close', log);
}

/** The authenticated call's key; only behind authenticateOperator. */
export function operatorKey(res: Response): OperatorKey {
  const key = res.locals.operatorKey as OperatorKey | undefined;
  if (!key) throw new Error('operator key missing: route mounted outside the operator API');
  return key;
}

/** Whether requireScope has let this call through (what must come after it asks). */
export function scopeChecked(res: Response): boolean {
  return res.locals.operatorScopeChecked === true;
}

/** 403 `insufficient_scope` unless the call's key has the scope. */
/** `scopes`: what the hint tells to create a key with, where the call needs another scope too. */
export function requireScope(scope: OperatorScope, scopes: string = scope): RequestHandler {
  return (_req, res, next) => {
    if (!operatorKey(res).scopes.includes(scope)) {
      res.setHeader(
        'WWW-Authenticate',
        `Bearer realm="operator", error="insufficient_scope", scope="${scope}"`,
      );
      throw new HttpError(
        403,
        'insufficient_scope',
        `This call needs an API key with the scope "${scope}" (portal keys create <tenant> --scope ${scopes}).`,
        { scope },
      );
    }
    res.locals.operatorScopeChecked = true;
    next();
  };
}
