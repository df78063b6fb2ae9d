import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  assertUnique,
  FEATURES,
  isFeatureEnabled,
  isRouteServed,
  loadSubscriptionActions,
  menuItems,
  subscriptionActions,
  textTables,
} from '../../engine/features';
import { deferredScreenOwner, defineFeature } from '../../engine/features/types';
import { DEFERRED } from '../../engine/features/deferred';
import { FEATURE_FLAGS } from '../../engine/domain/featureFlags';
import { can, type CapabilityContext, type CapabilityTenant } from '../../engine/domain/capabilities';
import { ROUTES } from '../../engine/domain/routeRefs';
import { makeSubscription } from '../support/subscriptionBuilder';

const ENGINE = path.resolve(__dirname, '../../engine');

/** The tenant settings subscriptionActions reads, with the capability settings. */
function tenantWith(
  features: string[],
  extra: Partial<CapabilityTenant> & { hiddenActions?: string[] } = {},
) {
  const { hiddenActions = [], ...settings } = extra;
  const tenant = {
    features,
    buttons: { hiddenActions },
    cancellation: {},
    ...settings,
  } as never as Parameters<typeof subscriptionActions>[0] & CapabilityTenant;
  const ctx: CapabilityContext = { tenant };
  return { tenant, ctx };
}
const ids = async (
  features: string[],
  extra?: Parameters<typeof tenantWith>[1],
  subscription = makeSubscription(),
) => {
  const { tenant, ctx } = tenantWith(features, extra);
  return (await subscriptionActions(tenant, subscription, ctx)).map((action) => action.id);
};

