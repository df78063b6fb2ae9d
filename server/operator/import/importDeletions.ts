import type { Queryable } from '../../db/database';
import { asOrderSystem } from '../../store/orderSystemOverlays';
import {
  ORDER_SYSTEM_ENTITIES,
  type OrderSystemEntity,
  KEY_SEPARATOR,
  splitKey,
} from '../entities/orderSystemEntities';

/**
 * The full sync of an import (`portal import --full`, `POST /imports/<entity>?full=true`;
 * docs/going-live.md "Going live with your order system", 3. Import): each entity file of the import
 * is the complete set of that entity's records, and the order system's records of that entity the
 * file does not name are deleted in the import's transaction, after every file is merged.
 *
 * A record goes exactly as `DELETE /operator/v1/<entity>/<key>?version=` takes it
 * (server/store/orderSystemStore.ts deleteRecord) with the record's next version (stored + 1), only
 * for a set of records at once: the row is deleted as the order system (its cascades with it, the
 * portal's own rows of it among them), the subscribers' pending changes on it are dropped, and the
 * deletion is kept as a tombstone. deleteRecord's steps, each as one statement for all:
 *  - it holds each record by name and its version row (`for update`); here the version rows are
 *    held, in the keys' order, as the import's merges do (they take no name locks either): the API's
 *    writes and the rejections lock those rows too and wait for the import. A lock per name would
 *    fill PostgreSQL's lock table (out of shared memory at some ten thousand in one transaction);
 *  - the rows are deleted as the order system; a row other rows still name is not deleted
 *    (23503): deleteRecord answers `referenced`, here it is a problem of the import naming what
 *    names it, and the import is refused;
 *  - dropChangesOf, for each deleted record; the tombstone over the stored version.
 * Only records the order system sent are deleted (a live version): a row a subscriber's pending
 * change added has none and stays, as it does through every other write of the order system.
 */

/** Share of an entity's stored records one file may delete under --full without being told more. */
export const DEFAULT_MAX_DELETE_PERCENT = 10;

/** The keys each file of a full import named, by entity (a temporary table of the transaction). */
const NAMED = 'portal_import_named_keys';

/** A problem of the deletions, in the import's terms (importRecords.ts ImportProblem). */
export interface DeletionProblem {
  file: string;
  line: number;
  pointer: string;
  message: string;
  key?: string;
}

/**
 * The table of named keys, empty, and the records each full entity had before the import (what
 * the guard's share is of).
 */
export async function prepareFullSync(
  tx: Queryable,
  tenantId: string,
  entities: readonly OrderSystemEntity[],
): Promise<Map<string, number>> {
  // One full sync of a tenant at a time: a second (a retried upload) waits for the first to end, and
  // then counts its guard's share against what the first left.
  await tx.query(`select pg_advisory_xact_lock(hashtextextended('portal-full-sync:' || $1, 0))`, [tenantId]);
  await tx.query(
    `create temp table if not exists ${NAMED} (entity text not null, record_key text not null) on commit drop`,
  );
  // Looked up per stored record (deleteUnnamedRecords): without an index the planner, which may
  // take the versions just written for a few, scans the whole table once for each.
  await tx.query(`create index if not exists ${NAMED}_key on ${NAMED} (entity, record_key)`);
  await tx.query(`truncate ${NAMED}`);
  const rows = await tx.query<{ entity: string; n: number }>(
    `select entity, count(*)::int as n from order_system_versions
      where tenant_id = $1 and entity = any($2::text[]) and not deleted group by entity`,
    [tenantId, entities.map((e) => e.name)],
  );
  return new Map(rows.map((row) => [row.entity, row.n]));
}

/** The keys of the staged batch (order_system_staging) are named by the import's file of `entity`. */
export async function nameStagedKeys(tx: Queryable, entity: OrderSystemEntity): Promise<void> {
  await tx.query(
    `insert into ${NAMED} (entity, record_key) select $1, record_key from order_system_staging`,
    [entity.name],
  );
}

/** What the records of an entity not named by the import are: live versions, and no line names them. */
const UNNAMED = `from order_system_versions v
  where v.tenant_id = $1 and v.entity = $2 and not v.deleted
    and not exists (select 1 from ${NAMED} n where n.entity = $2 and n.record_key = v.record_key)`;

export interface FullSyncFile {
  entity: OrderSystemEntity;
  /** The name problems are reported by (the last file of the entity). */
  file: string;
}

export interface FullSyncResult {
  deleted: Map<string, number>;
  problems: DeletionProblem[];
}

/**
 * Deletes the records of each file's entity that the import did not name, in reverse load order
 * (payments before subscriptions before business partners): first the guard, for every file, then
 * the deletions. Answers the count per entity, or the problems (then the caller rolls back).
 */
