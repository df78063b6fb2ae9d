import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../../server/db/database';
import { SHARED_DEMO_EMAIL, buildDemoData, seedDemoData, type DemoTenant } from '../../../server/seed';
import { getTestDatabase, testDatabaseKind, uniqueTenantId } from '../../support/database';
import { cataloguePublications } from '../../../server/seed/catalogue';

const TODAY = new Date(Date.UTC(2026, 2, 15));

/** Stadtkurier's catalogue under a tenant id of this file (tests share one database). */
const stadtkurierLike = (id: string): DemoTenant => ({
  id,
  defaultLocale: 'de-DE',
  // The stadtkurier catalogue under another tenant id: the same titles, the same client.
  publications: cataloguePublications('stadtkurier'),
});

const germanTenant = stadtkurierLike(uniqueTenantId('seed-de'));
const britishTenant: DemoTenant = { id: uniqueTenantId('seed-en'), defaultLocale: 'en-GB' };

const TABLES = {
  users: 'users',
  businessPartners: 'business_partners',
  publications: 'publications',
  issues: 'issues',
  subscriptions: 'subscriptions',
  subscriptionRoles: 'subscription_roles',
  purchaseOrders: 'purchase_orders',
  purchaseOrderRoles: 'purchase_order_roles',
  pendingOrders: 'pending_orders',
  paymentHistory: 'payment_history',
  deliveredIssues: 'delivered_issues',
  userBusinessPartners: 'user_business_partners',
} as const;

async function rowCounts(db: Database, tenantId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [key, table] of Object.entries(TABLES)) {
    const [row] = await db.query<{ n: number }>(
      `select count(*)::int as n from ${table} where tenant_id = $1`,
      [tenantId],
    );
    counts[key] = row.n;
  }
  return counts;
}

function plannedCounts(tenant: DemoTenant): Record<string, number> {
  const data = buildDemoData(tenant, TODAY);
  return Object.fromEntries(
    Object.keys(TABLES).map((key) => [key, (data[key as keyof typeof TABLES] as unknown[]).length]),
  );
}

async function values(db: Database, tenantId: string, sql: string): Promise<string[]> {
  const rows = await db.query<{ v: string | null }>(sql, [tenantId]);
  return [...new Set(rows.map((r) => r.v ?? ''))].sort();
}

