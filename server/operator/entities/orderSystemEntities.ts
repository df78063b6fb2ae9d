/**
 * The entities a publisher's order system owns and sends to the portal (docs/architecture.md "Data
 * and the server": In), one table each: what the operator API's upserts, `portal import` and the
 * demo seed write. A record is the table's row with its columns in camelCase (`bp_number` ->
 * `bpNumber`), plus `version`; its JSON Schema is `schemas/api/order-system-<schema>.schema.json`
 * (tests/server/operator/entitySchemas.test.ts keeps the two in step).
 *
 * The list is in load order: an entity's references point to entities before it, so a folder
 * imported in this order never refers forward.
 */
import type { Queryable } from '../../db/database';
import { MANAGERS_REPLACED_ON_RECORD, putBackPendingManagerReplacements } from '../../store/licenseStore';

/** A column of the entity's table: its record field is the column name in camelCase. */
export interface EntityColumn {
  column: string;
  /**
   * PostgreSQL type the record's value is read as: the column's own, so a value is compared with
   * the row as the row holds it (an amount of 12.345 is 12.35 there, and a full sync that sends it
   * again finds the row showing it, not a change).
   */
  type:
    | 'text'
    | 'date'
    | 'timestamptz'
    | 'integer'
    | 'smallint'
    | 'numeric(12,2)'
    | 'numeric(10,2)'
    | 'boolean'
    | 'jsonb'
    | 'text[]';
}

/** Rows of a child table that travel inside the record (a subscription's roles) and are replaced with it. */
export interface EntityChildren {
  /** Record field holding the array, e.g. `roles`. */
  field: string;
  table: string;
  /** Columns of the child table pointing at the parent, in the order of the parent's key. */
  parentColumns: readonly string[];
  columns: readonly EntityColumn[];
  /** Columns of a child that point to other entities, checked like the record's own references. */
  references?: readonly EntityReference[];
  /**
   * A boolean column marking the portal's own child rows (a role given through a licence): the
   * order system's list replaces its rows only, never these.
   */
  portalRowColumn?: string;
  /**
   * Puts the portal's pending changes of the children that are no rows of their own (a replacement
   * of licence managers the order system has not answered) back on top, after the order system's
   * rows replaced the children of the staged records (outcome 'apply').
   */
  putBackPendingChanges?: (tx: Queryable, tenantId: string) => Promise<void>;
  /**
   * SQL true for a staged record `s` ($1 the tenant, $2 the entity) whose children differ from it
   * by such a change that still stands: the same record again leaves its row as it is.
   */
  changedOnRecord?: string;
}

/** A record's columns that name a row of another entity (checked before anything is written). */
export interface EntityReference {
  columns: readonly string[];
  entity: EntityName;
}

export type EntityName =
  | 'publications'
  | 'issues'
  | 'business-partners'
  | 'subscriptions'
  | 'payments'
  | 'delivered-issues'
  | 'purchase-orders'
  | 'pending-orders'
  | 'cancellation-reasons'
  | 'offers'
  | 'licence-objects'
  | 'licences'
  | 'loyalty-tiers'
  | 'loyalty-rewards';

export interface OrderSystemEntity {
  /** The URL segment (`/operator/v1/<name>`) and the NDJSON file name (`<name>.ndjson`). */
  name: EntityName;
  /** Basename of the record's schema in schemas/api. */
  schema: string;
  table: string;
  /** Columns that identify a row within the tenant (the table's key without tenant_id). */
  key: readonly string[];
  columns: readonly EntityColumn[];
  /** Columns a record must carry besides its key (the table's `not null` columns without a default). */
  required: readonly string[];
  /**
   * Values of the table's `not null … default` columns that a record may leave out (the record is
   * the whole row: a field left out is the default, not the stored value).
   */
  defaults?: Readonly<Record<string, string | number | boolean | object>>;
  references?: readonly EntityReference[];
  children?: EntityChildren;
  /**
   * When a record is refused because another one holds a value the table keeps unique besides the
   * key (409 `duplicate_value`, server/http/errors.ts databaseInputError), for the OpenAPI document.
   */
  duplicates?: string;
}

/** 'a text, b date' -> columns; the seed writes its rows with the same notation (server/seed/insertRows.ts). */
function columns(spec: string): EntityColumn[] {
  // Commas inside a type's parentheses (numeric(12,2)) do not separate columns.
  return spec.split(/,(?![^(]*\))/).map((part) => {
    const [column, ...type] = part.trim().split(/\s+/);
    return { column, type: type.join(' ') as EntityColumn['type'] };
  });
}

const ROLE_COLUMNS = columns('bp_number text, role text');