export async function deleteUnnamedRecords(
  tx: Queryable,
  tenantId: string,
  files: readonly FullSyncFile[],
  options: { storedBefore: Map<string, number>; maxDeletePercent: number; room: number },
): Promise<FullSyncResult> {
  await tx.query(`analyze ${NAMED}`);
  const order = (f: FullSyncFile) => ORDER_SYSTEM_ENTITIES.indexOf(f.entity);
  const reversed = [...files].sort((a, b) => order(b) - order(a));
  const problems: DeletionProblem[] = [];
  for (const { entity, file } of reversed) {
    const [{ n }] = await tx.query<{ n: number }>(`select count(*)::int as n ${UNNAMED}`, [
      tenantId,
      entity.name,
    ]);
    const stored = options.storedBefore.get(entity.name) ?? 0;
    // At 100 % whatever the file leaves out goes, also records written since the count before.
    if (n > 0 && options.maxDeletePercent < 100 && n * 100 > stored * options.maxDeletePercent) {
      const needed = Math.min(100, Math.ceil((n * 100) / Math.max(stored, 1)));
      problems.push({
        file,
        line: 0,
        pointer: '',
        message: `would delete ${n.toLocaleString('en-GB')} of the ${stored.toLocaleString('en-GB')} ${entity.name} stored (${Math.round((n * 100) / Math.max(stored, 1))}%) as a full sync, more than the ${options.maxDeletePercent}% it deletes unasked: check that the file is the whole export; if it is, allow it with --allow-deletes ${needed}% (through the API: allowDeletes=${needed})`,
      });
    }
  }
  const deleted = new Map<string, number>();
  if (problems.length > 0) return { deleted, problems };
  for (const { entity, file } of reversed) {
    const locked = await tx.query<{ record_key: string }>(
      `select v.record_key ${UNNAMED} order by v.record_key for update of v`,
      [tenantId, entity.name],
    );
    const keys = locked.map((row) => row.record_key);
    if (keys.length === 0) {
      deleted.set(entity.name, 0);
      continue;
    }
    const referenced = await deleteRows(tx, tenantId, entity, keys, options.room - problems.length);
    for (const { key, error } of referenced)
      problems.push({
        file,
        line: 0,
        pointer: '',
        key,
        message: await referencedProblem(tx, tenantId, entity, key, error),
      });
    const gone = new Set(referenced.map((r) => r.key));
    const done = gone.size > 0 ? keys.filter((key) => !gone.has(key)) : keys;
    // deleteRecord's dropChangesOf and tombstone, for every record deleted: the version rows are
    // held (above), so the deletion's version, the stored one + 1, is newer than any stored.
    await tx.query(
      `delete from order_system_overlays where tenant_id = $1 and entity = $2 and record_key = any($3::text[])`,
      [tenantId, entity.name, done],
    );
    await tx.query(
      `update order_system_versions set version = version + 1, content_hash = '', deleted = true, updated_at = now()
        where tenant_id = $1 and entity = $2 and record_key = any($3::text[]) and not deleted`,
      [tenantId, entity.name, done],
    );
    deleted.set(entity.name, done.length);
    if (problems.length >= options.room) break;
  }
  if (problems.length === 0) problems.push(...(await namedButGone(tx, tenantId, files, options.room)));
  return { deleted, problems };
}

/**
 * Records a file of the import names that a deletion took with it: a payment, delivered issue or
 * licence goes with its subscription, an issue, reason or offer with its publication, as with
 * `DELETE` (the database's cascades). An export that names one and leaves its parent out is not
 * whole: the import is refused rather than keeping a record and deleting it in one go.
 */
async function namedButGone(
  tx: Queryable,
  tenantId: string,
  files: readonly FullSyncFile[],
  room: number,
): Promise<DeletionProblem[]> {
  const problems: DeletionProblem[] = [];
  for (const { entity, file } of files) {
    // The key's parts as splitKey reads them: the last takes the rest (a licence's e-mail address).
    const last = entity.key.length;
    const parts = entity.key.map((column, i) =>
      i + 1 < last
        ? `t.${column} = split_part(n.record_key, $3, ${i + 1})`
        : `t.${column} = array_to_string((string_to_array(n.record_key, $3))[${last}:], $3)`,
    );
    const gone = await tx.query<{ record_key: string }>(
      `select n.record_key from ${NAMED} n
        where n.entity = $2
          and not exists (select 1 from ${entity.table} t where t.tenant_id = $1 and ${parts.join(' and ')})
          and exists (select 1 from order_system_versions v
                       where v.tenant_id = $1 and v.entity = $2 and v.record_key = n.record_key and not v.deleted)
          -- Not one a subscriber's pending change took off the screens (a licence deleted).
          and not exists (select 1 from order_system_overlays o
                           where o.tenant_id = $1 and o.entity = $2 and o.record_key = n.record_key)
        order by n.record_key limit $4`,
      [tenantId, entity.name, KEY_SEPARATOR, Math.max(room - problems.length, 1)],
    );
    for (const { record_key: key } of gone)
      problems.push({
        file,
        line: 0,
        pointer: '',
        key,
        message: `key ${JSON.stringify(key)} is in the file, but the record it belongs to (its subscription, publication or tier) is not in its own file and would be deleted, and this one with it: send both, or neither`,
      });
    if (problems.length >= room) break;
  }
  return problems;
}

