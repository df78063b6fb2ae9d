import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PAGE_SIZE, pageWindow, parsePageNumber, totalPages } from '../../engine/domain/paging';
import { DEFAULT_SHIPPING_PROVIDERS, shippingStatus } from '../../engine/domain/shipping';
import {
  canRequestPurchaseOrderInvoice,
  invoiceStatusTone,
  issueDownloadState,
  purchaseOrderDownload,
} from '../../engine/domain/purchaseOrders';
import {
  invoiceFileName,
  invoiceRequestOutcome,
  paymentStatusTone,
} from '../../engine/domain/paymentHistory';
import { linkFieldErrors, linkFields } from '../../engine/domain/linkSubscription';
import ordersTexts from '../../engine/features/orders/texts.json';

describe('paging (§9: 10 per page, zero-based, one neighbour each side)', () => {
  it('shows the current page and one neighbour each side', () => {
    expect(PAGE_SIZE).toBe(10);
    expect(pageWindow(0, 3)).toEqual([0, 1]);
    expect(pageWindow(1, 3)).toEqual([0, 1, 2]);
    expect(pageWindow(4, 5)).toEqual([3, 4]);
    expect(pageWindow(0, 1)).toEqual([0]);
  });
  it('counts pages and reads page numbers defensively', () => {
    expect(totalPages(29)).toBe(3);
    expect(totalPages(0)).toBe(1);
    expect(parsePageNumber('2')).toBe(2);
    expect(parsePageNumber('-1')).toBe(0);
    expect(parsePageNumber(['1'])).toBe(0);
  });
});

describe('shipping status (§3 PackageInfo, §9)', () => {
  it('is pending until scan status 90, then names the provider and builds its tracking link', () => {
    expect(
      shippingStatus(
        { scanStatus: '', versWeg: '07', consignmentNumber: null, deliveryDate: null },
        DEFAULT_SHIPPING_PROVIDERS,
      ).state,
    ).toBe('pending');
    const shipped = shippingStatus(
      { scanStatus: '90', versWeg: '07', consignmentNumber: '0034 1', deliveryDate: '2026-01-02' },
      DEFAULT_SHIPPING_PROVIDERS,
    );
    expect(shipped).toMatchObject({
      state: 'shipped',
      providerCode: '07',
      providerName: null,
      deliveryDate: '2026-01-02',
    });
    expect(shipped.trackingUrl).toContain('0034%201');
  });
  it('has every provider code of §9 and no tracking link for self pickup', () => {
    expect(DEFAULT_SHIPPING_PROVIDERS.map((p) => p.code).sort()).toEqual([
      '01',
      '02',
      '07',
      '08',
      '09',
      '16',
      '17',
      '91',
      '92',
    ]);
    expect(
      shippingStatus(
        { scanStatus: '90', versWeg: '16', consignmentNumber: 'X', deliveryDate: null },
        DEFAULT_SHIPPING_PROVIDERS,
      ).trackingUrl,
    ).toBeNull();
  });
  it("is the tenant schema's default list, which a tenant file without one gets", () => {
    const schema = JSON.parse(readFileSync('schemas/tenant.schema.json', 'utf8'));
    const byCode = (list: readonly { code: string }[]) =>
      [...list].sort((a, b) => a.code.localeCompare(b.code));
    expect(byCode(DEFAULT_SHIPPING_PROVIDERS)).toEqual(
      byCode(schema.properties.shippingStatus.properties.providers.default),
    );
  });
  it('names every default provider by a text in both locales', () => {
    for (const locale of ['de-DE', 'en-GB'] as const) {
      for (const { code } of DEFAULT_SHIPPING_PROVIDERS)
        expect((ordersTexts[locale] as Record<string, string>)[`orders.shippingProvider.${code}`]).toMatch(
          /\S/,
        );
    }
    expect(ordersTexts['en-GB']['orders.shippingProvider.16']).toBe('Self pickup');
  });
  it('uses the tenant provider list instead of the default', () => {
    const own = [
      { code: '07', name: 'Own DHL', trackingUrlTemplate: 'https://t.example/{consignmentNumber}' },
    ];
    const shipped = shippingStatus(
      { scanStatus: '90', versWeg: '07', consignmentNumber: 'A1', deliveryDate: null },
      own,
    );
    expect(shipped.trackingUrl).toBe('https://t.example/A1');
    expect(shipped).toMatchObject({ providerCode: '07', providerName: 'Own DHL' });
  });
});