export const ORDER_SYSTEM_ENTITIES: readonly OrderSystemEntity[] = [
  {
    name: 'publications',
    schema: 'order-system-publication',
    table: 'publications',
    key: ['publication'],
    columns: columns(
      'publication text, client_id text, description text, cover_image_url text, current_issue text',
    ),
    required: ['client_id', 'description'],
  },
  {
    name: 'issues',
    schema: 'order-system-issue',
    table: 'issues',
    key: ['publication', 'issue'],
    columns: columns(
      'publication text, issue text, issue_number text, description text, date_of_first_sale date, date_of_first_shipping date, translations jsonb',
    ),
    required: [],
    references: [{ columns: ['publication'], entity: 'publications' }],
  },
  {
    name: 'business-partners',
    schema: 'order-system-business-partner',
    table: 'business_partners',
    key: ['bp_number'],
    columns: columns(
      'bp_number text, salutation_code text, first_name text, last_name1 text, company1 text, street text, street_number text, zipcode text, city text, country_code text, email_address text, phone_number text, date_of_birth date, details jsonb',
    ),
    required: [],
    defaults: { details: {} },
  },
  {
    name: 'subscriptions',
    schema: 'order-system-subscription',
    table: 'subscriptions',
    key: ['id'],
    columns: columns(
      'id text, order_number text, publication text, order_status text, mix_type text, bundle_number text, cust_order_date date, valid_from date, valid_to date, details jsonb',
    ),
    required: ['order_number', 'publication', 'order_status', 'mix_type'],
    defaults: { details: {} },
    references: [{ columns: ['publication'], entity: 'publications' }],
    // subscriptions_tenant_client_order (migration 001): client_id is the first 3 characters of id.
    duplicates:
      'Another subscription has the same client (the first 3 characters of `id`) and `orderNumber`; details.fields name them.',
    children: {
      field: 'roles',
      table: 'subscription_roles',
      parentColumns: ['subscription_id'],
      columns: ROLE_COLUMNS,
      references: [{ columns: ['bp_number'], entity: 'business-partners' }],
      portalRowColumn: 'via_license',
      putBackPendingChanges: putBackPendingManagerReplacements,
      changedOnRecord: MANAGERS_REPLACED_ON_RECORD,
    },
  },
  {
    name: 'payments',
    schema: 'order-system-payment',
    table: 'payment_history',
    key: ['subscription_id', 'id'],
    columns: columns(
      'subscription_id text, id text, date date, amount numeric(12,2), currency text, invoice_status_code text, invoice_number text, external_document_number text, document_id text, paid_amount numeric(12,2), lines jsonb',
    ),
    required: ['date', 'amount', 'invoice_status_code'],
    defaults: { currency: 'EUR' },
    references: [{ columns: ['subscription_id'], entity: 'subscriptions' }],
  },
  {
    name: 'delivered-issues',
    schema: 'order-system-delivered-issue',
    table: 'delivered_issues',
    key: ['subscription_id', 'issue'],
    columns: columns(
      'subscription_id text, issue text, issue_number text, description text, date_of_first_sale date, download_status text, translations jsonb',
    ),
    required: [],
    defaults: { download_status: 'unknown' },
    references: [{ columns: ['subscription_id'], entity: 'subscriptions' }],
  },
  {
    name: 'purchase-orders',
    schema: 'order-system-purchase-order',
    table: 'purchase_orders',
    key: ['id'],
    columns: columns(
      'id text, purchase_order_number text, distribution_article_number text, distribution_article_description text, cover_image_url text, date_of_purchase_order_client date, quantity integer, invoice_status smallint, invoice_number text, download_status text, package_info jsonb, details jsonb',
    ),
    required: [
      'purchase_order_number',
      'distribution_article_number',
      'distribution_article_description',
      'date_of_purchase_order_client',
      'invoice_status',
    ],
    defaults: { quantity: 1, download_status: 'unknown', details: {} },
    children: {
      field: 'roles',
      table: 'purchase_order_roles',
      parentColumns: ['purchase_order_id'],
      columns: ROLE_COLUMNS,
      references: [{ columns: ['bp_number'], entity: 'business-partners' }],
    },
  },
  {
    name: 'pending-orders',
    schema: 'order-system-pending-order',
    table: 'pending_orders',
    key: ['id'],
    columns: columns(
      'id text, bp_number text, source text, title text, order_number text, article_number text, order_date date, cover_image_url text, issue_number_from text, download_url text, download_is_file boolean, translations jsonb',
    ),
    required: ['bp_number', 'source', 'title'],
    references: [{ columns: ['bp_number'], entity: 'business-partners' }],
  },
  {
    name: 'cancellation-reasons',
    schema: 'order-system-cancellation-reason',
    table: 'cancellation_reasons',
    key: ['publication', 'code'],
    columns: columns('publication text, code text, position integer, descriptions jsonb'),
    required: ['descriptions'],
    defaults: { position: 0 },
    references: [{ columns: ['publication'], entity: 'publications' }],
  },
  {
    name: 'offers',
    schema: 'order-system-offer',
    table: 'offers',
    key: ['id'],
    columns: columns(
      'id text, publication text, category text, position integer, reasons text[], price numeric(10,2), currency text, payment_provider text, offer jsonb, effect jsonb, voucher_pool text',
    ),
    required: ['publication', 'category', 'payment_provider', 'offer', 'effect'],
    defaults: { position: 0, price: 0, currency: 'EUR' },
    references: [{ columns: ['publication'], entity: 'publications' }],
  },
  {
    name: 'licence-objects',
    schema: 'order-system-licence-object',
    table: 'license_objects',
    key: ['subscription_id', 'order_number'],
    columns: columns(
      'subscription_id text, order_number text, max_active_licenses integer, self_service_enabled boolean',
    ),
    required: ['max_active_licenses'],
    defaults: { self_service_enabled: true },
    references: [{ columns: ['subscription_id'], entity: 'subscriptions' }],
  },
  {
    // One licence per person and object (licenses_one_per_email): the order system names a licence
    // by its object and the person's e-mail address; the portal's own id stays the portal's.
    name: 'licences',
    schema: 'order-system-licence',
    table: 'licenses',
    key: ['subscription_id', 'order_number', 'email'],
    columns: columns(
      'subscription_id text, order_number text, email text, is_active boolean, is_reactivatable boolean, is_confirmed boolean, business_partner jsonb, role text, academic_year text, created_at timestamptz',
    ),
    required: ['business_partner'],
    defaults: { is_active: true, is_reactivatable: true, is_confirmed: false },
    references: [{ columns: ['subscription_id', 'order_number'], entity: 'licence-objects' }],
  },
  {
    name: 'loyalty-tiers',
    schema: 'order-system-loyalty-tier',
    table: 'loyalty_tiers',
    key: ['tier_code'],
    columns: columns(
      'tier_code text, position integer, name jsonb, description jsonb, runtime_to_reach integer, reached_icon_url text, locked_icon_url text',
    ),
    required: ['position', 'name', 'description', 'runtime_to_reach'],
  },
  {
    name: 'loyalty-rewards',
    schema: 'order-system-loyalty-reward',
    table: 'loyalty_rewards',
    key: ['id'],
    columns: columns(
      'id text, tier_code text, position integer, name jsonb, description jsonb, icon_url text, main_image_url text, reward_type text, claimable boolean, target_url text, consent jsonb',
    ),
    required: ['tier_code', 'position', 'name', 'description', 'reward_type'],
    defaults: { claimable: true },
    references: [{ columns: ['tier_code'], entity: 'loyalty-tiers' }],
  },
];

