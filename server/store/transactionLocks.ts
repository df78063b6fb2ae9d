import type { Queryable } from '../db/database';

/**
 * Holds a lock named by `key` until the transaction ends (a PostgreSQL advisory lock on the key's
 * hash): transactions that name the same key wait for each other, so a check and the write it
 * allows cannot interleave where no row exists yet to lock.
 */
export async function lockUntilCommit(tx: Queryable, key: string): Promise<void> {
  await tx.query(`select pg_advisory_xact_lock(hashtext($1))`, [key]);
}
