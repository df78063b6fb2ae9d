/**
 * The shape of a slice's personal-data manifest (docs/subscribers.md "Download my data": "The personal-data
 * catalogue"). Each server slice that keeps personal data in a table says so in its own
 * `personalData.ts`, next to the code that writes the rows, and says for each table how the three
 * duties of GDPR reach it: access (Art. 15, 20: the export), erasure (Art. 17: account deletion)
 * and storage limitation (Art. 5(1)(e): housekeeping). server/privacy/catalogue.ts collects the
 * manifests; tests/server/privacy/personalDataCatalogue.int.test.ts holds them against the
 * database's own catalogue and against what the export, the deletion and the housekeeping do.
 */

/** A function whose SQL does the work (its source is checked to name the table). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any store function, whatever its parameters
export type SqlFunction = (...args: any[]) => unknown;

/** How the export ("Download my data") carries the table: the ZIP file, or why no file does. */
export type ExportHandling = { file: string } | { notExported: string };

/**
 * What account deletion (server/store/accountDeletionStore.ts deleteAccountData) does to the account's
 * rows: deletes them, empties or replaces the named columns, or keeps them for a stated reason (a
 * legal duty to keep, or data that is another party's record).
 */
export type EraseHandling =
  | { action: 'delete' }
  | { action: 'anonymise'; columns: readonly string[] }
  | { action: 'keep'; reason: string };

/** Which clean-up removes the rows when their use is over (and by what rule), or why none does. */
export type ExpireHandling = { by: SqlFunction; rule: string } | { notExpired: string };

export interface PersonalDataTable {
  table: string;
  /** The columns that are personal data (every one must exist in the database). */
  columns: readonly string[];
  /**
   * The account's rows: an SQL condition on `t` (a row of the table) and `u` (the users row of the
   * account), e.g. `t.user_id = u.id`. null when no account reaches the rows (an anonymous visitor's
   * sign-up, a mail in the queue); then the export cannot carry them and deletion cannot find them.
   */
  subject: string | null;
  export: ExportHandling;
  erase: EraseHandling;
  expire: ExpireHandling;
}

/** Columns (or a whole table) whose names look like personal data but are not, and why. */
export interface NotPersonalData {
  table: string;
  /** Omitted: the whole table (the publisher's catalogue, a technical record). */
  columns?: readonly string[];
  reason: string;
}

export interface PersonalDataManifest {
  /** The folder under server/ that owns the tables. */
  slice: string;
  tables: readonly PersonalDataTable[];
  notPersonal?: readonly NotPersonalData[];
}

/** `subject` of a table keyed by business partner: the partners the account speaks for. */
export const OWN_PARTNER = `t.bp_number in (select ubp.bp_number from user_business_partners ubp
  where ubp.tenant_id = t.tenant_id and ubp.user_id = u.id)`;

/**
 * Erasure of an order-system record (docs/going-live.md "Whose data is it"): the record is the
 * publisher's, kept in its order system for the contract the subscriber still has; deleting the
 * portal account removes the account's link to its partners (user_business_partners), so nobody
 * reaches the record through the portal any more. Erasing the customer record itself is the
 * publisher's decision, taken in the order system, which then deletes it here (operator API).
 */
export const ORDER_SYSTEM_KEEPS =
  "the order system's record of a contract that outlives the portal account; deletion removes the account's link to it";
/** The order system decides how long its records live and deletes them here (operator API, import). */
export const ORDER_SYSTEM_EXPIRES =
  'the order system deletes its records here (operator API delete, full import) when its own retention ends';