describe('buildDemoData', () => {
  afterEach(() => vi.restoreAllMocks());

  it('builds the same data set for the same tenant and day, without Math.random or the clock', () => {
    const random = vi.spyOn(Math, 'random');
    const now = vi.spyOn(Date, 'now');
    const first = buildDemoData({ id: 'stadtkurier', defaultLocale: 'de-DE' }, TODAY);
    const second = buildDemoData({ id: 'stadtkurier', defaultLocale: 'de-DE' }, new Date(TODAY.getTime()));
    expect(second).toEqual(first);
    expect(random).not.toHaveBeenCalled();
    expect(now).not.toHaveBeenCalled();
  });

  it('draws different numbers for different tenants', () => {
    const a = buildDemoData({ id: 'stadtkurier', defaultLocale: 'de-DE' }, TODAY);
    const b = buildDemoData({ id: 'technikwelt', defaultLocale: 'de-DE' }, TODAY);
    const orderNumbers = new Set(a.subscriptions.map((s) => s.order_number));
    expect(b.subscriptions.some((s) => orderNumbers.has(s.order_number))).toBe(false);
  });

  it.each([
    ['stadtkurier', ['SKT', 'SKS', 'SKE']],
    ['northern-review', ['NRV', 'NRD']],
    ['technikwelt', ['TWM', 'TWP', 'TWD', 'TWS']],
    ['gartenfreunde', ['GFM', 'GFJ']],
  ])('gives %s its publication codes', (id, codes) => {
    const data = buildDemoData({ id, defaultLocale: 'de-DE' }, TODAY);
    expect(data.publications.map((p) => p.publication)).toEqual(codes);
    expect(new Set(data.subscriptions.map((s) => s.publication))).toEqual(new Set(codes));
  });

  it('derives publication codes for any other tenant from its id', () => {
    const data = buildDemoData({ id: 'acme-news', defaultLocale: 'en-GB' }, TODAY);
    expect(data.publications.map((p) => [p.publication, p.description])).toEqual([
      ['ACP', 'Acme News Print'],
      ['ACD', 'Acme News Digital'],
    ]);
  });

  it('keeps order numbers at 10 digits starting with 4, business partner numbers at 10 digits, ids prefixed by the client', () => {
    const data = buildDemoData({ id: 'technikwelt', defaultLocale: 'de-DE' }, TODAY);
    const clientOf = new Map(data.publications.map((p) => [p.publication, p.client_id]));
    for (const s of data.subscriptions) {
      expect(s.order_number).toMatch(/^4\d{9}$/);
      expect(s.id).toBe(`${clientOf.get(s.publication)}${s.order_number}`);
    }
    for (const bp of data.businessPartners) expect(bp.bp_number).toMatch(/^\d{10}$/);
    expect(new Set(data.subscriptions.map((s) => s.order_number)).size).toBe(data.subscriptions.length);
  });

  it("follows the tenant's salutation codes, gift sales source and order attributes when it has them", () => {
    const data = buildDemoData(
      {
        id: 'northern-review',
        defaultLocale: 'en-GB',
        salutations: {
          options: [
            { code: 'MR', title: { 'en-GB': 'Mr', 'de-DE': 'Herr' } },
            { code: 'MRS', title: { 'en-GB': 'Mrs', 'de-DE': 'Frau' } },
            { code: 'LTD', title: { 'en-GB': 'Company' }, isCompany: true },
          ],
        },
        giftCertificate: { salesSources: ['GESCHENK'] },
        orderAttributes: { attributes: [{ type: 'KOSTENSTELLE' }] },
      },
      TODAY,
    );
    expect(new Set(data.businessPartners.map((bp) => bp.salutation_code))).toEqual(
      new Set(['MR', 'MRS', 'LTD']),
    );
    const olivia = data.businessPartners.find((bp) => bp.first_name === 'Olivia');
    expect(olivia).toMatchObject({ salutation_code: 'MRS', details: { salutation: 'Mrs' } });
    const gifts = data.subscriptions.filter((s) => s.details.salesSource === 'GESCHENK');
    expect(gifts).toHaveLength(1);
    expect(data.subscriptions.flatMap((s) => s.details.orderAttributes ?? []).map((a) => a.type)).toEqual([
      'KOSTENSTELLE',
    ]);
  });

  it('uses the default salutation codes without a tenant list', () => {
    const data = buildDemoData({ id: 'stadtkurier', defaultLocale: 'de-DE' }, TODAY);
    expect(new Set(data.businessPartners.map((bp) => bp.salutation_code))).toEqual(
      new Set(['0001', '0002', '0003']),
    );
  });

  it('dates everything relative to the given day', () => {
    const data = buildDemoData({ id: 'stadtkurier', defaultLocale: 'de-DE' }, TODAY);
    const later = buildDemoData(
      { id: 'stadtkurier', defaultLocale: 'de-DE' },
      new Date(Date.UTC(2026, 2, 25)),
    );
    expect(data.today).toBe('2026-03-15');
    expect(data.subscriptions.every((s) => s.cust_order_date <= '2026-03-15')).toBe(true);
    expect(later.subscriptions.map((s) => s.order_number)).toEqual(
      data.subscriptions.map((s) => s.order_number),
    );
    expect(later.subscriptions[0].cust_order_date).not.toBe(data.subscriptions[0].cust_order_date);
  });
});