describe('feature registry', () => {
  it('names each feature after its folder, which exists', () => {
    for (const feature of FEATURES)
      expect(existsSync(path.join(ENGINE, 'features', feature.id, 'index.ts'))).toBe(true);
  });

  it('loads the screens a visit starts on directly and every other one through its own deferred table', async () => {
    const direct = FEATURES.flatMap((feature) => feature.routes)
      .filter((route) => deferredScreenOwner(route.screen) === undefined)
      .map((route) => route.ref.id);
    expect(direct.sort()).toEqual([ROUTES.login.id, ROUTES.orders.id, ROUTES.subscription.id].sort());
    for (const feature of FEATURES)
      for (const route of feature.routes.filter(
        (candidate) => deferredScreenOwner(candidate.screen) !== undefined,
      ))
        expect(deferredScreenOwner(route.screen), route.ref.id).toBe(feature.id);
    // Every feature's table is listed under its own id, and lists its actions when it has some.
    for (const [id, table] of Object.entries(DEFERRED)) {
      const feature = FEATURES.find((candidate) => candidate.id === id);
      expect(feature, id).toBeDefined();
      expect('actions' in table, id).toBe(feature!.actions !== undefined);
    }
    // A deferred screen resolves to its module through the table (the faq's, whose module is small).
    const faq = FEATURES.find((feature) => feature.id === 'faq')!.routes[0].screen;
    expect(typeof (await faq()).default).toBe('function');
  });

  it('switches features only by flags of the spec list', () => {
    for (const feature of FEATURES)
      for (const flag of feature.flags ?? []) expect(FEATURE_FLAGS).toContain(flag);
  });

  it('points every menu item at one of the feature own routes', () => {
    for (const feature of FEATURES.filter((f) => f.menu)) {
      expect(feature.routes.map((r) => r.ref)).toContain(feature.menu!.route);
    }
  });

  it('gives every loyalty route its opt-in check', () => {
    for (const route of FEATURES.flatMap((f) => f.routes).filter((r) => r.access === 'loyalty'))
      expect(route.optIn).toBeDefined();
  });

  it('has base texts in both locales with the same keys, all prefixed by the owner, and every label key exists', async () => {
    const known = new Set<string>();
    for (const table of textTables()) {
      const file = path.join(ENGINE, table);
      if (!existsSync(file)) continue;
      const texts = JSON.parse(readFileSync(file, 'utf8'));
      const owner = table.startsWith('features/')
        ? table.split('/')[1]
        : table === 'core/texts.json'
          ? 'shell'
          : 'account';
      expect(Object.keys(texts['de-DE']).sort()).toEqual(Object.keys(texts['en-GB']).sort());
      for (const key of Object.keys(texts['en-GB'])) {
        expect(key.startsWith(`${owner}.`)).toBe(true);
        known.add(key);
      }
    }
    for (const feature of FEATURES) {
      const actions = feature.actions ? (await feature.actions()).actions : [];
      for (const key of [feature.menu?.labelKey, ...actions.map((a) => a.labelKey)].filter(Boolean)) {
        expect(known.has(key!), `${feature.id}: text key ${key}`).toBe(true);
        expect(key!.startsWith(`${feature.id}.`), `${feature.id}: text key ${key}`).toBe(true);
      }
    }
  });

  it('enables unflagged features always and flagged ones when any of their flags is on', () => {
    expect(isFeatureEnabled({}, [])).toBe(true);
    expect(isFeatureEnabled({ flags: ['faq'] }, [])).toBe(false);
    expect(isFeatureEnabled({ flags: ['faq'] }, ['faq'])).toBe(true);
    // account-flows.md: holiday service is one feature behind three flags.
    const holiday = { flags: ['holiday-redirect', 'holiday-break', 'holiday-download'] as const };
    expect(isFeatureEnabled(holiday, ['holiday-break'])).toBe(true);
    expect(isFeatureEnabled(holiday, ['faq'])).toBe(false);
  });

  it('fails loudly on a duplicate feature id, served route or action id, naming both owners', async () => {
    const a = defineFeature({
      id: 'a',
      routes: [{ ref: ROUTES.faq, access: 'anonymous', screen: async () => ({ default: () => null }) }],
    });
    expect(() => assertUnique([a, { ...a }])).toThrow('Duplicate feature "a"');
    expect(() => assertUnique([a, { id: 'b', routes: a.routes }])).toThrow(
      'Duplicate route "faq" in engine/features/index.ts: declared by "a" and "b"',
    );
    // The actions are lazy modules: their ids are checked as the subscription page loads them.
    const contact = FEATURES.find((feature) => feature.id === 'contact')!;
    const copy = { id: 'copy', routes: [], actions: contact.actions };
    await expect(loadSubscriptionActions(['contact-form'], [contact, copy])).rejects.toThrow(
      'Duplicate action "revoke-cancellation" in engine/features/index.ts: declared by "contact" and "copy"',
    );
  });

  it('declares no action id twice over every feature', async () => {
    const all = await loadSubscriptionActions([...FEATURE_FLAGS]);
    expect(all.length).toBeGreaterThan(10);
    expect(new Set(all.map((action) => action.id)).size).toBe(all.length);
  });

  it('serves only the routes of enabled features, so links to them can be hidden', () => {
    expect(isRouteServed(['faq'], ROUTES.faq)).toBe(true);
    expect(isRouteServed([], ROUTES.faq)).toBe(false);
    expect(isRouteServed([], ROUTES.orders)).toBe(true);
    // Multi-user licences serve the licences page and the anonymous accept page behind their flag.
    expect(isRouteServed(['multi-user-licenses'], ROUTES.subscriptionLicenses)).toBe(true);
    expect(isRouteServed(['multi-user-licenses'], ROUTES.acceptLicense)).toBe(true);
    expect(
      isRouteServed(
        [...FEATURE_FLAGS].filter((flag) => flag !== 'multi-user-licenses'),
        ROUTES.subscriptionLicenses,
      ),
    ).toBe(false);
    // The account flows serve theirs behind their flags.
    expect(isRouteServed(['cancellation'], ROUTES.subscriptionCancellation)).toBe(true);
    expect(isRouteServed([], ROUTES.subscriptionCancellation)).toBe(false);
    expect(isRouteServed(['renewal'], ROUTES.bulkRenewal)).toBe(true);
    expect(isRouteServed(['upgrade'], ROUTES.upgrade)).toBe(true);
    // The account changes too; the holiday service behind any of its three flags.
    expect(isRouteServed(['issue-complaint'], ROUTES.subscriptionComplaint)).toBe(true);
    expect(isRouteServed(['holiday-download'], ROUTES.holidayService)).toBe(true);
    expect(isRouteServed(['address-change'], ROUTES.subscriptionBusinessPartner)).toBe(true);
    expect(isRouteServed([], ROUTES.subscriptionOptIns)).toBe(false);
  });

  it('orders the subscription page buttons as portal-core.md §2 lists them', async () => {
    const all = await ids(
      [
        'renewal',
        'issue-complaint',
        'address-change',
        'holiday-break',
        'payment-method-change',
        'upgrade',
        'cancellation',
        'opt-ins',
      ],
      {},
      makeSubscription({ isRenewal: true }),
    );
    expect(all).toEqual([
      'renewal',
      'complaint',
      'addresses',
      'holiday-service',
      'payment-details',
      'upgrade',
      'cancellation',
      'opt-ins',
    ]);
    expect(
      await ids(['issue-complaint', 'address-change', 'payment-method-change', 'opt-ins'], {
        hiddenActions: ['complaint', 'addresses', 'payment-details', 'opt-ins'],
      }),
    ).toEqual([]);
  });

  it('assembles the menu from the enabled features in order', () => {
    expect(menuItems(['faq', 'contact-form']).map((item) => item.route.id)).toEqual([
      'orders',
      'business-partners',
      'faq',
      'contact',
    ]);
  });
});

