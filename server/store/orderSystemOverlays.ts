/**
 * The portal's changes on top of the order system's records (migration 023;
 * docs/going-live.md "Whose data is it"). A trigger on every order-system table catches each write that is
 * not the order system's own; this module links those changes to their account event, gives the order
 * system's writes their say, and settles a change when the order system answers it:
 *
 *  - rejected: the change is taken off and the order system's values are shown again at once;
 *  - confirmed: the change stays until the order system sends a newer version of the record;
 *  - pending: every upsert or import of the record puts the change back on top of the new record.
 */
import type { Queryable } from '../db/database';
import { type OrderSystemEntity, orderSystemEntity } from '../operator/entities/orderSystemEntities';
import { lockUntilCommit } from './transactionLocks';

/**
 * Runs the order system's own writes (a merge, a delete, a revert): the trigger leaves them alone,
 * since they are the truth the portal's changes sit on, not changes of the portal.
 */
export async function asOrderSystem<T>(tx: Queryable, write: () => Promise<T>): Promise<T> {
  await tx.query(`select set_config('portal.order_system_write', 'on', true)`);
  // No `finally`: after a failed statement the transaction only takes a rollback (which undoes the
  // setting with it, to a savepoint too), and a query here would hide the error.
  const result = await write();
  await tx.query(`select set_config('portal.order_system_write', 'off', true)`);
  return result;
}

/**
 * SQL that names the account event the transaction's changes belong to, with the tenant as $1 and
 * the event's id as $2: those made before it was recorded (the update, a data-modifying `with`
 * part), and (through `portal.change_event`) those made after it in the same transaction (the
 * select). One statement, so recording an event that links them costs one round trip
 * (store/accountEventStore.ts insertAccountEvent).
 */
export const LINK_CHANGES_WITH = `linked as (
    update order_system_overlays set event_id = $2::uuid
     where tenant_id = $1 and xact_id = pg_current_xact_id() and event_id is null)`;
export const LINK_CHANGES_SELECT = `select set_config('portal.change_event', $2::uuid::text, true)`;

/** Names the account event the transaction's changes belong to (LINK_CHANGES_WITH). */
export async function linkChangesToEvent(tx: Queryable, tenantId: string, eventId: string): Promise<void> {
  await tx.query(`with ${LINK_CHANGES_WITH} ${LINK_CHANGES_SELECT}`, [tenantId, eventId]);
}

/**
 * A timed change applied on its day (the due-changes job) belongs to the event that asked for it:
 * the writes that follow in this transaction are linked to it.
 */
export async function continueChangeOf(tx: Queryable, eventId: string | null): Promise<void> {
  await tx.query(`select set_config('portal.change_event', $1, true)`, [eventId ?? '']);
}

/**
 * Runs a write of the portal's whose paths of `entity` are its change whole, also where a value
 * stays as the row had it (migration 048): a rejection of an earlier change of those paths then
 * leaves this change's values, not the order system's under them.
 */
export async function claimingPaths<T>(
  tx: Queryable,
  entity: string,
  paths: readonly string[],
  write: () => Promise<T>,
): Promise<T> {
  await tx.query(`select set_config('portal.claimed_paths', $1, true)`, [`${entity}:${paths.join(',')}`]);
  // No `finally`, as in asOrderSystem: a failed statement leaves only a rollback.
  const result = await write();
  await tx.query(`select set_config('portal.claimed_paths', '', true)`);
  return result;
}

/** The event whose change wrote a path of a record last (a pending payment method, say). */
export async function eventOfChange(
  tx: Queryable,
  tenantId: string,
  entity: string,
  recordKey: string,
  path: string,
): Promise<string | null> {
  const [row] = await tx.query<{ event_id: string | null }>(
    `select event_id from order_system_overlays
      where tenant_id = $1 and entity = $2 and record_key = $3 and fields ? $4
      order by id desc limit 1`,
    [tenantId, entity, recordKey, path],
  );
  return row?.event_id ?? null;
}

/**
 * A change of the portal's on a record: the day it was made (UTC), the values it wrote by path, and
 * the order system's values of those paths (`base`: the trigger gives a path another change holds
 * already that change's base, migration 023).
 */
export interface RecordChangeMade {
  madeOn: string;
  fields: Record<string, unknown[]>;
  base: Record<string, unknown[]>;
}

/**
 * The portal's changes of a record still on top of it, oldest first: with them the record as it
 * was on a day can be told (an issued invoice's billed party, server/documents/issuedInvoices.ts).
 */
export async function recordChangesMade(
  db: Queryable,
  tenantId: string,
  entity: string,
  recordKey: string,
): Promise<RecordChangeMade[]> {
  return db.query<RecordChangeMade>(
    `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as "madeOn", fields, base
       from order_system_overlays
      where tenant_id = $1 and entity = $2 and record_key = $3 and kind = 'update'
      order by id`,
    [tenantId, entity, recordKey],
  );
}

function tableArgs(entity: OrderSystemEntity): [string, string[]] {
  return [entity.table, [...entity.key]];
}