const BY_NAME = new Map(ORDER_SYSTEM_ENTITIES.map((entity) => [entity.name, entity]));

export function orderSystemEntity(name: string): OrderSystemEntity | undefined {
  return BY_NAME.get(name as EntityName);
}

/** `bp_number` -> `bpNumber`, `last_name1` -> `lastName1`. */
export function fieldOf(column: string): string {
  return column.replace(/_([a-z0-9])/g, (_match, next: string) => next.toUpperCase());
}

/**
 * The text that names a record within its entity: its key's values joined by `~` (the path
 * segment of `/operator/v1/<entity>/<key>` and the key of its stored version).
 */
export function recordKey(entity: OrderSystemEntity, record: Record<string, unknown>): string {
  return entity.key.map((column) => String(record[fieldOf(column)])).join(KEY_SEPARATOR);
}

export const KEY_SEPARATOR = '~';

/**
 * A record key as its parts, the reverse of recordKey: split at the separator, the last part
 * taking the rest. Only the last field of a key may hold a `~` (a licence's e-mail address; the
 * schemas refuse it in every other key field, docs/going-live.md "Going live with your order system" 2), so
 * the split is unambiguous. Fewer parts than the key has fields is a key of another entity's shape.
 */
export function splitKey(entity: OrderSystemEntity, key: string): string[] {
  const parts = key.split(KEY_SEPARATOR);
  const fields = entity.key.length;
  return parts.length <= fields
    ? parts
    : [...parts.slice(0, fields - 1), parts.slice(fields - 1).join(KEY_SEPARATOR)];
}