describe(`seedDemoData (${testDatabaseKind()})`, () => {
  let db: Database;
  let firstLogins: Awaited<ReturnType<typeof seedDemoData>>;

  beforeAll(async () => {
    db = await getTestDatabase();
    firstLogins = await seedDemoData(db, [germanTenant, britishTenant], { today: TODAY });
  });

  it('writes exactly the planned rows', async () => {
    expect(await rowCounts(db, germanTenant.id)).toEqual(plannedCounts(germanTenant));
    expect(await rowCounts(db, britishTenant.id)).toEqual(plannedCounts(britishTenant));
  });

  it('skips seeded tenants and still returns their logins', async () => {
    const before = await rowCounts(db, germanTenant.id);
    const again = await seedDemoData(db, [germanTenant, britishTenant], {
      today: new Date(Date.UTC(2027, 0, 1)),
    });
    expect(again).toEqual(firstLogins);
    expect(await rowCounts(db, germanTenant.id)).toEqual(before);
    const seeds = await db.query<{ tenant_id: string; seed: number }>(
      'select tenant_id, seed from demo_seeds where tenant_id = any($1::text[]) order by tenant_id',
      [[germanTenant.id, britishTenant.id]],
    );
    expect(seeds).toHaveLength(2);
    expect(seeds.every((s) => Number.isInteger(s.seed))).toBe(true);
  });

  it('writes a tenant once when two seeders start together', async () => {
    const tenant = stadtkurierLike(uniqueTenantId('seed-race'));
    const [a, b] = await Promise.all([
      seedDemoData(db, [tenant], { today: TODAY }),
      seedDemoData(db, [tenant], { today: TODAY }),
    ]);
    expect(a).toEqual(b);
    expect(await rowCounts(db, tenant.id)).toEqual(plannedCounts(tenant));
  });

  it("dates the demo e-cards when they were written, so none counts against the seed day's cap", async () => {
    const tenant = {
      ...stadtkurierLike(uniqueTenantId('seed-ecards')),
      features: ['e-card'],
      eCard: { templates: [{ name: 'balloons', category: 'birthday' }] },
    } as DemoTenant;
    await seedDemoData(db, [tenant], { today: TODAY });
    const cards = await db.query<{ created_at: Date }>(
      'select created_at from e_cards where tenant_id = $1',
      [tenant.id],
    );
    expect(cards).toHaveLength(2);
    // The cap counts the cards of the last 24 hours (server/e-card/eCardService.ts).
    const dayBefore = TODAY.getTime() - 86_400_000;
    expect(cards.every((card) => new Date(card.created_at).getTime() < dayBefore)).toBe(true);
  });

  it('returns at least three logins per tenant, including the shared demo e-mail, each with an account', async () => {
    for (const tenant of [germanTenant, britishTenant]) {
      const logins = firstLogins.filter((l) => l.tenantId === tenant.id);
      expect(logins.length).toBeGreaterThanOrEqual(3);
      expect(logins.map((l) => l.email)).toContain(SHARED_DEMO_EMAIL);
      for (const login of logins) {
        expect(login.description.length).toBeGreaterThan(20);
        const users = await db.query<{ password_hash: string | null; links: number }>(
          `select u.password_hash,
                  (select count(*)::int from user_business_partners l where l.tenant_id = u.tenant_id and l.user_id = u.id) as links
             from users u where u.tenant_id = $1 and u.email = $2`,
          [tenant.id, login.email],
        );
        expect(users, login.email).toEqual([{ password_hash: null, links: 1 }]);
      }
    }
    expect(firstLogins.find((l) => l.tenantId === germanTenant.id)?.email).toBe(
      `anna.schmidt@${germanTenant.id}.example`,
    );
  });

  it('writes German names and places for de-DE and British ones for en-GB', async () => {
    const germans = await db.query<{ first_name: string; country_code: string }>(
      `select first_name, country_code from business_partners where tenant_id = $1 and first_name is not null`,
      [germanTenant.id],
    );
    expect(germans.map((g) => g.first_name)).toEqual(expect.arrayContaining(['Anna', 'Max', 'Lena']));
    expect(new Set(germans.map((g) => g.country_code))).toEqual(new Set(['DE']));
    const britons = await db.query<{ first_name: string; country_code: string }>(
      `select first_name, country_code from business_partners where tenant_id = $1 and first_name is not null`,
      [britishTenant.id],
    );
    expect(britons.map((g) => g.first_name)).toEqual(expect.arrayContaining(['Olivia', 'James', 'Priya']));
    expect(new Set(britons.map((g) => g.country_code))).toEqual(new Set(['GB']));
  });

  describe.each([
    ['de-DE', germanTenant],
    ['en-GB', britishTenant],
  ])('covers every state in the %s tenant', (_locale, tenant) => {
    const t = tenant.id;

    it('every order status, role, mix type and medium type', async () => {
      expect(await values(db, t, 'select order_status as v from subscriptions where tenant_id = $1')).toEqual(
        ['A', 'AK', 'I', 'IU', 'IZ'],
      );
      expect(await values(db, t, 'select role as v from subscription_roles where tenant_id = $1')).toEqual([
        'AG',
        'LV',
        'RE',
        'WE',
      ]);
      expect(await values(db, t, 'select mix_type as v from subscriptions where tenant_id = $1')).toEqual([
        'DE',
        'KO',
        'MG',
        'ON',
        'PR',
      ]);
      expect(
        await values(
          db,
          t,
          `select details->'mixTypeDetails'->>'mediumType' as v from subscriptions where tenant_id = $1`,
        ),
      ).toEqual(['', 'DE', 'KO', 'ON']);
    });

    it('a gift whose ordering party and goods recipient are different people', async () => {
      const gifts = await db.query(
        `select s.id from subscriptions s
          where s.tenant_id = $1
            and exists (select 1 from subscription_roles ag where ag.tenant_id = $1 and ag.subscription_id = s.id and ag.role = 'AG'
                          and not exists (select 1 from subscription_roles we where we.tenant_id = $1 and we.subscription_id = s.id
                                            and we.role = 'WE' and we.bp_number = ag.bp_number))`,
        [t],
      );
      expect(gifts.length).toBeGreaterThan(0);
    });

    it('a bundle master with components, a membership, auto-renewal, a suspension and every holiday service', async () => {
      const bundles = await db.query<{ bundle_number: string; components: string[]; slaves: number }>(
        `select bundle_number, array_agg(details->'renewal'->>'renewalBundleComponent' order by 1) as components,
                max(jsonb_array_length(details->'bundles')) as slaves
           from subscriptions where tenant_id = $1 and bundle_number is not null group by bundle_number`,
        [t],
      );
      expect(bundles).toHaveLength(1);
      expect([...bundles[0].components].sort()).toEqual(['M', 'S', 'S']);
      expect(bundles[0].slaves).toBe(2);
      expect(
        await values(
          db,
          t,
          `select details->'renewal'->>'offerClassification' as v from subscriptions where tenant_id = $1`,
        ),
      ).toContain('M');
      expect(
        await values(
          db,
          t,
          `select details->'renewal'->>'autoRenewal' as v from subscriptions where tenant_id = $1`,
        ),
      ).toContain('true');
      expect(
        await values(
          db,
          t,
          `select (details->'currentSuspension' is not null and details->'currentSuspension' <> 'null')::text as v
                               from subscriptions where tenant_id = $1 and order_status = 'IU'`,
        ),
      ).toEqual(['true']);
      expect(
        await values(
          db,
          t,
          `select details->>'activeHolidayServiceType' as v from subscriptions where tenant_id = $1`,
        ),
      ).toEqual(['', 'break', 'download', 'redirect']);
      expect(
        await values(
          db,
          t,
          `select details->>'salesDocumentType' as v from subscriptions where tenant_id = $1`,
        ),
      ).toContain('WBZA');
    });

    it('purchase orders in every invoice state, shipping state and provider code', async () => {
      expect(
        await values(db, t, 'select invoice_status::text as v from purchase_orders where tenant_id = $1'),
      ).toEqual(['1', '2', '3']);
      expect(
        await values(
          db,
          t,
          `select package_info->>'scanStatus' as v from purchase_orders where tenant_id = $1`,
        ),
      ).toEqual(['', '90']);
      expect(
        await values(db, t, `select package_info->>'versWeg' as v from purchase_orders where tenant_id = $1`),
      ).toEqual(['01', '02', '07', '08', '09', '16', '17', '91', '92']);
      const shipped = await db.query<{ consignment: string | null }>(
        `select package_info->>'consignmentNumber' as consignment from purchase_orders
          where tenant_id = $1 and package_info->>'scanStatus' = '90'`,
        [t],
      );
      expect(shipped.every((s) => s.consignment)).toBe(true);
      expect(
        await values(db, t, 'select download_status as v from purchase_orders where tenant_id = $1'),
      ).toEqual(['expired', 'found', 'not_found', 'not_supported', 'unknown']);
    });

    it('pending orders from VHS and another source', async () => {
      const sources = await values(db, t, 'select source as v from pending_orders where tenant_id = $1');
      expect(sources).toContain('VHS');
      expect(sources.some((s) => s !== 'VHS')).toBe(true);
    });

    it('payment history with every code and more than 25 entries for one subscription', async () => {
      expect(
        await values(db, t, 'select invoice_status_code as v from payment_history where tenant_id = $1'),
      ).toEqual(['A', 'O', 'T', 'U']);
      const [most] = await db.query<{ n: number }>(
        'select count(*)::int as n from payment_history where tenant_id = $1 group by subscription_id order by 1 desc limit 1',
        [t],
      );
      expect(most.n).toBeGreaterThan(25);
    });

    it('delivered issues with every download status', async () => {
      expect(
        await values(db, t, 'select download_status as v from delivered_issues where tenant_id = $1'),
      ).toEqual(['expired', 'found', 'not_found', 'not_supported', 'unknown']);
    });
  });
});
