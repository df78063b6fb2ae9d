/**
 * What a /preview link pins (docs/operators.md "The preview page"): tenants, screen (route id or path), width,
 * language and the demo login per frame; and the screens the route picker lists from the registry.
 */
import { describe, expect, it } from 'vitest';
import { previewState } from '../../../server/preview/previewPage';
import { demoIdsFrom, fillScreenPath, previewScreens } from '../../../server/preview/previewScreens';
import { TenantDirectory } from '../../../server/tenancy/tenantResolver';
import { SHARED_DEMO_EMAIL } from '../../../server/seed';
import { makeServerTenant } from '../../support/builders';

const tenant = (id: string, features: string[]) =>
  makeServerTenant({
    id,
    demo: true,
    name: id,
    hosts: [],
    defaultLocale: 'de-DE',
    locales: ['de-DE', 'en-GB'],
    features,
    embedding: { isEmbedded: false, parentOrigins: [] },
    login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
  });
const directory = new TenantDirectory([tenant('alpha', ['faq']), tenant('beta', ['holiday-redirect'])]);

describe('previewState', () => {
  it('reads a route id, keeps old path links working, and takes a custom path over both', () => {
    expect(previewState({ route: 'subscription' }, directory).route).toMatchObject({
      screen: { id: 'subscription' },
      path: '/subscriptions/:id',
    });
    expect(previewState({ route: '/faq' }, directory).route).toMatchObject({
      screen: { id: 'faq' },
      path: '/faq',
    });
    expect(previewState({ route: 'faq', path: '/faq?q=1' }, directory).route).toEqual({ path: '/faq?q=1' });
    expect(previewState({ route: 'no-such-screen' }, directory).route.path).toBe('/orders');
  });

  it('bounds the width, reads a custom one, and accepts only de and en', () => {
    expect(previewState({ width: '768' }, directory).width).toBe(768);
    expect(previewState({ width: 'custom', customWidth: '412' }, directory).width).toBe(412);
    expect(previewState({ width: '99999' }, directory).width).toBe(2560);
    expect(previewState({ lang: 'fr' }, directory).lang).toBe('');
  });

  it('signs a frame in only as one of its demo logins; user.<tenant> overrides user, empty meaning signed out', () => {
    const state = previewState(
      { tenants: 'alpha,beta', user: SHARED_DEMO_EMAIL.toUpperCase(), 'user.beta': '' },
      directory,
    );
    expect(state.tenants.map((t) => t.id)).toEqual(['alpha', 'beta']);
    expect(state.users.get('alpha')).toBe(SHARED_DEMO_EMAIL);
    expect(state.users.has('beta')).toBe(false);
    expect(previewState({ user: 'stranger@example.com' }, directory).users.size).toBe(0);
  });

  it('takes the tenants from the checkboxes (t=…) too, ignoring unknown ids', () => {
    expect(previewState({ t: ['beta', 'nobody'] }, directory).tenants.map((t) => t.id)).toEqual(['beta']);
  });
});

describe('the screens of the route picker', () => {
  it('lists the registry routes a tenant serves, without the catch-all', () => {
    const ids = previewScreens({ features: ['holiday-redirect'] }).map((s) => s.id);
    expect(ids).toContain('holiday-service');
    expect(previewScreens({ features: [] }).map((s) => s.id)).not.toContain('holiday-service');
    expect(previewScreens().map((s) => s.id)).not.toContain('catch-all');
  });

  it('lists the bulk renewal only for a tenant whose renewal.bulkRenewal is on (else it shows the disabled notice)', () => {
    const ids = (bulkRenewal: boolean) =>
      previewScreens({ features: ['renewal'], renewal: { bulkRenewal } }).map((s) => s.id);
    expect(ids(true)).toContain('bulk-renewal');
    expect(ids(false)).not.toContain('bulk-renewal');
    expect(ids(false)).toContain('renewal');
  });

  it('fills path parameters from an active subscription first, and gives up when an id is missing', () => {
    const ids = demoIdsFrom([
      { id: 'S-cancelled', orderStatus: 'S', publication: 'OLD' },
      {
        id: 'S 1',
        orderStatus: 'AK',
        publication: 'TWM',
        currentRoleBusinessPartner: { bpNumber: '1000001' },
      },
    ]);
    expect(ids).toEqual({ id: 'S 1', bpNumber: '1000001', bundleNumber: undefined, publication: 'TWM' });
    expect(fillScreenPath('subscriptions/:id/business-partners/:bpNumber', ids)).toBe(
      'subscriptions/S%201/business-partners/1000001',
    );
    expect(fillScreenPath('bundle-group/:bundleNumber', ids)).toBeUndefined();
  });
});
