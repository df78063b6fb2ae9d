/**
 * SQL of the order system's writes (docs/going-live.md "Going live with your order system"): records of one
 * entity go into a staging table (COPY for the bulk import, one insert for an API call), are compared with
 * the stored versions, checked for references, and merged into the entity's table in a few set-based
 * statements; the subscribers' pending changes go back on top (orderSystemOverlays.ts). The API's
 * upsert and `portal import` run exactly this, so a record means the same either way.
 *
 * Every function takes the caller's transaction: an API call's, or the savepoint of an import's
 * batch, which a refused reference rolls back (the import writes all or nothing).
 */
import type { Queryable } from '../db/database';
import {
  type EntityColumn,
  type EntityReference,
  type OrderSystemEntity,
  fieldOf,
  orderSystemEntity,
  splitKey,
} from '../operator/entities/orderSystemEntities';
import {
  HAS_CHANGES,
  RETIRING_CHANGES,
  asOrderSystem,
  dropChangesOf,
  reapplyChanges,
} from './orderSystemOverlays';

/** A record ready to merge: validated (defaults filled in), its key, version and content hash. */
export interface StagedRecord {
  /** Line of its file (1-based); 1 for an API call. */
  line: number;
  key: string;
  version: number;
  hash: string;
  record: Record<string, unknown>;
}

export interface MergeCounts {
  created: number;
  updated: number;
  unchanged: number;
  refused: number;
}

/** A record that was not written because the stored version is newer (or equal with other content). */
export interface RefusedRecord {
  line: number;
  key: string;
  version: number;
  storedVersion: number;
}

/** A record naming a row that does not exist: the batch is rolled back. */
export interface UnknownReference {
  line: number;
  pointer: string;
  message: string;
}

export class UnknownReferencesError extends Error {
  constructor(readonly problems: UnknownReference[]) {
    super(`${problems.length} records name rows that do not exist`);
  }
}

/** COPY's text format: backslash, tab, newline and carriage return are escaped. */
function copyField(value: string): string {
  return value.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!);
}

export function copyLine(staged: StagedRecord): string {
  return `${staged.line}\t${copyField(staged.key)}\t${staged.version}\t${staged.hash}\t${copyField(JSON.stringify(staged.record))}\n`;
}

/** The staging table of the transaction, empty. */
async function prepareStaging(tx: Queryable): Promise<void> {
  await tx.query(
    `create temp table if not exists order_system_staging (
       line integer not null, record_key text not null, version bigint not null,
       content_hash text not null, record jsonb not null, outcome text, stored_version bigint
     ) on commit drop`,
  );
  await tx.query('truncate order_system_staging');
}

/**
 * Stages the records of an API call (one, or a few): plain inserts. The bulk import stages its
 * batches with COPY (stageCopyLines).
 */
export async function stageRecords(tx: Queryable, records: readonly StagedRecord[]): Promise<void> {
  await prepareStaging(tx);
  for (const staged of records)
    await tx.query(
      `insert into order_system_staging (line, record_key, version, content_hash, record) values ($1, $2, $3, $4, $5)`,
      [staged.line, staged.key, staged.version, staged.hash, JSON.stringify(staged.record)],
    );
}