describe('purchase orders and payment history (§2, §4)', () => {
  it('colours invoice status badges: open red, paid green, overpaid orange', () => {
    expect([1, 2, 3].map((s) => invoiceStatusTone(s as 1 | 2 | 3))).toEqual(['error', 'success', 'warning']);
  });
  it('colours payment history codes: A green, T orange, O indigo, U gray', () => {
    expect((['A', 'T', 'O', 'U'] as const).map(paymentStatusTone)).toEqual([
      'success',
      'warning',
      'open',
      'neutral',
    ]);
  });
  it('offers downloads only for found (expired disabled) when the tenant supports them', () => {
    const on = { features: ['purchase-order-download'] };
    expect(purchaseOrderDownload(on, 'found')).toBe('enabled');
    expect(purchaseOrderDownload(on, 'expired')).toBe('disabled');
    expect(purchaseOrderDownload(on, 'not_found')).toBe('hidden');
    expect(purchaseOrderDownload({ features: [] }, 'found')).toBe('hidden');
    expect(issueDownloadState('unknown')).toBe('hidden');
  });
  it('offers the purchase-order invoice request to the ordering party only', () => {
    const on = { features: ['invoice-request'] };
    expect(canRequestPurchaseOrderInvoice(on, { role: 'AG', invoiceNumber: '1' })).toBe(true);
    expect(canRequestPurchaseOrderInvoice(on, { role: 'WE', invoiceNumber: '1' })).toBe(false);
    expect(canRequestPurchaseOrderInvoice({ features: [] }, { role: 'AG', invoiceNumber: '1' })).toBe(false);
  });
  it('decides invoice request outcomes and file names', () => {
    expect(invoiceRequestOutcome(0, true)).toBe('not_relevant');
    expect(invoiceRequestOutcome(9.9, true)).toBe('success');
    expect(invoiceRequestOutcome(9.9, false)).toBe('forwarded');
    expect(invoiceFileName('DOC-9100')).toBe('DOC-9100.pdf');
    expect(invoiceFileName('../x y')).toBe('.._x_y.pdf');
  });
});

describe('link subscription field rules (§5)', () => {
  it('asks for the publication only with several order-system clients and not by bp number', () => {
    expect(linkFields({ hasMultipleAvsClients: true }, false).publication).toBe(true);
    expect(
      linkFields({ hasMultipleAvsClients: true, linkSubscription: { allowBpNumber: true } }, true)
        .publication,
    ).toBe(false);
    expect(linkFields({}, false).publication).toBe(false);
  });
  it('shows the last name by bp number, or without preferred role and gift question', () => {
    expect(linkFields({}, false).lastName).toBe(true);
    expect(linkFields({ linkSubscription: { askGiftQuestion: true } }, false).lastName).toBe(false);
    expect(linkFields({ linkSubscription: { preferredRole: 'AG' } }, false).lastName).toBe(false);
    expect(
      linkFields({ linkSubscription: { askGiftQuestion: true, allowBpNumber: true } }, true).lastName,
    ).toBe(true);
  });
  it('requires the gift answer when asked and not linking by bp number', () => {
    const settings = { linkSubscription: { askGiftQuestion: true, allowBpNumber: true } };
    expect(
      linkFieldErrors(settings, { byBpNumber: false, orderNumber: '4123456789', zipcode: '1' }).preferredRole,
    ).toBe('required');
    expect(
      linkFieldErrors(settings, { byBpNumber: true, bpNumber: '0012345678', lastName: 'A', zipcode: '1' }),
    ).toEqual({});
  });
  it('checks order numbers (8 to 10 digits; 10 on the server), bp numbers (10 digits) and zip codes (max 10)', () => {
    const base = { byBpNumber: false, zipcode: '10969' };
    expect(
      linkFieldErrors({ linkSubscription: { preferredRole: 'AG' } }, { ...base, orderNumber: '41234567' }),
    ).toEqual({});
    expect(
      linkFieldErrors(
        { linkSubscription: { preferredRole: 'AG' } },
        { ...base, orderNumber: '41234567' },
        { strictOrderNumber: true },
      ).orderNumber,
    ).toBe('invalid_order_number');
    expect(
      linkFieldErrors({ linkSubscription: { preferredRole: 'AG' } }, { ...base, orderNumber: '4123a' })
        .orderNumber,
    ).toBe('invalid_order_number');
    expect(
      linkFieldErrors(
        { linkSubscription: { allowBpNumber: true } },
        { byBpNumber: true, bpNumber: '123', lastName: 'X', zipcode: '1' },
      ).bpNumber,
    ).toBe('invalid_bp_number');
    expect(
      linkFieldErrors(
        { linkSubscription: { preferredRole: 'AG' } },
        { ...base, orderNumber: '4123456789', zipcode: '12345678901' },
      ).zipcode,
    ).toBe('too_long');
  });
});
