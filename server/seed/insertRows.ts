import type { Queryable } from '../db/database';

export type Column = readonly [name: string, sqlType: string];

/** Inserts many rows of a tenant with one statement: the rows travel as one jsonb parameter. */
export async function insertRows(
  tx: Queryable,
  tenantId: string,
  table: string,
  columns: readonly Column[],
  rows: readonly object[],
  onConflict = '',
): Promise<void> {
  if (rows.length === 0) return;
  const names = columns.map(([name]) => name).join(', ');
  const record = columns.map(([name, type]) => `${name} ${type}`).join(', ');
  await tx.query(
    `insert into ${table} (tenant_id, ${names})
     select $1, ${names} from jsonb_to_recordset($2::jsonb) as x(${record}) ${onConflict}`,
    [tenantId, JSON.stringify(rows)],
  );
}
