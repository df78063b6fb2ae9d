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
  recordLockName,
} from './orderSystemOverlays';
import { lockUntilCommit } from './transactionLocks';

/** A record ready to merge: validated (defaults filled in), its key, version and content hash. */
export interface StagedRecord {
  /** Line of its file (1-based); 1 for an API call. */
  line: number;
  key: string;
  version: number;
  hash: string;
  /**
   * The hash of the record with its children (roles) in the order sent, where that is not the order
   * `hash` takes them in: a record stored before roles were read as a set kept this one, and the
   * same record sent again is still that record (orderSystemRecords.ts asSet).
   */
  sentHash?: string;
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
  return `${staged.line}\t${copyField(staged.key)}\t${staged.version}\t${staged.hash}\t${staged.sentHash ?? '\\N'}\t${copyField(JSON.stringify(staged.record))}\n`;
}

/** The staging table of the transaction, empty. */
async function prepareStaging(tx: Queryable): Promise<void> {
  await tx.query(
    `create temp table if not exists order_system_staging (
       line integer not null, record_key text not null, version bigint not null,
       content_hash text not null, sent_hash text, record jsonb not null,
       -- A record with no stored version is written (mergeAsOrderSystem judges only the others).
       outcome text not null default 'apply', stored_version bigint
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
      `insert into order_system_staging (line, record_key, version, content_hash, sent_hash, record) values ($1, $2, $3, $4, $5, $6)`,
      [
        staged.line,
        staged.key,
        staged.version,
        staged.hash,
        staged.sentHash ?? null,
        JSON.stringify(staged.record),
      ],
    );
}

/** Loads lines made by copyLine into the staging table with COPY. */
export async function stageCopyLines(tx: Queryable, lines: readonly string[]): Promise<void> {
  function* chunks() {
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
  await stageCopyChunks(tx, chunks());
}

/**
 * Loads text of lines made by copyLine, in pieces of any length (a batch of the import's spool as
 * it is read), into the staging table with COPY.
 */
export async function stageCopyChunks(
  tx: Queryable,
  chunks: AsyncIterable<string> | Iterable<string>,
): Promise<void> {
  if (!tx.copyFrom) throw new Error('the bulk import needs a connection that can COPY');
  await prepareStaging(tx);
  await tx.copyFrom(
    'copy order_system_staging (line, record_key, version, content_hash, sent_hash, record) from stdin',
    chunks,
  );
  // A temporary table has no statistics until analysed: the planner then misjudges it and joins it
  // by nested loops, quadratic in the batch (a 20,000-line batch ran for minutes). Its size and the
  // keys are what the merge's joins need; statistics of the records (jsonb) took most of the time
  // of an analyse of the whole table, and no plan uses them.
  await tx.query('analyze order_system_staging (record_key)');
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

/**
 * Records (and child rows) naming rows of other entities that are not there. Each record looks up
 * the row it names (a subquery with `limit 1`, which the planner keeps per record): as an anti-join
 * it could hash every row of the named table for each batch, a cost growing with the table.
 */
async function unknownReferences(
  tx: Queryable,
  tenantId: string,
  entity: OrderSystemEntity,
  trustForeignKeys: boolean,
) {
  const problems: UnknownReference[] = [];
  const check = async (
    table: string,
    reference: EntityReference,
    from: string,
    r: string,
    pointer: (row: Record<string, unknown>) => string,
  ) => {
    const target = orderSystemEntity(reference.entity)!;
    const targetColumns = target.key.slice(0, reference.columns.length);
    if (
      trustForeignKeys &&
      (await enforcedByForeignKey(tx, table, reference.columns, target.table, targetColumns))
    )
      return;
    const rows = await tx.query<Record<string, unknown>>(
      `select s.line, ${reference.columns.map((c) => `${r}->>'${fieldOf(c)}' as "${fieldOf(c)}"`).join(', ')}${from.includes('ordinality') ? ', e.position' : ''}
         from ${from}
        where s.outcome = 'apply'
          and (select 1 from ${target.table} t where t.tenant_id = $1 and ${matches('t', targetColumns, reference.columns, r)} limit 1) is null
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
    await check(
      entity.table,
      reference,
      'order_system_staging s',
      's.record',
      () => `/${fieldOf(reference.columns[0])}`,
    );
  const children = entity.children;
  for (const reference of children?.references ?? [])
    await check(
      children!.table,
      reference,
      `order_system_staging s cross join jsonb_array_elements(s.record->'${children!.field}') with ordinality as e(child, position)`,
      'e.child',
      (row) => `/${children!.field}/${Number(row.position) - 1}/${fieldOf(reference.columns[0])}`,
    );
  return problems.sort((a, b) => a.line - b.line);
}

/** Whether a foreign key enforces a reference, keyed by table, columns and target. */
const foreignKeys = new Map<string, boolean>();

/**
 * Whether the database itself refuses a row of `table` whose `columns` name no row of `target`: a
 * foreign key from (tenant_id, columns) to (tenant_id, targetColumns), checked at once (not
 * deferrable), on columns that cannot be null (a null passes a foreign key, and the check would
 * list it).
 */
async function enforcedByForeignKey(
  tx: Queryable,
  table: string,
  columns: readonly string[],
  target: string,
  targetColumns: readonly string[],
): Promise<boolean> {
  const key = `${table}(${columns.join()})>${target}(${targetColumns.join()})`;
  let enforced = foreignKeys.get(key);
  if (enforced === undefined) {
    const names = (relation: string, numbers: string) =>
      `array(select a.attname::text from unnest(${numbers}) with ordinality as k(n, i)
               join pg_attribute a on a.attrelid = ${relation} and a.attnum = k.n order by k.i)`;
    const [row] = await tx.query<{ enforced: boolean }>(
      `select exists (select 1 from pg_constraint c
                       where c.contype = 'f' and not c.condeferrable
                         and c.conrelid = $1::regclass and c.confrelid = $3::regclass
                         and ${names('c.conrelid', 'c.conkey')} = $2::text[]
                         and ${names('c.confrelid', 'c.confkey')} = $4::text[])
          and (select bool_and(a.attnotnull) from pg_attribute a
                where a.attrelid = $1::regclass and a.attname = any($2::text[])) as enforced`,
      [table, ['tenant_id', ...columns], target, ['tenant_id', ...targetColumns]],
    );
    enforced = row.enforced === true;
    foreignKeys.set(key, enforced);
  }
  return enforced;
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
  options: MergeOptions = {},
): Promise<MergeCounts & { refusedRecords: RefusedRecord[] }> {
  return asOrderSystem(tx, () => mergeAsOrderSystem(tx, tenantId, entity, options));
}

export interface MergeOptions {
  /**
   * The caller has made sure no key is staged twice (the import refuses a key seen before in it),
   * so the search for superseded copies is left out.
   */
  distinctKeys?: boolean;
  /**
   * Statements that assume what nearly every batch of an import is, and fail when it is not; the
   * caller has a savepoint before the batch and merges it again without this when one does (any
   * SQLSTATE of class 23):
   *  - references a foreign key enforces are left to it (23503 for a row that does not exist,
   *    instead of the list of such records);
   *  - a batch with no stored version for any of its keys is inserted without looking for the rows
   *    first (`on conflict` took half the time of those inserts): 23505 when one is there after all
   *    (a row the portal made, or a write of the API meanwhile).
   */
  optimistic?: boolean;
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

/**
 * Stored versions in a batch's key range that are joined with it as a set (mergeAsOrderSystem). Few:
 * the versions' statistics may not know the import's own rows yet, and the planner, taking them
 * for one, may scan the batch once for each.
 */
const SPARSE_VERSIONS = 100;

async function mergeAsOrderSystem(
  tx: Queryable,
  tenantId: string,
  entity: OrderSystemEntity,
  options: MergeOptions,
): Promise<MergeCounts & { refusedRecords: RefusedRecord[] }> {
  // The same key twice in one batch: the newest version wins, the others count as unchanged.
  const superseded = options.distinctKeys
    ? 0
    : (
        await tx.query(
          `delete from order_system_staging where ctid in (
             select ctid from (select ctid, row_number() over (partition by record_key order by version desc, line desc) as newest
                                 from order_system_staging) ranked
              where newest > 1)
           returning line`,
        )
      ).length;
  // The operator API's writes (a record or a few, distinctKeys unset) hold their records before
  // they are judged, by name and by version row in the keys' order, as a rejection does
  // (orderSystemOverlays.ts lockRecords): a write of the same record committed meanwhile is then
  // judged against, not only raced at the version's write below (where a newer record with the same
  // content would win its version without rewriting a row the other write changed). The import's
  // batches, thousands of records, rely on that conditional write alone.
  if (!options.distinctKeys) {
    const keys = (
      await tx.query<{ record_key: string }>(
        `select record_key from order_system_staging group by record_key order by record_key collate "C"`,
      )
    ).map((row) => row.record_key);
    for (const key of keys) await lockUntilCommit(tx, recordLockName(tenantId, entity.name, key));
    await tx.query(
      `select 1 from order_system_versions
        where tenant_id = $1 and entity = $2 and record_key = any($3::text[]) order by record_key for update`,
      [tenantId, entity.name, keys],
    );
  }
  // Only records with a stored version are judged: the others stay 'apply' (the staging table's
  // default). The stored versions between the batch's first and last key are counted first, up to
  // SPARSE_VERSIONS: a first import of keys in order finds none or a few (where a record's rows
  // span two batches), and those few are joined with the batch at once. More (a re-import, or keys
  // out of order) are looked up record by record; joined as a set, the planner hashed every stored
  // version of the entity for each batch, a cost growing with the import.
  const [batch] = await tx.query<{
    staged: number;
    first: string | null;
    last: string | null;
    stored: number;
  }>(
    `select b.staged, b.first, b.last,
            (select count(*) from (select 1 from order_system_versions v
                                    where v.tenant_id = $1 and v.entity = $2 and v.record_key between b.first and b.last
                                    limit ${SPARSE_VERSIONS}) k)::int as stored
       from (select count(*)::int as staged, min(record_key) as first, max(record_key) as last
               from order_system_staging) b`,
    [tenantId, entity.name],
  );
  const versions =
    batch.stored < SPARSE_VERSIONS
      ? // `offset 0` keeps the few versions a set of their own, hashed and joined with the batch.
        `(select v.record_key, v.version, v.deleted, v.content_hash from order_system_versions v
           where v.tenant_id = $1 and v.entity = $2 and v.record_key between $3 and $4 offset 0) v
          where v.record_key = s.record_key`
      : // A lateral lookup with `limit 1` is never turned into a join.
        `order_system_staging k
          cross join lateral (select v.version, v.deleted, v.content_hash from order_system_versions v
                               where v.tenant_id = $1 and v.entity = $2 and v.record_key = k.record_key limit 1) v
          where s.ctid = k.ctid`;
  const [judged] =
    batch.stored === 0
      ? [{ staged: batch.staged, matched: 0, unchanged: 0, refused: 0 }]
      : await tx.query<{ staged: number; matched: number; unchanged: number; refused: number }>(
          `with judged as (
             update order_system_staging s
                set outcome = case
                  when v.deleted and s.version > v.version then 'apply'
                  when s.version < v.version or (s.version = v.version and s.content_hash <> v.content_hash
                       and s.sent_hash is distinct from v.content_hash) then 'refused'
                  when s.content_hash = v.content_hash or s.sent_hash = v.content_hash then 'unchanged'
                  else 'apply' end,
                    stored_version = v.version,
                    -- Stored under the hash of its roles in the order sent (before they were a set):
                    -- the same record keeps that hash, so it stays the stored record from here on.
                    content_hash = case when s.version = v.version and s.sent_hash = v.content_hash
                                        then s.sent_hash else s.content_hash end
               from ${versions}
             returning s.outcome)
           select (select count(*) from order_system_staging)::int as staged, count(*)::int as matched,
                  count(*) filter (where outcome = 'unchanged')::int as unchanged,
                  count(*) filter (where outcome = 'refused')::int as refused
             from judged`,
          batch.stored < SPARSE_VERSIONS
            ? [tenantId, entity.name, batch.first, batch.last]
            : [tenantId, entity.name],
        );
  let unchanged = judged.unchanged;
  let refused = judged.refused;
  // A record its rows show as it is, at the stored version, is that record whatever its hash says:
  // one stored by an earlier release under the hash of its roles in the order sent (before they were
  // a set) and sent again in another order — by a full sync built from the GET — is no conflict.
  if (refused > 0 && entity.children) {
    const same = await countOf(
      tx,
      `update order_system_staging s set outcome = 'unchanged'
        where s.outcome = 'refused' and s.version = s.stored_version and not ${HAS_CHANGES}
          and ${showsRecord(entity)}
       returning 1`,
      [tenantId, entity.name],
    );
    unchanged += same;
    refused -= same;
  }
  if (unchanged > 0) {
    // A newer version with the same content is still the order system's newer word: the changes it
    // retires (reapplyChanges) come off the row, so it is written.
    unchanged -= await countOf(
      tx,
      `update order_system_staging s set outcome = 'apply'
        where s.outcome = 'unchanged' and s.version > s.stored_version and ${RETIRING_CHANGES}
       returning 1`,
      [tenantId, entity.name],
    );
    // An unchanged record whose row no longer shows it (and carries no pending change of the
    // portal's, which reapplyChanges keeps on top) is written again; so are its children, unless
    // a change of the portal's still stands on them (a replacement of licence managers) and the
    // same version came again.
    const changedOn = entity.children?.changedOnRecord;
    const keptChildren = changedOn ? ` and not (s.version = s.stored_version and ${changedOn})` : '';
    unchanged -= await countOf(
      tx,
      `update order_system_staging s set outcome = 'apply'
        where s.outcome = 'unchanged' and not ${HAS_CHANGES}${keptChildren} and not ${showsRecord(entity)}
       returning 1`,
      [tenantId, entity.name],
    );
  }
  let applied = judged.staged - unchanged - refused;
  // No stored version for any key of the batch: every record is new, as far as the versions know.
  const fresh = options.optimistic === true && judged.matched === 0;
  // The versions are written first, and a version only over an older one: a write of the same
  // record committed since the judging (another request, an import) holds its version row, this
  // statement waits for it and then sees its version, so an older or other record at the same
  // version is refused instead of overwriting it. The rows this statement locks stay locked to the
  // end of the transaction, so the record's rows below are written by the write its version is;
  // they are taken in the keys' order, so two batches that share keys wait instead of deadlocking.
  // A record unchanged at its stored version leaves everything as it was, its version row too.
  if (applied > 0 || unchanged > 0) {
    const candidates = `from order_system_staging
        where outcome = 'apply' or (outcome = 'unchanged' and version > stored_version)`;
    if (fresh)
      // Nothing stored to wait for: a row written meanwhile is 23505, and the caller merges again.
      await tx.query(
        `insert into order_system_versions (tenant_id, entity, record_key, version, content_hash, deleted, updated_at)
         select $1, $2, record_key, version, content_hash, false, now() ${candidates}`,
        [tenantId, entity.name],
      );
    else {
      const [lost] = await tx.query<{ applied: number; unchanged: number }>(
        `with won as (
           insert into order_system_versions (tenant_id, entity, record_key, version, content_hash, deleted, updated_at)
           select $1, $2, record_key, version, content_hash, false, now() ${candidates}
            order by record_key
           on conflict (tenant_id, entity, record_key) do update
              set version = excluded.version, content_hash = excluded.content_hash, deleted = false, updated_at = now()
            where excluded.version > order_system_versions.version
               or (excluded.version = order_system_versions.version
                   and excluded.content_hash = order_system_versions.content_hash)
           returning record_key),
         lost as (
           select s.ctid as row, s.outcome as was from order_system_staging s
            where (s.outcome = 'apply' or (s.outcome = 'unchanged' and s.version > s.stored_version))
              and not exists (select 1 from won where won.record_key = s.record_key)),
         refused as (
           update order_system_staging s set outcome = 'refused' from lost where s.ctid = lost.row returning lost.was)
         select count(*) filter (where was = 'apply')::int as applied,
                count(*) filter (where was = 'unchanged')::int as unchanged
           from refused`,
        [tenantId, entity.name],
      );
      if (lost.applied + lost.unchanged > 0) {
        applied -= lost.applied;
        unchanged -= lost.unchanged;
        // The version that won, read after it committed (this statement sees it).
        await tx.query(
          `update order_system_staging s set stored_version = v.version
             from order_system_versions v
            where s.outcome = 'refused' and v.tenant_id = $1 and v.entity = $2 and v.record_key = s.record_key`,
          [tenantId, entity.name],
        );
      }
    }
  }
  let created = 0;
  let updated = 0;
  if (applied > 0) {
    const problems = await unknownReferences(tx, tenantId, entity, options.optimistic === true);
    if (problems.length > 0) throw new UnknownReferencesError(problems);

    const names = entity.columns.map((c) => c.column);
    const updates = names.filter((n) => !entity.key.includes(n)).map((n) => `${n} = excluded.${n}`);
    // Counted in the database: a row per written record sent back would cost the import its time.
    const [written] = await tx.query<{ created: number; written: number }>(
      `with written as (
         insert into ${entity.table} (tenant_id, ${names.join(', ')})
         select $1, ${entity.columns.map((c) => valueOf('s.record', c)).join(', ')}
           from order_system_staging s where s.outcome = 'apply'
         ${fresh ? '' : `on conflict (tenant_id, ${entity.key.join(', ')}) do update set ${updates.join(', ')}`}
         returning (xmax = 0) as inserted)
       select count(*) filter (where inserted)::int as created, count(*)::int as written from written`,
      [tenantId],
    );
    created = written.created;
    updated = written.written - written.created;
    // A row the order system had and a subscriber's pending change removed is written anew, but the
    // record is not new to the order system: it is updated (and the removal goes back on top of it,
    // reapplyChanges). A record deleted by the order system has no changes left (dropChangesOf).
    if (created > 0 && !fresh) {
      const moved = await countOf(
        tx,
        `select 1 from order_system_staging s
          where s.outcome = 'apply' and s.stored_version is not null
            and exists (select 1 from order_system_overlays o
                         where o.tenant_id = $1 and o.entity = $2 and o.record_key = s.record_key and o.kind = 'delete')`,
        [tenantId, entity.name],
      );
      created -= moved;
      updated += moved;
    }
    const children = entity.children;
    if (children) {
      const parent = (table: string) => matches(table, children.parentColumns, entity.key, 's.record');
      // Rows just inserted (fresh) have no children yet, when a foreign key makes children need
      // their row: then there is nothing to delete, and nothing to clash with but a child the
      // record lists twice (23505: the batch is merged again, and the second copy left out).
      const parentKey = entity.key.slice(0, children.parentColumns.length);
      const newParents =
        fresh &&
        (await enforcedByForeignKey(tx, children.table, children.parentColumns, entity.table, parentKey));
      if (!newParents)
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
         ${newParents ? '' : 'on conflict do nothing'}`,
        [tenantId],
      );
      await children.putBackPendingChanges?.(tx, tenantId);
    }
    await reapplyChanges(tx, tenantId, entity);
  }
  const refusedRecords =
    judged.staged - applied - unchanged > 0
      ? await tx.query<RefusedRecord>(
          `select s.line, s.record_key as key, s.version::float8 as version, s.stored_version::float8 as "storedVersion"
             from order_system_staging s where s.outcome = 'refused' order by s.line`,
        )
      : [];
  return {
    created,
    updated,
    unchanged: unchanged + superseded,
    refused: refusedRecords.length,
    refusedRecords,
  };
}

/** The rows a statement ending in `returning 1` touched. */
async function countOf(tx: Queryable, sql: string, params: unknown[]): Promise<number> {
  const [row] = await tx.query<{ n: number }>(
    `with touched as (${sql}) select count(*)::int as n from touched`,
    params,
  );
  return row.n;
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
  // Held by name too, as the API's upserts and the rejections hold it (recordLockName).
  await lockUntilCommit(tx, recordLockName(tenantId, entity.name, key));
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
  await tx.query('savepoint delete_record');
  try {
    deleted = await asOrderSystem(tx, () =>
      tx.query(
        `delete from ${entity.table} where tenant_id = $1 and ${entity.key.map((c, i) => `${c} = $${i + 2}`).join(' and ')} returning 1`,
        [tenantId, ...parts],
      ),
    );
  } catch (error) {
    if ((error as { code?: string }).code !== '23503') throw error; // foreign_key_violation
    await tx.query('rollback to savepoint delete_record');
    return { outcome: 'referenced' };
  }
  await dropChangesOf(tx, tenantId, entity, key);
  // The tombstone only over an older version: a first write of the key that an import committed
  // meanwhile (no version row to lock above, and the import takes no name lock) is newer, and
  // then the delete is refused and changes nothing.
  const [tombstone] = await tx.query<{ version: number }>(
    `insert into order_system_versions (tenant_id, entity, record_key, version, content_hash, deleted, updated_at)
     values ($1, $2, $3, $4, '', true, now())
     on conflict (tenant_id, entity, record_key) do update
       set version = excluded.version, content_hash = '', deleted = true, updated_at = now()
       where excluded.version > order_system_versions.version
          or (order_system_versions.deleted and excluded.version >= order_system_versions.version)
     returning version::float8 as version`,
    [tenantId, entity.name, key, version],
  );
  if (!tombstone) {
    await tx.query('rollback to savepoint delete_record');
    const [newer] = await tx.query<{ version: number }>(
      `select version::float8 as version from order_system_versions where tenant_id = $1 and entity = $2 and record_key = $3`,
      [tenantId, entity.name, key],
    );
    return { outcome: 'refused', storedVersion: newer.version };
  }
  await tx.query('release savepoint delete_record');
  // A record the order system had is deleted, whether or not its row still showed (a subscriber's
  // pending removal took it off the screens; dropChangesOf ended that change with it).
  return { outcome: deleted.length > 0 || (stored && !stored.deleted) ? 'deleted' : 'absent' };
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
  // The order system's children only: a role a licence gave is the portal's row, and the record
  // sent back as the GET answers it is the same record (showsRecord leaves those rows out too).
  const ownRows = children?.portalRowColumn ? ` and not c.${children.portalRowColumn}` : '';
  const childList = children
    ? `, (select coalesce(jsonb_agg(jsonb_build_object(${children.columns
        .map((c) => `'${fieldOf(c.column)}', c.${c.column}`)
        .join(', ')}) order by ${children.columns.map((c) => `c.${c.column}`).join(', ')}), '[]'::jsonb)
          from ${children.table} c where c.tenant_id = t.tenant_id and ${children.parentColumns
            .map((column, i) => `c.${column} = t.${entity.key[i]}`)
            .join(' and ')}${ownRows}) as "${children.field}"`
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
