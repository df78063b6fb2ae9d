/**
 * Demo data of the multi-user licences (migration 010; account-flows.md §2 "Licences", §3, §4):
 * one licence object for every multi-licence subscription (the third persona manages the company's
 * as LV), and — where the tenant has `multi-user-licenses` on — a multi-licence subscription of the
 * shared demo login (ordering party) with two objects: one near its maximum with licences in every
 * state (accepted and active, invited, inactive, one that may not be activated again), and one with
 * self-service off and more than 10 licences, so the list pages (§9 page size 10).
 * Listed last in seedModules.ts: it draws from the generator (order numbers, names).
 */
import { MAX_CO_USERS } from '../../../engine/domain/licenses';
import { type SeedModule, need } from '../context';
import { addDays } from '../dates';
import { addSubscription, allRoles } from './subscriptions';

export interface LicenseObjectSeedRow {
  subscription_id: string;
  order_number: string;
  max_active_licenses: number;
  self_service_enabled: boolean;
}

export interface LicenseSeedRow {
  subscription_id: string;
  order_number: string;
  is_active: boolean;
  is_reactivatable: boolean;
  is_confirmed: boolean;
  business_partner: Record<string, string | null>;
  email: string;
  role: string | null;
  academic_year: string | null;
  /** Invited in this order (the list shows the oldest first). */
  created_at: string;
}

export interface LicenseData {
  licenseObjects: LicenseObjectSeedRow[];
  licenses: LicenseSeedRow[];
}

/** The tenant's switches, when the seed got a validated tenant (DemoTenant leaves them out). */
type WithFeatures = {
  features?: readonly string[];
  multiUserLicenses?: { roles?: ReadonlyArray<{ code: string; requiresAcademicYear?: boolean }> };
};

export const licenses: SeedModule = {
  name: 'licenses',
  build(ctx) {
    const { L, rng, today, domain } = ctx;
    const { demo } = need(ctx, 'personas');
    const data = ctx.data as typeof ctx.data & Partial<LicenseData>;
    const tenant = ctx.tenant as typeof ctx.tenant & WithFeatures;
    data.licenseObjects = [];
    data.licenses = [];
    const roles = tenant.multiUserLicenses?.roles ?? [];
    let n = 0;
    const person = (
      state: { active: boolean; confirmed: boolean; reactivatable?: boolean },
      subscriptionId: string,
      orderNumber: string,
    ) => {
      n += 1;
      const female = rng.int(0, 1) === 0;
      const firstName = rng.pick(female ? L.femaleFirstNames : L.maleFirstNames);
      const lastName1 = rng.pick(L.lastNames);
      const role = state.confirmed && roles.length > 0 ? roles[n % roles.length] : null;
      data.licenses!.push({
        subscription_id: subscriptionId,
        order_number: orderNumber,
        is_active: state.active,
        is_reactivatable: state.reactivatable ?? true,
        is_confirmed: state.confirmed,
        business_partner: {
          salutationCode: female ? '0001' : '0002',
          firstName,
          lastName1,
          company1: state.confirmed ? L.company.company : null,
        },
        email: `${firstName}.${lastName1}.${n}@${domain}`
          .toLowerCase()
          .normalize('NFD')
          .replace(/[\u0300-\u036f]/g, '')
          .replace(/[^a-z0-9.@-]/g, ''),
        role: role?.code ?? null,
        academic_year: role?.requiresAcademicYear ? String(20 + (n % 6)) : null,
        created_at: new Date((today - 60) * 86_400_000 + n * 60_000).toISOString(),
      });
    };

    // Every multi-licence subscription so far (the company's, managed by the third persona).
    for (const s of ctx.data.subscriptions.filter((x) => x.details.isMultiLicense)) {
      data.licenseObjects.push({
        subscription_id: s.id,
        order_number: s.order_number,
        max_active_licenses: MAX_CO_USERS,
        self_service_enabled: true,
      });
      person({ active: true, confirmed: true }, s.id, s.order_number);
      person({ active: true, confirmed: false }, s.id, s.order_number);
    }

    if (!tenant.features?.includes('multi-user-licenses')) return;
    const pub = ctx.catalogue.digital;
    const own = addSubscription(ctx, {
      pub,
      mix: pub.kind === 'digital' ? 'DE' : 'KO',
      status: 'A',
      roles: allRoles(demo.bp),
      orderedDaysAgo: 400,
      validFrom: addDays(today, -390),
      payment: 'invoice',
      billing: '12',
      details: { isMultiLicense: true, custOrderNumber: `PO-${rng.digits(6)}` },
      payments: { count: 1 },
      deliveredIssues: 3,
    });
    // Near its maximum: 3 of the 5 co-users' licences in use (6 people with the subscriber, §9
    // "Co-users: up to 5 (6 in total)"), in every state; two free for an invitation each.
    data.licenseObjects.push({
      subscription_id: own.id,
      order_number: own.orderNumber,
      max_active_licenses: MAX_CO_USERS,
      self_service_enabled: true,
    });
    for (const state of [
      { active: true, confirmed: true },
      { active: true, confirmed: true },
      { active: true, confirmed: false },
      { active: false, confirmed: true },
      { active: false, confirmed: true, reactivatable: false },
    ])
      person(state, own.id, own.orderNumber);
    // A second object of the same order system run by the publisher (self-service off), with 12 licences.
    const second = ctx.numbers.order();
    data.licenseObjects.push({
      subscription_id: own.id,
      order_number: second,
      max_active_licenses: 15,
      self_service_enabled: false,
    });
    for (let i = 0; i < 12; i += 1) person({ active: i < 11, confirmed: i < 10 }, own.id, second);

    const login = data.logins.find((l) => l.email === demo.email);
    if (login)
      login.description += `; a multi-licence of ${pub.publication} (order ${own.orderNumber}) with licences in every state`;
  },
};
