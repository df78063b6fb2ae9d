// @vitest-environment jsdom
/**
 * The invoices list offers the XRechnung beside an invoice's PDF only when the server says that
 * invoice goes to a business and the tenant offers it (`xRechnung` of the payment-history item), in
 * both languages.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PaymentHistory } from '../../../engine/features/subscription/PaymentHistory';
import type { Subscription } from '../../../schemas/generated/subscription';
import { cleanUp, fakeApi, portalConfig, render } from '../../support/renderScreen';

const subscription = {
  id: 'S1',
  roles: ['AG'],
  salesDocumentType: 'ZABO',
  publication: 'ABC',
  orderStatus: 'A',
} as unknown as Subscription;

const tenantSettings = { features: ['payment-history', 'invoice-download'] };
const ctx = { tenant: tenantSettings };
const portal = portalConfig(['core', 'account', 'features/subscription'], tenantSettings);

function history(xRechnung: boolean | undefined) {
  return {
    page: 0,
    totalPages: 1,
    totalItems: 1,
    items: [
      {
        id: 'P1',
        date: '2026-01-01',
        amount: 1234.56,
        currency: 'EUR',
        invoiceStatusCode: 'O',
        invoiceNumber: '9000001235',
        externalDocumentNumber: null,
        documentId: 'DOC-9000001235',
        ...(xRechnung === undefined ? {} : { xRechnung }),
      },
    ],
  };
}

async function show(xRechnung: boolean | undefined, locale: 'en-GB' | 'de-DE' = 'en-GB') {
  const api = fakeApi({ '/subscriptions/S1/payment-history?page=0': history(xRechnung) });
  const { page } = await render(<PaymentHistory subscription={subscription} ctx={ctx} />, {
    api,
    path: '/subscriptions/S1',
    portal,
    locale,
  });
  return [...page.querySelectorAll('button')].map((button) => button.textContent);
}

afterEach(cleanUp);

describe('invoices: the XRechnung download', () => {
  it('is offered beside the PDF when the server says so, in English and German', async () => {
    expect(await show(true)).toEqual(
      expect.arrayContaining(['Invoice 9000001235 as PDF', 'Invoice 9000001235 as XRechnung (XML)']),
    );
    cleanUp();
    expect(await show(true, 'de-DE')).toEqual(
      expect.arrayContaining(['Rechnung 9000001235 als PDF', 'Rechnung 9000001235 als XRechnung (XML)']),
    );
  });

  it('is not offered for a private customer or a tenant without it (false or missing)', async () => {
    for (const value of [false, undefined]) {
      const buttons = await show(value);
      expect(buttons).toContain('Invoice 9000001235 as PDF');
      expect(buttons.some((text) => text?.includes('XRechnung'))).toBe(false);
      cleanUp();
    }
  });
});
