import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database';
import { SHARED_DEMO_EMAIL, seedDemoData, type DemoTenant } from '../../../server/seed';
import type { Subscription } from '../../../server/store/rows';
import {
  bundleComponentsOf,
  getSubscriptionForUser,
  listSubscriptionsForUser,
} from '../../../server/store/subscriptionStore';
import { createUser, findUserByEmail } from '../../../server/store/userStore';
import { getTestDatabase, testDatabaseKind, uniqueTenantId } from '../../support/database';
import { cataloguePublications } from '../../../server/seed/catalogue';

const TODAY = new Date(Date.UTC(2026, 2, 15));
const tenantA: DemoTenant = {
  id: uniqueTenantId('subs-a'),
  defaultLocale: 'de-DE',
  // The stadtkurier catalogue under another tenant id: the same titles, the same client.
  publications: cataloguePublications('stadtkurier'),
};
/** technikwelt's catalogue: its digital title in an order-system client of its own. */
const twoClients: DemoTenant = {
  id: uniqueTenantId('subs-c'),
  defaultLocale: 'de-DE',
  publications: cataloguePublications('technikwelt'),
};
const tenantB: DemoTenant = {
  id: uniqueTenantId('subs-b'),
  defaultLocale: 'en-GB',
  publications: [
    {
      publication: 'NRV',
      description: 'The Northern Review',
      kind: 'print',
      frequency: 'weekly',
      clientId: '201',
    },
    {
      publication: 'NRD',
      description: 'The Northern Review Digital',
      kind: 'digital',
      frequency: 'weekly',
      clientId: '201',
    },
  ],
};

// The response schema, compiled as strictly as the server compiles request schemas.
const ajv = new Ajv({ allErrors: true, strict: true });
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (a: Ajv) => void;
addFormats(ajv);
const schema = JSON.parse(
  readFileSync(new URL('../../../schemas/api/subscription.schema.json', import.meta.url), 'utf8'),
);
delete schema.$schema;
const validateSubscription = ajv.compile(schema);

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

let db: Database;
const userIds: Record<string, string> = {};

async function userId(tenant: DemoTenant, email: string): Promise<string> {
  const key = `${tenant.id}/${email}`;
  if (!userIds[key]) {
    const user = await findUserByEmail(db, tenant.id, email);
    if (!user) throw new Error(`no demo user ${key}`);
    userIds[key] = user.id;
  }
  return userIds[key];
}

const main = (t: DemoTenant) =>
  `${t.defaultLocale === 'de-DE' ? 'anna.schmidt' : 'olivia.turner'}@${t.id}.example`;
const second = (t: DemoTenant) =>
  `${t.defaultLocale === 'de-DE' ? 'max.mueller' : 'james.whitfield'}@${t.id}.example`;
const third = (t: DemoTenant) =>
  `${t.defaultLocale === 'de-DE' ? 'lena.wagner' : 'priya.patel'}@${t.id}.example`;

async function list(tenant: DemoTenant, email: string): Promise<Subscription[]> {
  return listSubscriptionsForUser(db, tenant.id, await userId(tenant, email), { today: TODAY });
}

beforeAll(async () => {
  db = await getTestDatabase();
  await seedDemoData(db, [tenantA, tenantB, twoClients], { today: TODAY });
});

