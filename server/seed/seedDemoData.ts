/**
 * Writes the demo data of demoData.ts into the database, one transaction per tenant.
 *
 * Idempotent: a tenant recorded in demo_seeds is skipped (its logins are still returned, they are a
 * pure function of the tenant). Recording comes first in the transaction, so when two server
 * instances seed at once the second waits on the first's demo_seeds row and then skips.
 */
import type { Database, Queryable } from '../db/database';
import { type DemoDataSet, type DemoLogin, type DemoTenant, buildDemoData } from './demoData';


export interface SeedOptions {
  /** Reference day of the generated dates (UTC day); defaults to the moment of the call. */
  today?: Date;
}

type Column = readonly [name: string, sqlType: string];

/** Inserts many rows with one statement: the rows travel as one jsonb parameter. */
async function insertRows(
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

async function writeDataSet(tx: Queryable, data: DemoDataSet): Promise<void> {
  const t = data.tenantId;
  await insertRows(
    tx,
    t,
    'users',
    [
      ['id', 'text'],
      ['email', 'text'],
      ['display_name', 'text'],
      ['first_name', 'text'],
      ['last_name', 'text'],
    ],
    data.users,
    // An account that signed up before the demo data was seeded keeps its id; links go by e-mail.
    'on conflict (tenant_id, email) do nothing',
  );
  await insertRows(
    tx,
    t,
    'business_partners',
    [
      ['bp_number', 'text'],
      ['salutation_code', 'text'],
      ['first_name', 'text'],
      ['last_name1', 'text'],
      ['company1', 'text'],
      ['street', 'text'],
      ['street_number', 'text'],
      ['zipcode', 'text'],
      ['city', 'text'],
      ['country_code', 'text'],
      ['email_address', 'text'],
      ['phone_number', 'text'],
      ['date_of_birth', 'date'],
      ['details', 'jsonb'],
    ],
    data.businessPartners,
  );
  await tx.query(
    `insert into user_business_partners (tenant_id, user_id, bp_number)
     select $1, u.id, x.bp_number
       from jsonb_to_recordset($2::jsonb) as x(email text, bp_number text)
       join users u on u.tenant_id = $1 and u.email = x.email
     on conflict do nothing`,
    [t, JSON.stringify(data.userBusinessPartners)],
  );
  await insertRows(
    tx,
    t,
    'publications',
    [
      ['publication', 'text'],
      ['client_id', 'text'],
      ['description', 'text'],
      ['cover_image_url', 'text'],
      ['current_issue', 'text'],
    ],
    data.publications,
  );
  await insertRows(
    tx,
    t,
    'issues',
    [
      ['publication', 'text'],
      ['issue', 'text'],
      ['issue_number', 'text'],
      ['description', 'text'],
      ['date_of_first_sale', 'date'],
      ['date_of_first_shipping', 'date'],
    ],
    data.issues,
  );
  await insertRows(
    tx,
    t,
    'subscriptions',
    [
      ['id', 'text'],
      ['order_number', 'text'],
      ['publication', 'text'],
      ['order_status', 'text'],
      ['mix_type', 'text'],
      ['bundle_number', 'text'],
      ['cust_order_date', 'date'],
      ['valid_from', 'date'],
      ['valid_to', 'date'],
      ['details', 'jsonb'],
    ],
    data.subscriptions,
  );
  await insertRows(
    tx,
    t,
    'subscription_roles',
    [
      ['subscription_id', 'text'],
      ['bp_number', 'text'],
      ['role', 'text'],
    ],
    data.subscriptionRoles,
  );
  await insertRows(
    tx,
    t,
    'purchase_orders',
    [
      ['id', 'text'],
      ['purchase_order_number', 'text'],
      ['distribution_article_number', 'text'],
      ['distribution_article_description', 'text'],
      ['cover_image_url', 'text'],
      ['date_of_purchase_order_client', 'date'],
      ['quantity', 'integer'],
      ['invoice_status', 'smallint'],
      ['invoice_number', 'text'],
      ['download_status', 'text'],
      ['package_info', 'jsonb'],
      ['details', 'jsonb'],
    ],
    data.purchaseOrders,
  );
  await insertRows(
    tx,
    t,
    'purchase_order_roles',
    [
      ['purchase_order_id', 'text'],
      ['bp_number', 'text'],
      ['role', 'text'],
    ],
    data.purchaseOrderRoles,
  );
  await insertRows(
    tx,
    t,
    'pending_orders',
    [
      ['id', 'text'],
      ['bp_number', 'text'],
      ['source', 'text'],
      ['title', 'text'],
      ['order_number', 'text'],
      ['article_number', 'text'],
      ['order_date', 'date'],
      ['cover_image_url', 'text'],
      ['issue_number_from', 'text'],
      ['download_url', 'text'],
      ['download_is_file', 'boolean'],
    ],
    data.pendingOrders,
  );
  await insertRows(
    tx,
    t,
    'payment_history',
    [
      ['subscription_id', 'text'],
      ['id', 'text'],
      ['date', 'date'],
      ['amount', 'numeric'],
      ['currency', 'text'],
      ['invoice_status_code', 'text'],
      ['invoice_number', 'text'],
      ['external_document_number', 'text'],
      ['document_id', 'text'],
    ],
    data.paymentHistory,
  );
  await insertRows(
    tx,
    t,
    'delivered_issues',
    [
      ['subscription_id', 'text'],
      ['issue', 'text'],
      ['issue_number', 'text'],
      ['description', 'text'],
      ['date_of_first_sale', 'date'],
      ['download_status', 'text'],
    ],
    data.deliveredIssues,
  );
}

/**
 * Seeds every tenant not seeded yet and returns the demo logins of all of them (printed at start,
 * DESIGN.md "Data and the server"). Users get no password (magic-link login).
 */
export async function seedDemoData(db: Database, tenants: DemoTenant[], opts: SeedOptions = {}): Promise<DemoLogin[]> {
  const today = opts.today ?? new Date();
  const logins: DemoLogin[] = [];
  for (const tenant of tenants) {
    const data = buildDemoData(tenant, today);
    await db.transaction(async (tx) => {
      const claimed = await tx.query(
        `insert into demo_seeds (tenant_id, seed, seeded_at) values ($1, $2, now())
         on conflict (tenant_id) do nothing returning tenant_id`,
        [tenant.id, data.seed],
      );
      if (claimed.length === 0) return; // seeded before
      await writeDataSet(tx, data);
    });
    logins.push(...data.logins);
  }
  return logins;
}
