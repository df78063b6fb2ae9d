/**
 * SQL of the operator API's keys and their usage log (migration 017).
 * Keys are found by the SHA-256 of the secret, never by the secret; the log never holds the key.
 */
import type { Queryable } from '../db/database';

export type OperatorScope = 'read' | 'write' | 'import';

export interface OperatorKeyRow {
  tenantId: string;
  id: string;
  name: string;
  prefix: string;
  scopes: OperatorScope[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

interface KeyRecord {
  tenant_id: string;
  id: string;
  name: string;
  prefix: string;
  scopes: OperatorScope[];
  created_at: Date | string;
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function keyOf(row: KeyRecord): OperatorKeyRow {
  return {
    tenantId: row.tenant_id,
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    createdAt: iso(row.created_at)!,
    lastUsedAt: iso(row.last_used_at),
    revokedAt: iso(row.revoked_at),
  };
}

const COLUMNS = `tenant_id, id::text as id, name, prefix, scopes, created_at, last_used_at, revoked_at`;

export async function insertOperatorKey(
  db: Queryable,
  key: {
    tenantId: string;
    id: string;
    name: string;
    prefix: string;
    secretHash: string;
    scopes: readonly OperatorScope[];
    now: Date;
  },
): Promise<OperatorKeyRow> {
  const rows = await db.query<KeyRecord>(
    `insert into operator_keys (tenant_id, id, name, prefix, secret_hash, scopes, created_at)
     values ($1, $2, $3, $4, $5, $6::text[], $7) returning ${COLUMNS}`,
    [key.tenantId, key.id, key.name, key.prefix, key.secretHash, key.scopes, key.now.toISOString()],
  );
  return keyOf(rows[0]);
}

/** The key with this secret hash, whatever its tenant or state (the caller decides what counts). */
export async function findOperatorKeyByHash(
  db: Queryable,
  secretHash: string,
): Promise<(OperatorKeyRow & { secretHash: string }) | undefined> {
  const rows = await db.query<KeyRecord & { secret_hash: string }>(
    `select ${COLUMNS}, secret_hash from operator_keys where secret_hash = $1`,
    [secretHash],
  );
  return rows[0] ? { ...keyOf(rows[0]), secretHash: rows[0].secret_hash } : undefined;
}

/** The tenant's keys, oldest first, revoked ones included. */
export async function listOperatorKeys(db: Queryable, tenantId: string): Promise<OperatorKeyRow[]> {
  const rows = await db.query<KeyRecord>(
    `select ${COLUMNS} from operator_keys where tenant_id = $1 order by created_at, prefix`,
    [tenantId],
  );
  return rows.map(keyOf);
}

/**
 * Revokes the tenant's key with this id or prefix (a key revoked before keeps its first time).
 * Answers the keys that matched: none, one, or several when a short prefix is ambiguous (then
 * nothing is revoked).
 */
export async function revokeOperatorKey(
  db: Queryable,
  tenantId: string,
  idOrPrefix: string,
  now: Date,
): Promise<OperatorKeyRow[]> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrPrefix);
  const matches = await db.query<KeyRecord>(
    `select ${COLUMNS} from operator_keys
      where tenant_id = $1 and (${isUuid ? 'id = $2::uuid' : 'starts_with(prefix, $2)'})`,
    [tenantId, idOrPrefix],
  );
  if (matches.length !== 1) return matches.map(keyOf);
  const rows = await db.query<KeyRecord>(
    `update operator_keys set revoked_at = coalesce(revoked_at, $3)
      where tenant_id = $1 and id = $2::uuid returning ${COLUMNS}`,
    [tenantId, matches[0].id, now.toISOString()],
  );
  return rows.map(keyOf);
}

/**
 * One authenticated call: its log row, and the key's last use — written at most once a minute, so
 * an order system's burst of calls does not queue on its key's row (the log has every call).
 */
export async function recordOperatorKeyUse(
  db: Queryable,
  use: {
    tenantId: string;
    keyId: string;
    at: Date;
    method: string;
    path: string;
    status: number;
    client: string;
  },
): Promise<void> {
  await db.query(
    `with logged as (
       insert into operator_key_uses (tenant_id, key_id, used_at, method, path, status, client)
       values ($1, $2::uuid, $3, $4, $5, $6, $7)
     )
     update operator_keys set last_used_at = $3
      where tenant_id = $1 and id = $2::uuid
        and (last_used_at is null or last_used_at < $3::timestamptz - interval '1 minute')`,
    [use.tenantId, use.keyId, use.at.toISOString(), use.method, use.path, use.status, use.client],
  );
}

export interface OperatorKeyUse {
  keyId: string;
  usedAt: string;
  method: string;
  path: string;
  status: number;
  client: string;
}

/** The newest uses of the tenant's keys (of one key when given), newest first. */
export async function listOperatorKeyUses(
  db: Queryable,
  tenantId: string,
  options: { keyId?: string; limit?: number } = {},
): Promise<OperatorKeyUse[]> {
  const rows = await db.query<{
    key_id: string;
    used_at: Date | string;
    method: string;
    path: string;
    status: number;
    client: string;
  }>(
    `select key_id::text as key_id, used_at, method, path, status, client from operator_key_uses
      where tenant_id = $1 and ($2::uuid is null or key_id = $2::uuid)
      order by seq desc limit $3`,
    [tenantId, options.keyId ?? null, options.limit ?? 100],
  );
  return rows.map((row) => ({
    keyId: row.key_id,
    usedAt: iso(row.used_at)!,
    method: row.method,
    path: row.path,
    status: Number(row.status),
    client: row.client,
  }));
}