/**
 * After mergeStaged wrote the staged records (order_system_staging, outcome 'apply'): a confirmed
 * change, or one no event speaks for, retires when the order system sent a newer version than the
 * one it was confirmed (or made) at — that record is the order system's last word; every other
 * change goes back on top of the new record.
 */
export async function reapplyChanges(
  tx: Queryable,
  tenantId: string,
  entity: OrderSystemEntity,
): Promise<void> {
  await tx.query(
    `delete from order_system_overlays o using order_system_staging s
      where o.tenant_id = $1 and o.entity = $2 and o.record_key = s.record_key and s.outcome = 'apply' and ${RETIRES}`,
    [tenantId, entity.name],
  );
  const [table, keyColumns] = tableArgs(entity);
  await tx.query(
    `select overlay_reapply($3::regclass, $1, $2, $4::text[], k.record_key)
       from (select distinct o.record_key from order_system_overlays o
               join order_system_staging s on s.record_key = o.record_key and s.outcome = 'apply'
              where o.tenant_id = $1 and o.entity = $2
              order by o.record_key) k`,
    [tenantId, entity.name, table, keyColumns],
  );
}

/** A change `o` the staged record `s` retires. */
const RETIRES = `(o.status = 'confirmed' or o.event_id is null)
  and s.version > coalesce(case when o.status = 'confirmed' then o.confirmed_version end, o.base_version, -9223372036854775808)`;

/** Staged records `s` that retire a change of the portal's. */
export const RETIRING_CHANGES = `exists (select 1 from order_system_overlays o
  where o.tenant_id = $1 and o.entity = $2 and o.record_key = s.record_key and ${RETIRES})`;

/** Records whose staged copy is `unchanged` but have changes of the portal on top (left as they are). */
export const HAS_CHANGES = `exists (select 1 from order_system_overlays o
  where o.tenant_id = $1 and o.entity = $2 and o.record_key = s.record_key)`;

/** The order system deleted the record: the changes on it go with it. */
export async function dropChangesOf(
  tx: Queryable,
  tenantId: string,
  entity: OrderSystemEntity,
  recordKey: string,
): Promise<void> {
  await tx.query(
    `delete from order_system_overlays where tenant_id = $1 and entity = $2 and record_key = $3`,
    [tenantId, entity.name, recordKey],
  );
}

interface OverlayRow {
  id: string;
  entity: string;
  record_key: string;
  kind: 'update' | 'insert' | 'delete';
  fields: Record<string, unknown[]>;
  base: Record<string, unknown>;
}

/**
 * The order system rejected the change of an event: each of its writes is taken off, newest first,
 * and the record shows the order system's values again — or, for a path a later change of the
 * subscriber also wrote, that change's value. A dated change not yet due is dropped. Answers how
 * many of its writes the subscriber now sees otherwise (the acknowledgement's `undone`).
 */
