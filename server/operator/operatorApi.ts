import { Router } from 'express';
import type { Database } from '../db/database';
import type { Logger } from '../http/requestLog';
import type { Mailer } from '../mail/mailer';
import { apiNotFound } from '../http/errors';
import { noStore } from '../http/securityHeaders';
import { authenticateOperator } from './keys/operatorAuth';
import { openApiRoute } from './openapi/openApiRoute';
import { OPERATOR_OPERATIONS } from './operatorParts';
import { operatorDatabaseErrors } from './operatorInputGuard';

/** What the operator API's routers get: the database, the log, the clock, the mailer. */
export interface OperatorApiDeps {
  db: Database;
  log: Logger;
  now: () => Date;
  mailer: Mailer;
  mailFrom: string;
  /** Failed authentications per client before 429 (keys/operatorAuth.ts; tests raise it). */
  authFailureLimit?: { windowSeconds: number; limit: number };
}

/** One part of the operator API: a router mounted under /operator/v1 of the tenant. */
export type OperatorRouterFactory = (deps: OperatorApiDeps) => Router;

/**
 * The operator API of a tenant, `/t/<tenant>/operator/v1` and `/operator/v1` on the tenant's hosts
 * (docs/architecture.md "Data and the server": In): server to server, for the publisher's order
 * system. No cookies, no XSRF token: every call carries a tenant's API key (keys/), and the
 * tenant is the one the URL resolved, never one the key or the body names.
 */
export function operatorApi(deps: OperatorApiDeps, parts: readonly OperatorRouterFactory[]): Router {
  const api = Router();
  api.use(noStore);
  // The OpenAPI document is the one path without a key: it describes the API and holds
  // nothing of the tenant's data or keys, and client generators and API tools fetch it without
  // one (npx openapi-typescript <url>). It reads no body, so it answers before the auth below.
  api.get('/openapi.json', openApiRoute(OPERATOR_OPERATIONS));
  // Every other path, known or not, needs a key of this tenant (keys/operatorAuth.ts), before a body is
  // read: nobody without a key gets 4 MB parsed, and an unknown path answers 404 only to a key.
  // A body is read only by the routes that take one, after the key's scope (operatorInputGuard.ts):
  // a call that reads none cannot be refused for one.
  api.use(authenticateOperator(deps, deps.authFailureLimit));
  for (const part of parts) api.use(part(deps));
  api.use(apiNotFound);
  // Bad input the checks let through is still the client's 4xx, never a 500 or a 503.
  api.use(operatorDatabaseErrors(deps.log));
  return api;
}