describe(`subscriptionStore (${testDatabaseKind()})`, () => {
  it('answers every subscription in the shape of schemas/api/subscription.schema.json', async () => {
    for (const tenant of [tenantA, tenantB]) {
      for (const email of [main(tenant), second(tenant), third(tenant), SHARED_DEMO_EMAIL]) {
        for (const subscription of await list(tenant, email)) {
          const valid = validateSubscription(subscription);
          expect(validateSubscription.errors ?? [], `${email} ${subscription.id}`).toEqual([]);
          expect(valid).toBe(true);
        }
      }
    }
  });

  it("lists the user's subscriptions, newest order first, with ISO dates", async () => {
    const subscriptions = await list(tenantA, main(tenantA));
    expect(subscriptions).toHaveLength(5);
    const orderDates = subscriptions.map((s) => s.custOrderDate ?? '');
    expect([...orderDates].sort().reverse()).toEqual(orderDates);
    for (const s of subscriptions) {
      expect(s.custOrderDate).toMatch(ISO_DAY);
      expect(s.validFromOnSaleDate).toMatch(ISO_DAY);
      expect(s.id.slice(0, 3)).toBe(s.clientId);
      expect(s.publicationName).toMatch(/^Stadtkurier/);
      expect(s.coverImageUrl).toMatch(/^data:image\/svg\+xml,/);
    }
  });

  it('gets one subscription exactly as the list shows it', async () => {
    const [first] = await list(tenantA, main(tenantA));
    const one = await getSubscriptionForUser(db, tenantA.id, await userId(tenantA, main(tenantA)), first.id, {
      today: TODAY,
    });
    expect(one).toEqual(first);
  });

  it('groups a bundle: the master lists its components, all share the bundle number', async () => {
    const subscriptions = await list(tenantA, main(tenantA));
    const bundled = subscriptions.filter((s) => s.bundle);
    expect(bundled).toHaveLength(3);
    expect(new Set(bundled.map((s) => s.bundle?.bundleNumber)).size).toBe(1);
    const master = bundled.find((s) => s.renewal?.renewalBundleComponent === 'M');
    const slaves = bundled.filter((s) => s.renewal?.renewalBundleComponent === 'S');
    expect(master?.bundles.map((b) => b.bundleOrderNumber).sort()).toEqual(
      slaves.map((s) => s.orderNumber).sort(),
    );
  });

  it('shows the next issue after the reference day and not before the start, and none for an inactive subscription', async () => {
    const subscriptions = await list(tenantA, second(tenantA));
    for (const s of subscriptions) {
      if (s.orderStatus === 'I') expect(s.nextIssue).toBeNull();
      else if (!s.isTimebased) expect((s.nextIssue?.dateOfFirstSale ?? '') > '2026-03-15').toBe(true);
    }
    // The trial that starts later (IZ) gets its first issue on or after its start.
    const later = subscriptions.find((s) => s.orderStatus === 'IZ' && s.validFromOnSaleDate! > '2026-03-15')!;
    expect(later).toBeDefined();
    const first = later.nextIssue?.dateOfFirstSale ?? later.validFromOnSaleDate!;
    expect(first >= later.validFromOnSaleDate!, `${first} before ${later.validFromOnSaleDate}`).toBe(true);
  });

  it('shows as next issue none that is not delivered: inside a planned holiday break or the order system’s suspension', async () => {
    const before = await list(tenantA, second(tenantA));
    const s = before.find((x) => x.nextIssue && ['A', 'AK'].includes(x.orderStatus) && !x.isTimebased)!;
    const paused = s.nextIssue!.dateOfFirstSale!;
    await db.query(
      `insert into holiday_services (tenant_id, subscription_id, type, date_from, date_to, status)
       values ($1, $2, 'break', $3, $3, 'planned')`,
      [tenantA.id, s.id, paused],
    );
    try {
      const during = (await list(tenantA, second(tenantA))).find((x) => x.id === s.id)!;
      expect(during.nextIssue === null || during.nextIssue.dateOfFirstSale! > paused).toBe(true);
    } finally {
      await db.query(`delete from holiday_services where tenant_id = $1 and subscription_id = $2`, [
        tenantA.id,
        s.id,
      ]);
    }
    for (const x of before) {
      const suspension = x.currentSuspension;
      if (!suspension?.suspendedFromDate || !x.nextIssue) continue;
      const day = x.nextIssue.dateOfFirstSale!;
      const inside =
        day >= suspension.suspendedFromDate &&
        (!suspension.suspendedToDate || day <= suspension.suspendedToDate);
      expect(inside, `${x.id}: ${day} inside ${JSON.stringify(suspension)}`).toBe(false);
    }
    expect(before.some((x) => x.currentSuspension?.suspendedToDate && x.nextIssue)).toBe(true);
  });

  it("finds a bundle's components in another order-system client than its master's", async () => {
    const mine = await list(twoClients, main(twoClients));
    const master = mine.find((s) => s.renewal?.renewalBundleComponent === 'M')!;
    const parts = mine.filter(
      (s) =>
        s.bundle?.bundleNumber === master.bundle!.bundleNumber && s.renewal?.renewalBundleComponent === 'S',
    );
    expect(parts.map((s) => s.id.slice(0, 3))).not.toContain(master.id.slice(0, 3));
    const found = await bundleComponentsOf(db, twoClients.id, await userId(twoClients, main(twoClients)), {
      id: master.id,
      bundleNumber: master.bundle!.bundleNumber,
    });
    expect(found.map((part) => part.id)).toEqual(parts.map((s) => s.id).sort());
    // A component of the same number that the master does not name is another bundle's (each
    // client numbers its own): left alone, though the user orders it.
    const stranger = mine.find((s) => !s.bundle && s.roles.includes('AG'))!;
    await db.query(
      `update subscriptions set bundle_number = $3,
              details = jsonb_set(details, '{renewal}', coalesce(details->'renewal', '{}'::jsonb) || '{"renewalBundleComponent": "S"}')
        where tenant_id = $1 and id = $2`,
      [twoClients.id, stranger.id, master.bundle!.bundleNumber],
    );
    const again = await bundleComponentsOf(db, twoClients.id, await userId(twoClients, main(twoClients)), {
      id: master.id,
      bundleNumber: master.bundle!.bundleNumber,
    });
    expect(again.map((part) => part.id)).toEqual(parts.map((s) => s.id).sort());
    // Nobody else's: another user holds no role on them.
    expect(
      await bundleComponentsOf(db, twoClients.id, await userId(twoClients, second(twoClients)), {
        id: master.id,
        bundleNumber: master.bundle!.bundleNumber,
      }),
    ).toEqual([]);
  });

  describe('roles', () => {
    it("gives the gift's ordering party the payment data and both addresses", async () => {
      const gift = (await list(tenantA, main(tenantA))).find((s) => s.salesSource === 'GIFT')!;
      expect(gift.roles).toEqual(['AG', 'RE']);
      expect(gift.paymentDetails).toEqual({ paymentMethod: 'invoice' });
      expect(gift.premiumDescription).toMatch(/\S/);
      expect(gift.orderingParty?.firstName).toBe('Anna');
      expect(gift.goodsRecipient?.firstName).toBe('Max');
      expect(gift.currentRoleBusinessPartner.role).toBe('AG');
    });

    it("reads the order system's payment codes when it names no kind (portal-core.md §9 mapping)", async () => {
      const gift = (await list(tenantA, main(tenantA))).find((s) => s.salesSource === 'GIFT')!;
      const [{ details }] = await db.query<{ details: Record<string, unknown> }>(
        `select details from subscriptions where tenant_id = $1 and id = $2`,
        [tenantA.id, gift.id],
      );
      const setDetails = (value: Record<string, unknown>) =>
        db.query(`update subscriptions set details = $3 where tenant_id = $1 and id = $2`, [
          tenantA.id,
          gift.id,
          value,
        ]);
      const { paymentDetails: _kind, ...codesOnly } = details;
      try {
        for (const [paymentMethod, subPaymentMethod, kind] of [
          ['K', '001', 'credit_card'],
          ['E', null, 'direct_debit'],
          ['', '660', 'paypal'],
        ] as const) {
          await setDetails({ ...codesOnly, paymentMethod, subOProcessedPMD: { subPaymentMethod } });
          const read = (await list(tenantA, main(tenantA))).find((s) => s.id === gift.id)!;
          expect(read.paymentDetails, paymentMethod).toEqual({ paymentMethod: kind });
        }
      } finally {
        await setDetails(details);
      }
    });

    it("shows the gift's recipient the gift without the giver's payment data or address", async () => {
      const gift = (await list(tenantA, second(tenantA))).find((s) => s.salesSource === 'GIFT')!;
      expect(gift.roles).toEqual(['WE']);
      expect(gift.orderStatus).toBe('AK');
      for (const key of [
        'paymentMethod',
        'paymentDetails',
        'subOProcessedPMD',
        'premiumDescription',
        'currentCyclePaidAmount',
        'orderingParty',
      ] as const) {
        expect(gift, key).not.toHaveProperty(key);
      }
      expect(gift.renewal).not.toHaveProperty('autoRenewalNextPaymentAmount');
      expect(gift.goodsRecipient?.firstName).toBe('Max');
      expect(gift.currentRoleBusinessPartner).toMatchObject({ role: 'WE', firstName: 'Max' });
      expect(gift.businessPartners.map((bp) => bp.role)).toEqual(['AG', 'WE', 'RE']);
    });

    it('shows an invoice recipient only the RE role', async () => {
      const paid = (await list(tenantA, second(tenantA))).filter(
        (s) => s.roles.length === 1 && s.roles[0] === 'RE',
      );
      expect(paid).toHaveLength(1);
      expect(paid[0]).not.toHaveProperty('paymentDetails');
      expect(paid[0]).not.toHaveProperty('goodsRecipient');
    });

    it("shows a licence manager the company's multi-licence as LV", async () => {
      const licences = (await list(tenantA, third(tenantA))).filter((s) => s.isMultiLicense);
      expect(licences).toHaveLength(1);
      expect(licences[0].roles).toEqual(['LV']);
      expect(licences[0].currentRoleBusinessPartner.role).toBe('LV');
    });

    it('covers every order status across the personas', async () => {
      const statuses = new Set<string>();
      for (const email of [main(tenantA), second(tenantA), third(tenantA)]) {
        for (const s of await list(tenantA, email)) statuses.add(s.orderStatus);
      }
      expect([...statuses].sort()).toEqual(['A', 'AK', 'I', 'IU', 'IZ']);
    });
  });

  describe('isolation', () => {
    it("returns null for another user's subscription", async () => {
      const mine = await list(tenantA, main(tenantA));
      const autoRenewing = mine.find((s) => s.renewal?.autoRenewal)!;
      const other = await userId(tenantA, third(tenantA));
      expect(await getSubscriptionForUser(db, tenantA.id, other, autoRenewing.id)).toBeNull();
      const otherIds = new Set((await list(tenantA, third(tenantA))).map((s) => s.id));
      expect(mine.some((s) => otherIds.has(s.id))).toBe(false);
    });

    it('gives the same e-mail in two tenants different subscriptions', async () => {
      const inA = await list(tenantA, SHARED_DEMO_EMAIL);
      const inB = await list(tenantB, SHARED_DEMO_EMAIL);
      expect(inA.length).toBeGreaterThan(0);
      expect(inB.length).toBeGreaterThan(0);
      expect(new Set(inA.map((s) => s.publication))).toEqual(new Set(['SKT', 'SKS', 'SKE']));
      expect(new Set(inB.map((s) => s.publication))).toEqual(new Set(['NRV', 'NRD']));
      expect(await userId(tenantA, SHARED_DEMO_EMAIL)).not.toBe(await userId(tenantB, SHARED_DEMO_EMAIL));
    });

    it("never answers another tenant's subscription, even for a known id and user id", async () => {
      const userInA = await userId(tenantA, SHARED_DEMO_EMAIL);
      const userInB = await userId(tenantB, SHARED_DEMO_EMAIL);
      const [subscriptionInB] = await list(tenantB, SHARED_DEMO_EMAIL);
      expect(await getSubscriptionForUser(db, tenantA.id, userInA, subscriptionInB.id)).toBeNull();
      expect(await getSubscriptionForUser(db, tenantA.id, userInB, subscriptionInB.id)).toBeNull();
      expect(await listSubscriptionsForUser(db, tenantA.id, userInB)).toEqual([]);
    });

    it('answers nothing for an account without linked business partners or an unknown id', async () => {
      const fresh = await createUser(db, tenantA.id, { email: `fresh-${Date.now()}@example.org` });
      expect(await listSubscriptionsForUser(db, tenantA.id, fresh.id)).toEqual([]);
      const me = await userId(tenantA, main(tenantA));
      expect(await getSubscriptionForUser(db, tenantA.id, me, 'no-such-subscription')).toBeNull();
    });
  });
});
