/**
 * A bulk renewal with an item paid by card and one by invoice (account-flows.md §2 "Bulk renewal",
 * §4): both wait for the one card payment, which pays the card item only; the invoice item is
 * invoiced, and its mail says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Subscription } from '../../../schemas/generated/subscription';
import { SHARED_DEMO_EMAIL } from '../../../server/seed';
import { fullOfferFlowTenant, startOfferFlows, type OfferFlowsServer } from '../../support/offerFlowsHarness';

const flows = fullOfferFlowTenant('bulk-pay');
let server: OfferFlowsServer;

beforeAll(async () => {
  server = await startOfferFlows([flows], new Date());
});
afterAll(async () => server?.close());

describe('a bulk renewal by card and by invoice', () => {
  it('pays the card item, invoices the invoice item, and says each as it is', async () => {
    const since = new Date().toISOString();
    const { card, invoice, accepted } = await server.acceptBulkByCardAndInvoice(flows);
    expect(card.s.id).not.toBe(invoice.s.id);
    expect(accepted.body.status).toBe('pending');
    // The payment pays the card item alone.
    const [payment] = await server.db.query<{ description: string; amount: number }>(
      `select description, amount::float8 as amount from payments where tenant_id = $1 and id = $2`,
      [flows.id, accepted.body.pendingPayment.id],
    );
    expect(payment.description).toContain(card.s.orderNumber);
    expect(payment.description).not.toContain(invoice.s.orderNumber);
    // So does its page: "You are paying for" names the card item alone, beside the amount it charges.
    const page = await (await fetch(new URL(accepted.body.url, server.baseUrl))).text();
    expect(page).toContain(card.s.orderNumber);
    expect(page).not.toContain(invoice.s.orderNumber);
    expect(
      (
        await server.payOnSandbox(accepted.body.url, {
          action: 'pay',
          cardNumber: '4242 4242 4242 4242',
          expiry: '12/39',
          holder: 'Demo',
        })
      ).body.status,
    ).toBe('success');
    const mails = (await server.mails(SHARED_DEMO_EMAIL)).filter((m) => m.date >= since);
    const mailOf = (s: Subscription) => mails.find((m) => m.text.includes(s.orderNumber))!;
    expect(mailOf(card.s).text).toMatch(/\(paid\)|\(bezahlt\)/);
    expect(mailOf(invoice.s).text).toMatch(/\(invoiced\)|\(Sie erhalten eine Rechnung\)/);
  });
});
