/**
 * The demo seed's order-system data as the NDJSON a publisher's order system sends (the demo
 * seed goes through the import): one file per entity, a record per line, written from the
 * rows the seed modules build and imported with `portal import`'s own code (importRecords.ts), so
 * the path a publisher's data takes is the path every start and every test takes. The portal's own
 * data (sign-ins, account changes, e-cards, widgets) is written by the seed modules themselves.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  ORDER_SYSTEM_ENTITIES,
  type EntityName,
  type OrderSystemEntity,
  fieldOf,
} from '../operator/entities/orderSystemEntities';
import { keepLocales } from '../operator/entities/orderSystemRecords';
import type { DemoDataSet } from './context';

type Row = Record<string, unknown>;

/** Which rows of the data set each entity's records are made of. */
const ROWS: Record<EntityName, (data: DemoDataSet & Record<string, unknown>) => readonly Row[] | undefined> =
  {
    publications: (d) => d.publications as unknown as Row[],
    issues: (d) => d.issues as unknown as Row[],
    'business-partners': (d) => d.businessPartners as unknown as Row[],
    subscriptions: (d) => d.subscriptions as unknown as Row[],
    payments: (d) => d.paymentHistory as unknown as Row[],
    'delivered-issues': (d) => d.deliveredIssues as unknown as Row[],
    'purchase-orders': (d) => d.purchaseOrders as unknown as Row[],
    'pending-orders': (d) => d.pendingOrders as unknown as Row[],
    'cancellation-reasons': (d) => d.cancellationReasons as Row[] | undefined,
    offers: (d) => d.offers as Row[] | undefined,
    'licence-objects': (d) => d.licenseObjects as Row[] | undefined,
    licences: (d) => d.licenses as Row[] | undefined,
    'loyalty-tiers': (d) => d.loyaltyTiers as Row[] | undefined,
    'loyalty-rewards': (d) => d.loyaltyRewards as Row[] | undefined,
  };

/** The roles rows of each parent, for entities whose records carry their roles. */
function childRows(data: DemoDataSet, entity: OrderSystemEntity): Map<string, Row[]> {
  const byParent = new Map<string, Row[]>();
  if (!entity.children) return byParent;
  const rows: readonly Row[] =
    entity.name === 'subscriptions'
      ? (data.subscriptionRoles as unknown as Row[])
      : (data.purchaseOrderRoles as unknown as Row[]);
  const parentColumn = entity.children.parentColumns[0];
  for (const row of rows) {
    const parent = String(row[parentColumn]);
    byParent.set(parent, [...(byParent.get(parent) ?? []), row]);
  }
  return byParent;
}

/** A seed row (columns by name) as the entity's record, at version 1. */
function recordOf(entity: OrderSystemEntity, row: Row, children: Map<string, Row[]>): Row {
  const record: Row = { version: 1 };
  for (const { column } of entity.columns) {
    const value = row[column];
    if (value !== undefined && value !== null) record[fieldOf(column)] = value;
  }
  if (entity.children) {
    const own = children.get(String(row[entity.key[0]])) ?? [];
    record[entity.children.field] = own.map((child) =>
      Object.fromEntries(entity.children!.columns.map(({ column }) => [fieldOf(column), child[column]])),
    );
  }
  return record;
}

/**
 * Writes `<entity>.ndjson` for every entity the data set has rows of, its texts by locale in the
 * tenant's `locales` (the import refuses any other); answers the files written.
 */
export async function writeOrderSystemFixtures(
  data: DemoDataSet,
  folder: string,
  locales: readonly string[],
): Promise<string[]> {
  await mkdir(folder, { recursive: true });
  const written: string[] = [];
  for (const entity of ORDER_SYSTEM_ENTITIES) {
    const rows = ROWS[entity.name](data as DemoDataSet & Record<string, unknown>) ?? [];
    if (rows.length === 0) continue;
    const children = childRows(data, entity);
    const file = path.join(folder, `${entity.name}.ndjson`);
    await writeFile(
      file,
      rows
        .map((row) => JSON.stringify(keepLocales(entity, recordOf(entity, row, children), locales)))
        .join('\n') + '\n',
    );
    written.push(file);
  }
  return written;
}
