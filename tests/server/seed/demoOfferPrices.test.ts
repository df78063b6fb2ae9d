/**
 * The demo's offers are priced as their titles say for the subscriptions they are shown to: "3
 * months at half price" costs half of what three months of that subscription cost, "a year for a
 * third" a third of its year.
 */
import { describe, expect, it } from 'vitest';
import { loadTenantFiles } from '../../../tenant';
import { buildDemoData } from '../../../server/seed';
import { cataloguePublications } from '../../../server/seed/catalogue';
import type { DemoTenant } from '../../../server/seed/context';
import type { OfferData } from '../../../server/seed/entities/offers';
import { fieldOf, orderSystemEntity } from '../../../server/operator/entities/orderSystemEntities';
import { readRecord } from '../../../server/operator/entities/orderSystemRecords';

const { tenants } = loadTenantFiles();
const TODAY = new Date('2026-11-29T10:00:00Z');
const cents = (n: number) => Math.round(n * 100);

describe.each(tenants.map((t) => [t.id, t] as const))('the demo offers of %s', (_, tenant) => {
  const data = buildDemoData(tenant, TODAY) as ReturnType<typeof buildDemoData> & OfferData;
  const digital = new Set(
    cataloguePublications(tenant.id, (tenant as DemoTenant).publications)
      .filter((p) => p.kind === 'digital')
      .map((p) => p.publication),
  );
  // Subscriptions in their publication's own format paying one copy's price per cycle (not a
  // bundle's part, paid with its master, nor a company's, ordered with its purchase-order number
  // for several copies or licences).
  const ownFormat = data.subscriptions.filter(
    (s) =>
      s.mix_type === (digital.has(s.publication) ? 'DE' : 'PR') &&
      typeof s.details.currentCyclePaidAmount === 'number' &&
      !s.details.isMultiLicense &&
      s.details.custOrderNumber == null &&
      s.bundle_number === null,
  );

  it('has subscriptions to check', () => {
    expect(ownFormat.length).toBeGreaterThan(0);
  });

  it.each([
    ['KEEP-HALF', 3 * 0.5],
    ['KEEP-DIGITAL', 12 / 3],
    ['RENEW-12', 12],
  ])('prices %s from the monthly price of the subscriptions it is offered to', (offer, months) => {
    for (const s of ownFormat) {
      const monthly = (s.details.currentCyclePaidAmount as number) / Number(s.details.billingFrequency);
      const row = data.offers.find((o) => o.id === `${s.publication}-${offer}`);
      expect(row, `${s.publication}-${offer}`).toBeDefined();
      expect(cents(row!.price), `${s.order_number}: ${monthly} a month`).toBe(cents(monthly * months));
    }
  });

  it('are records the import takes, offer and effect included, as an order system would send them', () => {
    const entity = orderSystemEntity('offers')!;
    expect(data.offers.length).toBeGreaterThan(0);
    for (const row of data.offers) {
      const record: Record<string, unknown> = { version: 1 };
      for (const { column } of entity.columns) {
        const value = (row as unknown as Record<string, unknown>)[column];
        if (value != null) record[fieldOf(column)] = value;
      }
      const read = readRecord(entity, record);
      expect(read.ok ? [] : read.problems, row.id).toEqual([]);
    }
  });
});
