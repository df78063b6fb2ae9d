import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database';

/**
 * The first answer given to an Idempotency-Key of the operator API, kept a day, for the API key
 * that sent it: each API key has its own idempotency keys (migration 025; docs/going-live.md "Going live with
 * your order system" 2).
 */
export interface StoredAnswer {
  requestHash: string;
  status: number;
  response: unknown;
}

/** Who sent an idempotency key: the tenant and its API key's id. */
export interface IdempotencyOwner {
  tenantId: string;
  apiKeyId: string;
}

/**
 * The status a key's row has while its first request runs (no HTTP status is 0): the claim that
 * makes a concurrent request with the same key wait for the answer instead of running too.
 */
const IN_FLIGHT = 0;

/** How long a claim lasts without being renewed: its request's server stopped (a crash, a deploy). */
export const CLAIM_SECONDS = 60;

/** What a request finds for its key: nothing yet (it now holds the claim), a kept answer, or a request still running. */
export type IdempotencyClaim =
  | { claimed: true; claim: string }
  | { claimed: false; inFlight: true; requestHash: string }
  | { claimed: false; inFlight: false; answer: StoredAnswer };

/**
 * Claims the key for this request, unless a kept answer (younger than a day) or a running request
 * (its claim renewed within CLAIM_SECONDS) holds it: one statement, so of two requests arriving at
 * once exactly one runs.
 */
export async function claimIdempotencyKey(
  db: Queryable,
  owner: IdempotencyOwner,
  key: string,
  requestHash: string,
): Promise<IdempotencyClaim> {
  // Who holds the claim, kept where the answer goes once there is one: a request that took over a
  // lapsed claim is not the one that lost it, and only the holder renews, keeps or gives it back.
  const claim = randomUUID();
  for (let attempt = 0; ; attempt++) {
    const claimed = await db.query(
      `insert into operator_idempotency_keys (tenant_id, api_key_id, idempotency_key, request_hash, status, response)
       values ($1, $2, $3, $4, ${IN_FLIGHT}, jsonb_build_object('claim', $5::text))
       on conflict (tenant_id, api_key_id, idempotency_key) do update
         set request_hash = excluded.request_hash, status = ${IN_FLIGHT}, response = excluded.response, created_at = now()
         where operator_idempotency_keys.created_at <= now() - interval '1 day'
            or (operator_idempotency_keys.status = ${IN_FLIGHT}
                and operator_idempotency_keys.created_at <= now() - make_interval(secs => ${CLAIM_SECONDS}))
       returning 1`,
      [owner.tenantId, owner.apiKeyId, key, requestHash, claim],
    );
    if (claimed.length > 0) return { claimed: true, claim };
    const [row] = await db.query<StoredAnswer>(
      `select request_hash as "requestHash", status, response from operator_idempotency_keys
        where tenant_id = $1 and api_key_id = $2 and idempotency_key = $3`,
      [owner.tenantId, owner.apiKeyId, key],
    );
    // Released meanwhile (its request failed with a 5xx): claimed again on the next turn.
    if (!row) {
      if (attempt < 2) continue;
      return { claimed: false, inFlight: true, requestHash };
    }
    return row.status === IN_FLIGHT
      ? { claimed: false, inFlight: true, requestHash: row.requestHash }
      : { claimed: false, inFlight: false, answer: row };
  }
}

/** The claim's row, while its holder holds it. */
const HELD = `tenant_id = $1 and api_key_id = $2 and idempotency_key = $3 and status = ${IN_FLIGHT} and response->>'claim' = $4`;

/** Keeps the claim of a request that is still running. */
export async function renewIdempotencyClaim(
  db: Queryable,
  owner: IdempotencyOwner,
  key: string,
  claim: string,
): Promise<void> {
  await db.query(`update operator_idempotency_keys set created_at = now() where ${HELD}`, [
    owner.tenantId,
    owner.apiKeyId,
    key,
    claim,
  ]);
}

/** Keeps the answer of the request that holds the claim, for a day from now. */
export async function keepIdempotentAnswer(
  db: Queryable,
  owner: IdempotencyOwner,
  key: string,
  claim: string,
  answer: Pick<StoredAnswer, 'status' | 'response'>,
): Promise<void> {
  await db.query(
    `update operator_idempotency_keys set status = $5, response = $6, created_at = now() where ${HELD}`,
    [owner.tenantId, owner.apiKeyId, key, claim, answer.status, JSON.stringify(answer.response)],
  );
}

/** Gives the key back: its request failed (5xx), so a retry runs again. */
export async function releaseIdempotencyClaim(
  db: Queryable,
  owner: IdempotencyOwner,
  key: string,
  claim: string,
): Promise<void> {
  await db.query(`delete from operator_idempotency_keys where ${HELD}`, [
    owner.tenantId,
    owner.apiKeyId,
    key,
    claim,
  ]);
}
