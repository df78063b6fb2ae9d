/**
 * Holds the personal-data catalogue (server/privacy/catalogue.ts) against the database's own
 * catalogue: every table or column whose name looks like personal data must be declared by a
 * manifest with its three handlings (export, erase, expire), or declared not to be personal data
 * with a reason. A new table that no slice declares is named, so it cannot be forgotten silently
 * by the export, the account deletion or the housekeeping (docs/subscribers.md "Download my data").
 */
import type { Queryable } from '../db/database';
import type { PersonalDataManifest, PersonalDataTable } from './personalDataTypes';

/**
 * Name parts that mark a column as personal data: contact and address data, names, birth dates,
 * bank details, accounts, free text a person wrote, network addresses.
 */
const PERSONAL_PARTS = new Set([
  'email',
  'mail',
  'name',
  'salutation',
  'company',
  'street',
  'zip',
  'zipcode',
  'postal',
  'postcode',
  'city',
  'address',
  'phone',
  'mobile',
  'fax',
  'iban',
  'bic',
  'account',
  'birth',
  'text',
  'message',
  'feedback',
  'comment',
  'body',
  'note',
  'notes',
  'ip',
  'agent',
  'contact',
]);
/** Whole column names that are personal data although no part says so. */
const PERSONAL_COLUMNS = new Set(['client', 'client_ip', 'remote_address', 'sso_id']);
/**
 * jsonb columns of these names have no fixed shape and carry whatever the writer put in (an event's
 * data, a mail, the values of a change): they count as personal data until declared otherwise.
 */
const FREE_SHAPE_JSONB = new Set(['data', 'details', 'payload', 'fields', 'base', 'mail', 'response']);
/** A column that names an account or a business partner makes its table personal data. */
const LINK_COLUMN = /^(user_id|.+_user_id|claimed_by|bp_number|.*business_partner.*)$/;

export interface CatalogueColumn {
  table: string;
  column: string;
  type: string;
}

export function looksPersonal({ column, type }: Pick<CatalogueColumn, 'column' | 'type'>): boolean {
  if (PERSONAL_COLUMNS.has(column)) return true;
  if (type === 'jsonb' && FREE_SHAPE_JSONB.has(column)) return true;
  return column.split('_').some((part) => PERSONAL_PARTS.has(part.replace(/\d+$/, '')));
}

export const linksAPerson = (column: string): boolean => LINK_COLUMN.test(column);

/** The columns of the application's tables (schema public), as PostgreSQL lists them. */
export async function catalogueColumns(db: Queryable): Promise<CatalogueColumn[]> {
  return db.query<CatalogueColumn>(
    `select c.table_name as "table", c.column_name as "column", c.data_type as "type"
       from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
      order by c.table_name, c.ordinal_position`,
  );
}

export interface CatalogueFinding {
  table: string;
  column?: string;
  problem: string;
}

const handled = (declared: PersonalDataTable): string[] => {
  const missing: string[] = [];
  if (!('file' in declared.export ? declared.export.file : declared.export.notExported))
    missing.push('export');
  const erase = declared.erase;
  if (erase.action === 'keep' ? !erase.reason : erase.action === 'anonymise' && erase.columns.length === 0)
    missing.push('erase');
  if (!('by' in declared.expire ? declared.expire.rule : declared.expire.notExpired)) missing.push('expire');
  // What the export and the deletion act on must be findable by the account.
  if (!declared.subject && ('file' in declared.export || erase.action !== 'keep'))
    missing.push('subject (the export and the deletion find rows by it)');
  return missing;
};

/**
 * Everything the catalogue misses or gets wrong, compared with the database: undeclared tables and
 * columns that look personal, declarations without all three handlings, declarations of tables or
 * columns that do not exist, tables declared twice. Empty when the catalogue is complete.
 */
export function auditCatalogue(
  columns: readonly CatalogueColumn[],
  manifests: readonly PersonalDataManifest[],
): CatalogueFinding[] {
  const findings: CatalogueFinding[] = [];
  const declared = new Map<string, PersonalDataTable>();
  const notPersonal = new Map<string, Set<string> | 'table'>();
  for (const manifest of manifests) {
    for (const table of manifest.tables) {
      if (declared.has(table.table))
        findings.push({ table: table.table, problem: `declared twice (again by server/${manifest.slice})` });
      declared.set(table.table, table);
      const missing = handled(table);
      if (missing.length)
        findings.push({ table: table.table, problem: `declaration lacks: ${missing.join(', ')}` });
    }
    for (const entry of manifest.notPersonal ?? []) {
      if (!entry.reason)
        findings.push({ table: entry.table, problem: 'declared not personal without a reason' });
      if (!entry.columns) notPersonal.set(entry.table, 'table');
      else {
        const known = notPersonal.get(entry.table);
        if (known !== 'table') notPersonal.set(entry.table, new Set([...(known ?? []), ...entry.columns]));
      }
    }
  }

  const byTable = new Map<string, CatalogueColumn[]>();
  for (const column of columns) byTable.set(column.table, [...(byTable.get(column.table) ?? []), column]);

  for (const [table, tableColumns] of byTable) {
    const declaration = declared.get(table);
    const exempt = notPersonal.get(table);
    if (exempt === 'table') {
      if (declaration) findings.push({ table, problem: 'declared both personal and not personal' });
      continue;
    }
    const names = new Set(tableColumns.map((c) => c.column));
    const link = tableColumns.find((c) => linksAPerson(c.column));
    if (!declaration && link)
      findings.push({
        table,
        column: link.column,
        problem: `names an account or business partner (${link.column}) and no manifest declares the table`,
      });
    for (const column of tableColumns) {
      if (!looksPersonal(column) || linksAPerson(column.column)) continue;
      if (declaration?.columns.includes(column.column) || exempt?.has(column.column)) continue;
      findings.push({
        table,
        column: column.column,
        problem: declaration
          ? 'looks like personal data and is neither among the declared columns nor declared not personal'
          : 'looks like personal data and no manifest declares the table',
      });
    }
    if (declaration) {
      const erased = declaration.erase.action === 'anonymise' ? declaration.erase.columns : [];
      for (const column of [...declaration.columns, ...erased])
        if (!names.has(column)) findings.push({ table, column, problem: 'declared but not in the database' });
    }
    if (exempt !== undefined)
      for (const column of exempt)
        if (!names.has(column))
          findings.push({ table, column, problem: 'declared not personal but not in the database' });
  }
  for (const table of [...declared.keys(), ...notPersonal.keys()])
    if (!byTable.has(table)) findings.push({ table, problem: 'declared but not in the database' });
  return findings;
}

/** A finding as one line of a test's failure message. */
export const describeFinding = (finding: CatalogueFinding): string =>
  `${finding.table}${finding.column ? `.${finding.column}` : ''}: ${finding.problem}`;