/**
 * Deletes the rows of the keys as the order system. Rows other rows still name (23503) are found
 * by halving the set, like a batch's refused record (importRecords.ts mergeBatch), and left; the
 * rest is deleted. Answers the keys left with the database's error for each (up to `room`).
 */
async function deleteRows(
  tx: Queryable,
  tenantId: string,
  entity: OrderSystemEntity,
  keys: readonly string[],
  room: number,
): Promise<{ key: string; error: ForeignKeyError }[]> {
  const columns = entity.key.map((_, i) => keys.map((key) => splitKey(entity, key)[i]));
  await tx.query('savepoint portal_import_delete');
  try {
    await asOrderSystem(tx, () =>
      tx.query(
        `delete from ${entity.table} t
          using unnest(${entity.key.map((_, i) => `$${i + 2}::text[]`).join(', ')}) as k(${entity.key.join(', ')})
          where t.tenant_id = $1 and ${entity.key.map((c) => `t.${c} = k.${c}`).join(' and ')}`,
        [tenantId, ...columns],
      ),
    );
    await tx.query('release savepoint portal_import_delete');
    return [];
  } catch (error) {
    if ((error as { code?: string }).code !== '23503') throw error; // foreign_key_violation
    await tx.query('rollback to savepoint portal_import_delete');
    await tx.query('release savepoint portal_import_delete');
    if (keys.length === 1) return [{ key: keys[0], error: error as ForeignKeyError }];
    const half = Math.ceil(keys.length / 2);
    const first = await deleteRows(tx, tenantId, entity, keys.slice(0, half), room);
    if (first.length >= room) return first;
    return [...first, ...(await deleteRows(tx, tenantId, entity, keys.slice(half), room - first.length))];
  }
}

/** PostgreSQL's fields of a foreign key's refusal: the table of the rows that name the record, and the rule. */
interface ForeignKeyError {
  table?: string;
  constraint?: string;
}

/**
 * `key "0099000001" (not in the file) cannot be deleted: subscriptions "3019000001" still names it
 * (roles)`: what names the record, read by the foreign key the database refused the delete by.
 */
async function referencedProblem(
  tx: Queryable,
  tenantId: string,
  entity: OrderSystemEntity,
  key: string,
  error: ForeignKeyError,
): Promise<string> {
  const start = `key ${JSON.stringify(key)} (not in the file) cannot be deleted`;
  const end =
    'send the record again, or delete or change what names it first (under --full: leave it out of its own file, imported with this one)';
  const table = error.table ?? '';
  const owner = ORDER_SYSTEM_ENTITIES.find((e) => e.table === table);
  const parent = ORDER_SYSTEM_ENTITIES.find((e) => e.children?.table === table);
  const named = owner
    ? { label: owner.name, columns: owner.key, via: '' }
    : parent
      ? { label: parent.name, columns: parent.children!.parentColumns, via: ` (${parent.children!.field})` }
      : undefined;
  if (!named || !error.constraint)
    return `${start}: rows of the portal's table ${table || 'another table'} still name it; ${end}`;
  // The foreign key's columns in the naming table, and the columns of this entity's table they name.
  const pairs = await tx.query<{ column: string; referenced: string }>(
    `select a.attname as column, r.attname as referenced
       from pg_constraint c
       cross join lateral unnest(c.conkey, c.confkey) with ordinality as k(attnum, refnum, ord)
       join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum
       join pg_attribute r on r.attrelid = c.confrelid and r.attnum = k.refnum
      where c.conname = $1 and c.conrelid = $2::regclass
      order by k.ord`,
    [error.constraint, table],
  );
  const parts = splitKey(entity, key);
  const values = pairs.map((p) =>
    p.referenced === 'tenant_id' ? tenantId : parts[entity.key.indexOf(p.referenced)],
  );
  if (pairs.length === 0 || values.some((v) => v === undefined))
    return `${start}: ${named.label} still name it${named.via}; ${end}`;
  const rows = await tx.query<Record<string, string>>(
    `select distinct ${named.columns.join(', ')} from ${table}
      where ${pairs.map((p, i) => `${p.column} = $${i + 1}`).join(' and ')}
      order by ${named.columns.join(', ')} limit 4`,
    values,
  );
  const keys = rows
    .slice(0, 3)
    .map((row) => JSON.stringify(named.columns.map((c) => String(row[c])).join(KEY_SEPARATOR)));
  const more = rows.length > 3 ? ' and more' : '';
  return `${start}: ${named.label} ${keys.join(', ')}${more} still ${keys.length === 1 && !more ? 'names' : 'name'} it${named.via}; ${end}`;
}
