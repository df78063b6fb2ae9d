/**
 * A delete of a record that had no version yet, racing a first write of it committed meanwhile (an
 * import takes no name lock, and there was no version row to lock): the newer write stays, and the
 * delete is refused with its version (server/store/orderSystemStore.ts deleteRecord).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { orderSystemEntity } from '../../../server/operator/entities/orderSystemEntities';
import { deleteRecord } from '../../../server/store/orderSystemStore';
import type { Database } from '../../../server/db/database';
import { getTestDatabase, uniqueTenantId } from '../../support/database';

let db: Database;
beforeAll(async () => {
  db = await getTestDatabase();
});

describe('a delete racing the first write of a key', () => {
  it('leaves the newer write and refuses the delete', async () => {
    const tenantId = uniqueTenantId('delete-race');
    const publications = orderSystemEntity('publications')!;
    let written!: () => void;
    const firstWriteStaged = new Promise<void>((resolve) => (written = resolve));
    let commit!: () => void;
    const mayCommit = new Promise<void>((resolve) => (commit = resolve));
    // The first write: its version row is in, not yet committed.
    const firstWrite = db.transaction(async (tx) => {
      await tx.query(
        `insert into order_system_versions (tenant_id, entity, record_key, version, content_hash, deleted, updated_at)
         values ($1, 'publications', 'RACE', 5, 'h5', false, now())`,
        [tenantId],
      );
      written();
      await mayCommit;
    });
    await firstWriteStaged;
    const deleting = db.transaction((tx) => deleteRecord(tx, tenantId, publications, 'RACE', 3));
    // The delete waits at its tombstone for the first write's key; then the first write commits.
    await new Promise((resolve) => setTimeout(resolve, 200));
    commit();
    await firstWrite;
    expect(await deleting).toEqual({ outcome: 'refused', storedVersion: 5 });
    const [stored] = await db.query<{ version: number; deleted: boolean }>(
      `select version::float8 as version, deleted from order_system_versions
        where tenant_id = $1 and entity = 'publications' and record_key = 'RACE'`,
      [tenantId],
    );
    expect(stored).toEqual({ version: 5, deleted: false });
  });
});
