/**
 * The demo's invoices as a tax adviser would read them (docs/invoices.md "Invoices and documents"): a
 * business customer who signs in and gets the XRechnung beside the PDF, an invoice of two lines at
 * the rates of the seller's country (a printed title at 7 % in Germany or 0 % in the UK, a webinar
 * pass at the standard rate), and partly paid invoices that say what was paid — all of them
 * records the order-system import takes.
 */
import { describe, expect, it } from 'vitest';
import { loadTenantFiles } from '../../../tenant';
import { buildDemoData } from '../../../server/seed';
import { canMakeXRechnung, isBusiness } from '../../../server/documents/eInvoice';
import { fieldOf, orderSystemEntity } from '../../../server/operator/entities/orderSystemEntities';
import { readRecord } from '../../../server/operator/entities/orderSystemRecords';

const { tenants } = loadTenantFiles();
const TODAY = new Date('2026-11-28T10:00:00Z');

describe.each(tenants.map((t) => [t.id, t] as const))('the demo invoices of %s', (_, tenant) => {
  const data = buildDemoData(tenant, TODAY);
  const company = data.businessPartners.find((bp) => bp.company1)!;
  const login = data.logins.find((l) => l.email === company.email_address);
  const companySubscriptions = new Set(
    data.subscriptionRoles
      .filter((r) => r.bp_number === company.bp_number && r.role === 'RE')
      .map((r) => r.subscription_id),
  );
  const payments = data.paymentHistory.filter((p) => companySubscriptions.has(p.subscription_id));

  it('has a business customer with a login of its own, billed as a company (the XRechnung button’s condition)', () => {
    expect(login?.description).toContain('business customer');
    expect(data.userBusinessPartners).toContainEqual({ email: login!.email, bp_number: company.bp_number });
    expect(
      isBusiness({
        bpNumber: company.bp_number,
        firstName: null,
        lastName1: null,
        company1: company.company1,
        street: company.street,
        streetNumber: company.street_number,
        zipcode: company.zipcode,
        city: company.city,
        countryCode: company.country_code,
      }),
    ).toBe(true);
    expect(companySubscriptions.size).toBe(2);
    if (['stadtkurier', 'technikwelt'].includes(tenant.id)) expect(canMakeXRechnung(tenant)).toBe(true);
  });

  it('invoices the business customer two lines at the rates of the seller’s country', () => {
    const uk = tenant.invoice?.publisher?.countryCode === 'GB';
    const withLines = payments.filter((p) => p.lines);
    expect(withLines.length).toBeGreaterThan(0);
    for (const payment of withLines)
      expect(payment.lines!.map((l) => [l.vatCategory, l.vatRatePercent, l.quantity ?? 1])).toEqual(
        uk
          ? [
              ['Z', 0, 5],
              ['S', 20, 1],
            ]
          : [
              ['S', 7, 5],
              ['S', 19, 1],
            ],
      );
  });

  it('says on the subscription what this period’s invoice says was paid', () => {
    const withLines = data.subscriptions.filter((s) =>
      data.paymentHistory.some((p) => p.subscription_id === s.id && p.lines),
    );
    expect(withLines.length).toBeGreaterThan(0);
    for (const s of withLines) {
      const newest = data.paymentHistory.find((p) => p.subscription_id === s.id)!;
      expect(s.details.currentCyclePaidAmount, s.order_number).toBe(
        Number(newest.paid_amount ?? newest.amount),
      );
    }
  });

  it('states what was paid of every partly paid invoice, and the import takes every payment record', () => {
    const partly = data.paymentHistory.filter((p) => p.invoice_status_code === 'T');
    expect(partly.length).toBeGreaterThan(0);
    for (const p of partly) {
      expect(Number(p.paid_amount)).toBeGreaterThan(0);
      expect(Number(p.paid_amount)).toBeLessThan(Number(p.amount));
    }
    const entity = orderSystemEntity('payments')!;
    for (const row of payments) {
      const record: Record<string, unknown> = { version: 1 };
      for (const { column } of entity.columns) {
        const value = (row as unknown as Record<string, unknown>)[column];
        if (value != null) record[fieldOf(column)] = value;
      }
      const read = readRecord(entity, record);
      expect(read.ok ? [] : read.problems).toEqual([]);
    }
  });
});

describe.each(tenants.map((t) => [t.id, t] as const))('the demo payment history of %s', (_, tenant) => {
  const data = buildDemoData(tenant, TODAY);

  it('dates every invoice on a day of its subscription’s billing cycle, counted from the start', () => {
    const byId = new Map(data.subscriptions.map((s) => [s.id, s]));
    const checked = new Set<string>();
    for (const payment of data.paymentHistory) {
      const s = byId.get(payment.subscription_id)!;
      const cycle = Number(s.details.billingFrequency);
      if (!(cycle > 0)) continue;
      const [fromYear, fromMonth] = s.valid_from.split('-').map(Number);
      const [year, month] = payment.date.split('-').map(Number);
      const months = (year - fromYear) * 12 + (month - fromMonth);
      expect(months % cycle, `${s.id} ${payment.date} (from ${s.valid_from}, every ${cycle} months)`).toBe(0);
      expect(payment.date >= s.valid_from).toBe(true);
      expect(payment.date <= TODAY.toISOString().slice(0, 10)).toBe(true);
      checked.add(s.id);
    }
    expect(checked.size).toBeGreaterThan(3);
  });
});
