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

export async function findIdempotentAnswer(
  db: Queryable,
  owner: IdempotencyOwner,
  key: string,
): Promise<StoredAnswer | undefined> {
  const [row] = await db.query<StoredAnswer>(
    `select request_hash as "requestHash", status, response from operator_idempotency_keys
      where tenant_id = $1 and api_key_id = $2 and idempotency_key = $3
        and created_at > now() - interval '1 day'`,
    [owner.tenantId, owner.apiKeyId, key],
  );
  return row;
}

/** Keeps the answer; a key answered meanwhile by a concurrent request keeps that one. */
export async function keepIdempotentAnswer(
  db: Queryable,
  owner: IdempotencyOwner,
  key: string,
  answer: StoredAnswer,
): Promise<void> {
  await db.query(
    `insert into operator_idempotency_keys (tenant_id, api_key_id, idempotency_key, request_hash, status, response)
     values ($1, $2, $3, $4, $5, $6)
     on conflict (tenant_id, api_key_id, idempotency_key) do update
       set request_hash = excluded.request_hash, status = excluded.status, response = excluded.response, created_at = now()
       where operator_idempotency_keys.created_at <= now() - interval '1 day'`,
    [owner.tenantId, owner.apiKeyId, key, answer.requestHash, answer.status, JSON.stringify(answer.response)],
  );
}