describe('subscription page actions come from the registry (portal-core.md §2, §6)', () => {
  it("shows a feature's action when its flag and its capability allow, and not otherwise", async () => {
    // contact: flag contact-form, capability "contact" (always, for a non-component subscription).
    expect(await ids(['contact-form'])).toContain('contact');
    expect(await ids([])).not.toContain('contact');
    // revocation: flag contact-form, capability: status AK and a revocation activity configured.
    const cancelled = makeSubscription({ orderStatus: 'AK', isCancelable: false });
    expect(
      await ids(['contact-form'], { cancellation: { revocationContactActivity: 'REVOKE' } }, cancelled),
    ).toContain('revoke-cancellation');
    expect(
      await ids(['contact-form'], { cancellation: { revocationContactActivity: 'REVOKE' } }),
    ).not.toContain('revoke-cancellation');
    expect(await ids([], { cancellation: { revocationContactActivity: 'REVOKE' } }, cancelled)).not.toContain(
      'revoke-cancellation',
    );
  });

  it('follows the capability rule of engine/domain/capabilities.ts, publication blacklists included', async () => {
    const subscription = makeSubscription();
    const { ctx } = tenantWith(['contact-form'], {
      publicationBlacklists: { 'contact-form': [subscription.publication] },
    });
    expect(can('contact', subscription, ctx)).toBe(false);
    expect(
      await ids(
        ['contact-form'],
        { publicationBlacklists: { 'contact-form': [subscription.publication] } },
        subscription,
      ),
    ).not.toContain('contact');
  });

  it('hides actions the tenant lists in buttons.hiddenActions', async () => {
    expect(await ids(['contact-form'], { hiddenActions: ['contact'] })).toEqual([]);
  });

  it('lists in the declared order and leaves out features that are off', async () => {
    const own = makeSubscription({
      roles: ['AG'],
      orderStatus: 'AK',
      isCancelable: false,
      salesSource: 'GIFT',
    });
    const extra = {
      cancellation: { revocationContactActivity: 'REVOKE' },
      giftCertificate: { salesSources: ['GIFT'] },
      externalSubscriptionLink: { urlTemplate: 'https://shop.example/{orderNumber}' },
    };
    expect(await ids(['contact-form', 'gift-certificate', 'external-subscription-link'], extra, own)).toEqual(
      ['revoke-cancellation', 'contact', 'gift-certificate', 'external-subscription-link'],
    );
    expect(await ids(['gift-certificate'], extra, own)).toEqual(['gift-certificate']);
  });

  it('adds renewal, upgrade and cancellation in the order of §2, each behind its flag and capability', async () => {
    // makeSubscription: ordering party, cancelable; renewable only with isRenewal.
    const renewable = makeSubscription({ isRenewal: true });
    expect(await ids(['renewal', 'upgrade', 'cancellation'], {}, renewable)).toEqual([
      'renewal',
      'upgrade',
      'cancellation',
    ]);
    expect(await ids(['renewal', 'upgrade', 'cancellation'])).toEqual(['upgrade', 'cancellation']);
    expect(await ids(['cancellation'], {}, makeSubscription({ isCancelable: false }))).toEqual([]);
    // §6 "cancellation: ... or when externally managed (WBZA) where it is then refused with a notice".
    expect(
      await ids(['cancellation'], {}, makeSubscription({ isCancelable: false, salesDocumentType: 'WBZA' })),
    ).toEqual(['cancellation']);
    expect(
      await ids(['renewal', 'upgrade', 'cancellation'], { hiddenActions: ['upgrade'] }, renewable),
    ).toEqual(['renewal', 'cancellation']);
  });

  it("shows a registered feature's action behind that feature's own flags", async () => {
    // The holiday service is one feature behind three flags (account-flows.md §6).
    const registry = FEATURES;
    const run = async (features: string[], hiddenActions: string[] = []) => {
      const { tenant, ctx } = tenantWith(features, { hiddenActions });
      return (await subscriptionActions(tenant, makeSubscription(), ctx, registry)).map((a) => a.id);
    };
    expect(await run(['holiday-break'])).toEqual(['holiday-service']);
    expect(await run([])).toEqual([]);
    expect(await run(['holiday-break'], ['holiday-service'])).toEqual([]);
    // The capability refuses a licence manager (§6 "holiday service: ... not licence manager").
    const { tenant, ctx } = tenantWith(['holiday-break']);
    const manager = makeSubscription({
      roles: ['LV'],
      currentRoleBusinessPartner: { ...makeSubscription().currentRoleBusinessPartner, role: 'LV' },
    });
    expect(await subscriptionActions(tenant, manager, ctx, registry)).toEqual([]);
  });
});