export async function revertChangesOf(tx: Queryable, tenantId: string, eventId: string): Promise<number> {
  // The records first, then what the change wrote on them: a delete of the order system's that
  // held a record meanwhile has dropped this change's overlays with it, and they are read after it.
  await lockRecords(
    tx,
    tenantId,
    await tx.query<Pick<OverlayRow, 'entity' | 'record_key'>>(
      `select distinct entity, record_key from order_system_overlays where tenant_id = $1 and event_id = $2`,
      [tenantId, eventId],
    ),
  );
  const overlays = await tx.query<OverlayRow>(
    `select id::text, entity, record_key, kind, fields, base from order_system_overlays
      where tenant_id = $1 and event_id = $2 order by id desc`,
    [tenantId, eventId],
  );
  let changedShown = 0;
  await asOrderSystem(tx, async () => {
    for (const overlay of overlays) {
      const entity = orderSystemEntity(overlay.entity);
      if (!entity) continue;
      const [table, keyColumns] = tableArgs(entity);
      await tx.query(`delete from order_system_overlays where tenant_id = $1 and id = $2`, [
        tenantId,
        overlay.id,
      ]);
      if (overlay.kind === 'update') {
        const restore: Record<string, unknown[]> = {};
        for (const path of Object.keys(overlay.fields)) {
          const [later] = await tx.query<{ value: unknown[] }>(
            `select fields -> $4 as value from order_system_overlays
              where tenant_id = $1 and entity = $2 and record_key = $3 and kind <> 'delete' and fields ? $4
              order by id desc limit 1`,
            [tenantId, overlay.entity, overlay.record_key, path],
          );
          restore[path] = later ? later.value : ((overlay.base[path] as unknown[] | undefined) ?? []);
        }
        // Shown differently afterwards only where the value put back is not the change's own: the
        // order system's record may have come to say the same since (a record sent anew with it).
        if (Object.keys(overlay.fields).some((path) => !sameJson(overlay.fields[path], restore[path])))
          changedShown += 1;
        await tx.query(`select overlay_apply($1::regclass, $2, $3::text[], $4, $5::jsonb)`, [
          table,
          tenantId,
          keyColumns,
          overlay.record_key,
          JSON.stringify(restore),
        ]);
        // A later change removed the row (a licence deactivated, then deleted): the row that
        // change's rejection puts back is the one it removed, which still shows this change. It
        // gets the restored values, so rejecting both, in either order, shows the order system's row.
        const plain: Record<string, unknown> = {};
        const byColumn: Record<string, Record<string, unknown[]>> = {};
        for (const [path, value] of Object.entries(restore)) {
          const dot = path.indexOf('.');
          if (dot < 0) plain[path] = value.length > 0 ? value[0] : null;
          else (byColumn[path.slice(0, dot)] ??= {})[path.slice(dot + 1)] = value;
        }
        for (const column of Object.keys(plain)) delete byColumn[column];
        // The paths go in as overlay_apply writes them onto the table's row (migration 040).
        await tx.query(
          `update order_system_overlays
              set base = base || $5::jsonb || (select coalesce(jsonb_object_agg(c.key, overlay_put_paths(base -> c.key, c.value)), '{}')
                                                 from jsonb_each($6::jsonb) c)
            where tenant_id = $1 and entity = $2 and record_key = $3 and kind = 'delete' and id > $4`,
          [
            tenantId,
            overlay.entity,
            overlay.record_key,
            overlay.id,
            JSON.stringify(plain),
            JSON.stringify(byColumn),
          ],
        );
      } else if (overlay.kind === 'insert') {
        // A row the portal made and the order system never had: it goes, with what was changed on it.
        await tx.query(
          `delete from order_system_overlays where tenant_id = $1 and entity = $2 and record_key = $3`,
          [tenantId, overlay.entity, overlay.record_key],
        );
        await tx.query('savepoint revert_insert');
        try {
          await tx.query(`select overlay_delete_row($1::regclass, $2, $3::text[], $4)`, [
            table,
            tenantId,
            keyColumns,
            overlay.record_key,
          ]);
          await tx.query('release savepoint revert_insert');
          changedShown += 1;
        } catch (error) {
          // Still named by rows of the portal's own (a licence holder's partner with an account): kept.
          if ((error as { code?: string }).code !== '23503') throw error;
          await tx.query('rollback to savepoint revert_insert');
        }
      } else {
        changedShown += 1;
        await tx.query(`select overlay_insert_row($1::regclass, $2::jsonb)`, [
          table,
          JSON.stringify(overlay.base),
        ]);
      }
    }
  });
  const dated = await tx.query(
    `delete from future_addresses where tenant_id = $1 and event_id = $2 and applied_at is null returning 1`,
    [tenantId, eventId],
  );
  return changedShown + dated.length;
}

/** Two values read from jsonb: the database writes an object's keys in one order. */
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

/**
 * Locks the records a rejection takes changes off, before it reads what other changes wrote: a
 * rejection of another change of the same record waits (each then finds the overlays the other
 * left, never one the other is deleting), and so does the order system's write of the record, whose
 * merge locks the record's version row first (orderSystemStore.ts mergeStaged): the version rows
 * are locked here first too, in the records' order, so the two wait for each other instead of
 * deadlocking on the record's row and its overlays. Each record is locked by its name first
 * (recordLockName), as the operator API's write does, which also holds a record with no version.
 */
async function lockRecords(
  tx: Queryable,
  tenantId: string,
  overlays: ReadonlyArray<Pick<OverlayRow, 'entity' | 'record_key'>>,
): Promise<void> {
  const records = [...new Map(overlays.map((o) => [`${o.entity}\u0000${o.record_key}`, o])).entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, o]) => o);
  if (records.length === 0) return;
  for (const record of records)
    await lockUntilCommit(tx, recordLockName(tenantId, record.entity, record.record_key));
  await tx.query(
    `select 1 from order_system_versions
      where tenant_id = $1 and (entity, record_key) in (select * from unnest($2::text[], $3::text[]))
      order by entity, record_key for update`,
    [tenantId, records.map((r) => r.entity), records.map((r) => r.record_key)],
  );
}

/**
 * The name a record is locked by while one write of it judges and writes (lockUntilCommit): taken
 * by a rejection and by the operator API's write of single records, in the records' order, before
 * their version rows; it holds a record that has no version row yet, which no row lock can.
 */
export const recordLockName = (tenantId: string, entity: string, key: string): string =>
  `order-system-record:${tenantId}:${entity}:${key}`;

/** The order system confirmed the change of an event: it stays until a newer version of the record. */
export async function confirmChangesOf(tx: Queryable, tenantId: string, eventId: string): Promise<void> {
  await tx.query(
    `update order_system_overlays o
        set status = 'confirmed',
            confirmed_version = (select v.version from order_system_versions v
                                  where v.tenant_id = o.tenant_id and v.entity = o.entity and v.record_key = o.record_key
                                    and not v.deleted)
      where o.tenant_id = $1 and o.event_id = $2`,
    [tenantId, eventId],
  );
}