/** Loads lines made by copyLine (a spool of the import) into the staging table with COPY. */
export async function stageCopyLines(tx: Queryable, lines: readonly string[]): Promise<void> {
  if (!tx.copyFrom) throw new Error('the bulk import needs a connection that can COPY');
  await prepareStaging(tx);
  async function* chunks() {
    let chunk = '';
    for (const line of lines) {
      chunk += line;
      if (chunk.length >= 65_536) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  }
  await tx.copyFrom(
    'copy order_system_staging (line, record_key, version, content_hash, record) from stdin',
    chunks(),
  );
  // A temporary table has no statistics until analysed: the planner then misjudges it and joins it
  // by nested loops, quadratic in the batch (a 20,000-line batch ran for minutes).
  await tx.query('analyze order_system_staging');
}

/** SQL reading a record field of `r` (jsonb) as the column's type. */
function valueOf(r: string, column: EntityColumn): string {
  const field = `'${fieldOf(column.column)}'`;
  switch (column.type) {
    case 'jsonb':
      return `case when jsonb_typeof(${r}->${field}) = 'null' then null else ${r}->${field} end`;
    case 'text[]':
      return `case when jsonb_typeof(${r}->${field}) = 'array' then array(select jsonb_array_elements_text(${r}->${field})) end`;
    case 'timestamptz':
      // created_at is the only timestamp an order system sends; the table's default is now().
      return `coalesce((${r}->>${field})::timestamptz, now())`;
    case 'text':
      return `${r}->>${field}`;
    default:
      return `(${r}->>${field})::${column.type}`;
  }
}

/**
 * Columns of type char(10) (portal-core.md §9: business partner, order and purchase order numbers).
 * A text compared with one makes PostgreSQL compare as text, which no index on the column serves:
 * every reference check became a scan of the table (a 20,000-line import took minutes, not seconds).
 */
const CHAR_COLUMNS = new Set(['bp_number', 'order_number', 'purchase_order_number']);

/** `t.a = s.record->>'a' and …`: a row of `t` named by a staged record's fields. */
function matches(target: string, columns: readonly string[], fields: readonly string[], r: string): string {
  return columns
    .map((column, i) => {
      const value = `${r}->>'${fieldOf(fields[i])}'`;
      return `${target}.${column} = ${CHAR_COLUMNS.has(column) ? `(${value})::bpchar` : value}`;
    })
    .join(' and ');
}

/** Records (and child rows) naming rows of other entities that are not there. */
async function unknownReferences(tx: Queryable, tenantId: string, entity: OrderSystemEntity) {
  const problems: UnknownReference[] = [];
  const check = async (
    reference: EntityReference,
    from: string,
    r: string,
    pointer: (row: Record<string, unknown>) => string,
  ) => {
    const target = orderSystemEntity(reference.entity)!;
    const targetColumns = target.key.slice(0, reference.columns.length);
    const rows = await tx.query<Record<string, unknown>>(
      `select s.line, ${reference.columns.map((c) => `${r}->>'${fieldOf(c)}' as "${fieldOf(c)}"`).join(', ')}${from.includes('ordinality') ? ', e.position' : ''}
         from ${from}
        where s.outcome = 'apply'
          and not exists (select 1 from ${target.table} t where t.tenant_id = $1 and ${matches('t', targetColumns, reference.columns, r)})
        order by s.line limit 100`,
      [tenantId],
    );
    for (const row of rows) {
      const named = reference.columns.map((c) => `"${row[fieldOf(c)]}"`).join(' / ');
      problems.push({
        line: Number(row.line),
        pointer: pointer(row),
        message: `names ${reference.entity} ${named}, which does not exist (import or write it first)`,
      });
    }
  };
  for (const reference of entity.references ?? [])
    await check(reference, 'order_system_staging s', 's.record', () => `/${fieldOf(reference.columns[0])}`);
  const children = entity.children;
  for (const reference of children?.references ?? [])
    await check(
      reference,
      `order_system_staging s cross join jsonb_array_elements(s.record->'${children!.field}') with ordinality as e(child, position)`,
      'e.child',
      (row) => `/${children!.field}/${Number(row.position) - 1}/${fieldOf(reference.columns[0])}`,
    );
  return problems.sort((a, b) => a.line - b.line);
}

/**
 * Merges the staged records of one entity into its table: newer versions are written (created or
 * updated), equal content is unchanged, older versions are refused. Throws UnknownReferencesError
 * (the caller rolls back) when a record names a row that does not exist.
 */
export async function mergeStaged(
  tx: Queryable,
  tenantId: string,
  entity: OrderSystemEntity,
): Promise<MergeCounts & { refusedRecords: RefusedRecord[] }> {
  return asOrderSystem(tx, () => mergeAsOrderSystem(tx, tenantId, entity));
}

/**
 * The row of a staged record shows exactly the record (its columns and its children): a record
 * re-sent at the same version is compared with what the portal shows, not only with the version
 * it stored, so a full sync repairs a row that drifted from the order system's data.
 */
function showsRecord(entity: OrderSystemEntity): string {
  const compared = entity.columns.map((c) => {
    const value = valueOf('s.record', c);
    // A timestamp the record leaves out is the time the row was first written, not now().
    return c.type === 'timestamptz'
      ? `(s.record->>'${fieldOf(c.column)}' is null or t.${c.column} is not distinct from ${value})`
      : `t.${c.column} is not distinct from ${value}`;
  });
  const children = entity.children;
  if (children) {
    const own = children.portalRowColumn ? ` and not c.${children.portalRowColumn}` : '';
    const stored = `select ${children.columns.map((c) => `c.${c.column}::text`).join(', ')} from ${children.table} c
                     where c.tenant_id = $1 and ${matches('c', children.parentColumns, entity.key, 's.record')}${own}`;
    const sent = `select ${children.columns.map((c) => `e->>'${fieldOf(c.column)}'`).join(', ')}
                    from jsonb_array_elements(s.record->'${children.field}') e`;
    compared.push(`not exists (${stored} except ${sent})`, `not exists (${sent} except ${stored})`);
  }
  return `exists (select 1 from ${entity.table} t where t.tenant_id = $1 and ${matches('t', entity.key, entity.key, 's.record')}
                   and ${compared.join(' and ')})`;
}

async function mergeAsOrderSystem(
  tx: Queryable,
  tenantId: string,
  entity: OrderSystemEntity,
): Promise<MergeCounts & { refusedRecords: RefusedRecord[] }> {
  // The same key twice in one batch: the newest version wins, the others count as unchanged.
  const superseded = await tx.query(
    `delete from order_system_staging where ctid in (
       select ctid from (select ctid, row_number() over (partition by record_key order by version desc, line desc) as newest
                           from order_system_staging) ranked
        where newest > 1)
     returning line`,
  );
  await tx.query(
    `update order_system_staging s
        set outcome = case
          when v.version is null or v.deleted and s.version > v.version then 'apply'
          when s.version < v.version or (s.version = v.version and s.content_hash <> v.content_hash) then 'refused'
          when s.content_hash = v.content_hash then 'unchanged'
          else 'apply' end,
            stored_version = v.version
       from (select s2.record_key, v2.version, v2.deleted, v2.content_hash
               from order_system_staging s2
               left join order_system_versions v2
                 on v2.tenant_id = $1 and v2.entity = $2 and v2.record_key = s2.record_key) v
      where v.record_key = s.record_key`,
    [tenantId, entity.name],
  );
  // A newer version with the same content is still the order system's newer word: the changes it
  // retires (reapplyChanges) come off the row, so it is written.
  await tx.query(
    `update order_system_staging s set outcome = 'apply'
      where s.outcome = 'unchanged' and s.version > s.stored_version and ${RETIRING_CHANGES}`,
    [tenantId, entity.name],
  );
  // An unchanged record whose row no longer shows it (and carries no pending change of the
  // portal's, which reapplyChanges keeps on top) is written again.
  await tx.query(
    `update order_system_staging s set outcome = 'apply'
      where s.outcome = 'unchanged' and not ${HAS_CHANGES} and not ${showsRecord(entity)}`,
    [tenantId, entity.name],
  );
  const problems = await unknownReferences(tx, tenantId, entity);
  if (problems.length > 0) throw new UnknownReferencesError(problems);

  const names = entity.columns.map((c) => c.column);
  const updates = names.filter((n) => !entity.key.includes(n)).map((n) => `${n} = excluded.${n}`);
  const written = await tx.query<{ inserted: boolean }>(
    `insert into ${entity.table} (tenant_id, ${names.join(', ')})
     select $1, ${entity.columns.map((c) => valueOf('s.record', c)).join(', ')}
       from order_system_staging s where s.outcome = 'apply'
     on conflict (tenant_id, ${entity.key.join(', ')}) do update set ${updates.join(', ')}
     returning (xmax = 0) as inserted`,
    [tenantId],
  );
  const children = entity.children;
  if (children) {
    const parent = (table: string) => matches(table, children.parentColumns, entity.key, 's.record');
    await tx.query(
      `delete from ${children.table} c using order_system_staging s
        where s.outcome = 'apply' and c.tenant_id = $1 and ${parent('c')}${children.portalRowColumn ? ` and not c.${children.portalRowColumn}` : ''}`,
      [tenantId],
    );
    await tx.query(
      `insert into ${children.table} (tenant_id, ${[...children.parentColumns, ...children.columns.map((c) => c.column)].join(', ')})
       select $1, ${[
         ...entity.key.slice(0, children.parentColumns.length).map((k) => `s.record->>'${fieldOf(k)}'`),
         ...children.columns.map((c) => valueOf('e', c)),
       ].join(', ')}
         from order_system_staging s cross join jsonb_array_elements(s.record->'${children.field}') as e
        where s.outcome = 'apply'
       on conflict do nothing`,
      [tenantId],
    );
  }
  await reapplyChanges(tx, tenantId, entity);
  await tx.query(
    `insert into order_system_versions (tenant_id, entity, record_key, version, content_hash, deleted, updated_at)
     select $1, $2, record_key, version, content_hash, false, now()
       from order_system_staging
      -- An unchanged record at its stored version leaves everything as it was, its version row too.
      where outcome = 'apply' or (outcome = 'unchanged' and version > stored_version)
     on conflict (tenant_id, entity, record_key) do update
       set version = greatest(order_system_versions.version, excluded.version),
           content_hash = excluded.content_hash, deleted = false, updated_at = now()`,
    [tenantId, entity.name],
  );
  const refusedRecords = await tx.query<RefusedRecord>(
    `select s.line, s.record_key as key, s.version::float8 as version, v.version::float8 as "storedVersion"
       from order_system_staging s
       join order_system_versions v on v.tenant_id = $1 and v.entity = $2 and v.record_key = s.record_key
      where s.outcome = 'refused' order by s.line`,
    [tenantId, entity.name],
  );
  const [{ unchanged }] = await tx.query<{ unchanged: number }>(
    `select count(*)::int as unchanged from order_system_staging where outcome = 'unchanged'`,
  );
  const created = written.filter((row) => row.inserted).length;
  return {
    created,
    updated: written.length - created,
    unchanged: unchanged + superseded.length,
    refused: refusedRecords.length,
    refusedRecords,
  };
}

export type DeleteOutcome =
  | { outcome: 'deleted' | 'absent' }
  | { outcome: 'refused'; storedVersion: number }
  | { outcome: 'referenced' };

/**
 * Deletes one record at a version: refused when the stored version is not older; the deletion is kept
 * as a version (a tombstone) so an older upsert arriving later is refused too. A row other rows
 * still point to (a business partner with subscriptions) is not deleted: `referenced`.
 */
export async function deleteRecord(
  tx: Queryable,
  tenantId: string,
  entity: OrderSystemEntity,
  key: string,
  version: number,
): Promise<DeleteOutcome> {
  const [stored] = await tx.query<{ version: number; deleted: boolean }>(
    `select version::float8 as version, deleted from order_system_versions
      where tenant_id = $1 and entity = $2 and record_key = $3 for update`,
    [tenantId, entity.name, key],
  );
  // A delete is a change of the record, so it carries a newer version than the record's; the same
  // delete again (equal version) is answered as done.
  const stale = stored && (stored.deleted ? version < stored.version : version <= stored.version);
  if (stale) return { outcome: 'refused', storedVersion: stored.version };
  const parts = splitKey(entity, key);
  // The routes check a key's parts first (readKey); a bind message short of a parameter would be
  // PostgreSQL's protocol_violation, which is no answer for a client.
  if (parts.length !== entity.key.length) throw new Error(`${entity.name}: the key ${key} has too few parts`);
  let deleted: unknown[];
  try {
    await tx.query('savepoint delete_record');
    deleted = await asOrderSystem(tx, () =>
      tx.query(
        `delete from ${entity.table} where tenant_id = $1 and ${entity.key.map((c, i) => `${c} = $${i + 2}`).join(' and ')} returning 1`,
        [tenantId, ...parts],
      ),
    );
    await tx.query('release savepoint delete_record');
    await dropChangesOf(tx, tenantId, entity, key);
  } catch (error) {
    if ((error as { code?: string }).code !== '23503') throw error; // foreign_key_violation
    await tx.query('rollback to savepoint delete_record');
    return { outcome: 'referenced' };
  }
  await tx.query(
    `insert into order_system_versions (tenant_id, entity, record_key, version, content_hash, deleted, updated_at)
     values ($1, $2, $3, $4, '', true, now())
     on conflict (tenant_id, entity, record_key) do update
       set version = excluded.version, content_hash = '', deleted = true, updated_at = now()`,
    [tenantId, entity.name, key, version],
  );
  return { outcome: deleted.length > 0 ? 'deleted' : 'absent' };
}

/** A stored record as the order system wrote it (fields in camelCase) with its version; undefined when absent. */
export async function readStoredRecord(
  db: Queryable,
  tenantId: string,
  entity: OrderSystemEntity,
  key: string,
): Promise<Record<string, unknown> | undefined> {
  const parts = splitKey(entity, key);
  if (parts.length !== entity.key.length) return undefined;
  const children = entity.children;
  const childList = children
    ? `, (select coalesce(jsonb_agg(jsonb_build_object(${children.columns
        .map((c) => `'${fieldOf(c.column)}', c.${c.column}`)
        .join(', ')}) order by ${children.columns.map((c) => `c.${c.column}`).join(', ')}), '[]'::jsonb)
          from ${children.table} c where c.tenant_id = t.tenant_id and ${children.parentColumns
            .map((column, i) => `c.${column} = t.${entity.key[i]}`)
            .join(' and ')}) as "${children.field}"`
    : '';
  const [row] = await db.query<Record<string, unknown>>(
    `select v.version::float8 as version, ${entity.columns
      .map((c) => `t.${c.column} as "${fieldOf(c.column)}"`)
      .join(', ')}${childList}
       from ${entity.table} t
       left join order_system_versions v on v.tenant_id = t.tenant_id and v.entity = $2 and v.record_key = $3
      where t.tenant_id = $1 and ${entity.key.map((c, i) => `t.${c} = $${i + 4}`).join(' and ')}`,
    [tenantId, entity.name, key, ...parts],
  );
  if (!row) return undefined;
  return Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null));
}

/**
 * Fresh planner statistics for an entity's tables after a large load: the next file's reference
 * checks join against them, and a table whose statistics still say "a few rows" is scanned once per
 * checked record (a 240,000-line payments file spent 30 s in its check instead of under 1).
 */
export async function analyzeEntityTables(db: Queryable, entity: OrderSystemEntity): Promise<void> {
  await db.query(`analyze ${entity.table}`);
  if (entity.children) await db.query(`analyze ${entity.children.table}`);
}
