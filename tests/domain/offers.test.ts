import { describe, expect, it } from 'vitest';
import { makeSubscription } from '../support/subscriptionBuilder';
import {
  bulkLoginErrors,
  bulkSelection,
  hasPaymentConflict,
  isBulkRenewalSubscription,
  isPaymentMessage,
  orderNumberLoginErrors,
  upgradeOffers,
} from '../../engine/domain/offers';

const fields = (errors: Array<{ field: string; code: string }>) => errors.map((e) => `${e.field}:${e.code}`);

describe('renewal and upgrade login (account-flows.md §5)', () => {
  it('requires order number and last name, the order number 10 digits starting with 4', () => {
    expect(fields(orderNumberLoginErrors({ orderNumber: '', lastName: '' }))).toEqual([
      'orderNumber:required',
      'lastName:required',
    ]);
    expect(fields(orderNumberLoginErrors({ orderNumber: '5123456789', lastName: 'Schmidt' }))).toEqual([
      'orderNumber:invalid',
    ]);
    expect(fields(orderNumberLoginErrors({ orderNumber: '412345678', lastName: 'Schmidt' }))).toEqual([
      'orderNumber:invalid',
    ]);
    expect(orderNumberLoginErrors({ orderNumber: '4123456789', lastName: 'Schmidt' })).toEqual([]);
  });
});

describe('bulk renewal login (§5)', () => {
  it('requires e-mail and last name of at most 35 characters and a zip code of 4 to 10', () => {
    expect(fields(bulkLoginErrors({ email: '', lastName: '', zipcode: '' }))).toEqual([
      'email:required',
      'lastName:required',
      'zipcode:required',
    ]);
    expect(
      fields(
        bulkLoginErrors({ email: `${'a'.repeat(30)}@example.com`, lastName: 'x'.repeat(36), zipcode: '123' }),
      ),
    ).toEqual(['email:too_long', 'lastName:too_long', 'zipcode:too_short']);
    expect(fields(bulkLoginErrors({ email: 'anna', lastName: 'Schmidt', zipcode: '12345678901' }))).toEqual([
      'email:invalid',
      'zipcode:too_long',
    ]);
    expect(bulkLoginErrors({ email: 'anna@example.com', lastName: 'Schmidt', zipcode: '1096' })).toEqual([]);
  });
});

describe('upgrade offers (§2, tenant upgrade.upgradeTimes)', () => {
  it('lists only offers whose upgrade time the tenant offers', () => {
    const now = { id: 'now', upgradeOption: { upgradeTime: 'NOW' as const } };
    const next = { id: 'next', upgradeOption: { upgradeTime: 'NEXT_CYCLE' as const } };
    const plain: { id: string; upgradeOption?: { upgradeTime: 'NOW' | 'NEXT_CYCLE' } } = { id: 'plain' };
    expect(upgradeOffers([now, next, plain], ['NEXT_CYCLE']).map((o) => o.id)).toEqual(['next', 'plain']);
    expect(upgradeOffers([now, next], ['NOW', 'NEXT_CYCLE']).map((o) => o.id)).toEqual(['now', 'next']);
  });
});

describe('bulk renewal (§2, §3, §5, §6)', () => {
  it('concerns active renewable subscriptions the user receives (role WE) that a renewal can take', () => {
    const tenant = { features: ['renewal'] };
    const base = makeSubscription({ orderStatus: 'A', roles: ['WE'], isRenewal: true });
    expect(isBulkRenewalSubscription(base, tenant)).toBe(true);
    expect(isBulkRenewalSubscription({ ...base, roles: ['AG'] }, tenant)).toBe(false);
    expect(isBulkRenewalSubscription({ ...base, isRenewal: false }, tenant)).toBe(false);
    expect(isBulkRenewalSubscription({ ...base, orderStatus: 'I' }, tenant)).toBe(false);
    // What the server refuses the screen does not list (one refusal failed the whole page).
    expect(isBulkRenewalSubscription({ ...base, salesDocumentType: 'WBZA' }, tenant)).toBe(false);
    const bundle = { ...base.renewal!, renewalBundleComponent: 'S' as const };
    expect(isBulkRenewalSubscription({ ...base, renewal: bundle }, tenant)).toBe(false);
    const auto = { ...base.renewal!, autoRenewal: true };
    expect(isBulkRenewalSubscription({ ...base, renewal: auto }, tenant)).toBe(false);
    expect(
      isBulkRenewalSubscription(
        { ...base, renewal: auto },
        { ...tenant, renewal: { forceWithAutoRenewal: true } },
      ),
    ).toBe(true);
    const blacklisted = { ...tenant, publicationBlacklists: { renewal: [base.publication] } };
    expect(isBulkRenewalSubscription(base, blacklisted)).toBe(false);
  });

  it('sends each chosen offer under its key with its first payment provider and leaves out the rest', () => {
    const selection = bulkSelection({
      SKZ4123456789: {
        recommendationId: 'R1',
        paymentProviders: [{ PAYMENT_PROVIDER: 'CREDIT_CARD' }, { PAYMENT_PROVIDER: 'PAYPAL' }],
      },
      SKZ4987654321: null,
      SKZ4000000001: { recommendationId: 'R2', paymentProviders: [{ PAYMENT_PROVIDER: 'DIRECT_DEBIT' }] },
    });
    expect(selection.selectedRecommendations).toEqual({
      SKZ4123456789: { recommendationId: 'R1', paymentProviders: [{ PAYMENT_PROVIDER: 'CREDIT_CARD' }] },
      SKZ4000000001: { recommendationId: 'R2', paymentProviders: [{ PAYMENT_PROVIDER: 'DIRECT_DEBIT' }] },
    });
    expect(hasPaymentConflict(selection.providers)).toBe(true);
    expect(
      hasPaymentConflict(
        bulkSelection({ a: { recommendationId: 'R1', paymentProviders: [{ PAYMENT_PROVIDER: 'INVOICE' }] } })
          .providers,
      ),
    ).toBe(false);
  });
});

describe('payment popup messages (§4)', () => {
  const popup = {};
  const data = { type: 'portal-payment', paymentId: 'P1', status: 'success' };
  const base = 'https://portal.example/t/acme/subscriptions/S1/renewal';

  it('accepts the payment page message from the popup, from the origin of its URL', () => {
    expect(
      isPaymentMessage(
        { origin: 'https://portal.example', source: popup, data },
        popup,
        '/api/payments/P1',
        base,
      ),
    ).toBe(true);
    expect(
      isPaymentMessage(
        { origin: 'https://pay.example', source: popup, data },
        popup,
        'https://pay.example/p/1',
        base,
      ),
    ).toBe(true);
  });

  it('ignores messages from another origin, another window or of another kind', () => {
    expect(
      isPaymentMessage(
        { origin: 'https://evil.example', source: popup, data },
        popup,
        '/api/payments/P1',
        base,
      ),
    ).toBe(false);
    expect(
      isPaymentMessage(
        { origin: 'https://portal.example', source: {}, data },
        popup,
        '/api/payments/P1',
        base,
      ),
    ).toBe(false);
    expect(
      isPaymentMessage(
        { origin: 'https://portal.example', source: popup, data: 'success' },
        popup,
        '/api/payments/P1',
        base,
      ),
    ).toBe(false);
    expect(
      isPaymentMessage(
        { origin: 'https://portal.example', source: popup, data: { type: 'other' } },
        popup,
        '/api/payments/P1',
        base,
      ),
    ).toBe(false);
  });
});
