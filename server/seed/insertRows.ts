import type { Queryable } from '../db/database';
import type { DemoDataSet } from './context';

/** One table a seed module writes: its columns as a jsonb_to_recordset record ('name type, …') and its rows. */
export interface SeedTable {
  table: string;
  columns: string;
  rows(data: DemoDataSet): readonly object[];
  /** e.g. 'on conflict (…) do nothing'. */
  onConflict?: string;
}

/** Inserts many rows of a tenant with one statement: the rows travel as one jsonb parameter. */
async function insertRows(
  tx: Queryable,
  tenantId: string,
  { table, columns, onConflict = '' }: SeedTable,
  rows: readonly object[],
): Promise<void> {
  if (rows.length === 0) return;
  const record = columns
    .split(',')
    .map((column) => column.trim().split(/\s+/))
    .map(([name, type]) => ({ name, type }));
  const names = record.map((c) => c.name).join(', ');
  await tx.query(
    `insert into ${table} (tenant_id, ${names})
     select $1, ${names} from jsonb_to_recordset($2::jsonb) as x(${record.map((c) => `${c.name} ${c.type}`).join(', ')}) ${onConflict}`,
    [tenantId, JSON.stringify(rows)],
  );
}

/** A seed module's `insert`: writes its tables in the given order. */
export function insertTables(...tables: SeedTable[]): (tx: Queryable, data: DemoDataSet) => Promise<void> {
  return async (tx, data) => {
    for (const table of tables) await insertRows(tx, data.tenantId, table, table.rows(data));
  };
}
