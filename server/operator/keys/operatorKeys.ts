/**
 * The operator API's keys (docs/going-live.md "1. An API key"): made and revoked by `portal keys`,
 * shown once, stored as a SHA-256 hash (migration 017 says why a fast hash is right for them).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/database';
import { hashToken } from '../../auth/tokens';
import { insertOperatorKey, type OperatorKeyRow, type OperatorScope } from '../../store/operatorKeyStore';

export type { OperatorScope } from '../../store/operatorKeyStore';

export const OPERATOR_SCOPES: readonly OperatorScope[] = ['read', 'write', 'import'];

/** Random characters of the prefix after `pk_<tenant>_`: enough to tell a tenant's keys apart. */
export const KEY_PREFIX_RANDOM_CHARS = 8;

/**
 * `pk_<tenant>_<43 base64url characters>`: 32 random bytes (256 bits). The tenant in the key lets an
 * operator see at a glance which portal a key is for (and secret scanners match `pk_`); the server
 * never trusts it — the key is found by its hash and must belong to the tenant the URL resolved.
 */
export function newOperatorKeySecret(tenantId: string): string {
  return `pk_${tenantId}_${randomBytes(32).toString('base64url')}`;
}

export function keyPrefixOf(tenantId: string, secret: string): string {
  return secret.slice(0, `pk_${tenantId}_`.length + KEY_PREFIX_RANDOM_CHARS);
}

export function isOperatorScope(value: string): value is OperatorScope {
  return (OPERATOR_SCOPES as readonly string[]).includes(value);
}

/**
 * Makes a key: the row (without the secret) and the secret, which the caller shows once. Another
 * key of the tenant with the same prefix (1 in 2^48) is simply drawn again.
 */
export async function createOperatorKey(
  db: Queryable,
  tenantId: string,
  options: { name: string; scopes: readonly OperatorScope[]; now: Date },
): Promise<{ key: OperatorKeyRow; secret: string }> {
  for (let attempt = 0; ; attempt++) {
    const secret = newOperatorKeySecret(tenantId);
    try {
      const key = await insertOperatorKey(db, {
        tenantId,
        id: randomUUID(),
        name: options.name,
        prefix: keyPrefixOf(tenantId, secret),
        secretHash: hashToken(secret),
        scopes: [...new Set(options.scopes)],
        now: options.now,
      });
      return { key, secret };
    } catch (error) {
      // 23505: unique violation (the prefix); anything else, or a third clash, is a real error.
      if ((error as { code?: string }).code !== '23505' || attempt >= 2) throw error;
    }
  }
}
