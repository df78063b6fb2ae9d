/** The demo's loyalty rewards name an amount in the tenant's own currency, in each language. */
import { describe, expect, it } from 'vitest';
import { loadTenantFiles } from '../../../tenant';
import { buildDemoData } from '../../../server/seed';
import type { LoyaltyData } from '../../../server/seed/entities/loyalty';

const { tenants } = loadTenantFiles();

describe.each(tenants.map((t) => [t.id, t] as const))('the demo rewards of %s', (_, tenant) => {
  it('name the shop credit in the tenant’s currency in both languages', () => {
    const data = buildDemoData(tenant, new Date('2026-11-29T10:00:00Z')) as ReturnType<typeof buildDemoData> &
      LoyaltyData;
    const credit = data.loyaltyRewards.find((r) => r.id.endsWith('-shop10'))!;
    const symbol = { GBP: '£', EUR: '€' }[data.paymentHistory[0].currency]!;
    expect(credit.name['de-DE']).toContain(symbol);
    expect(credit.name['en-GB']).toContain(symbol);
  });
});
