import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../../server/db/database';
import { createSeedContext } from '../../../server/seed/context';
import { buildDemoData } from '../../../server/seed/demoData';
import { users } from '../../../server/seed/entities/users';
import { SEED_MODULES } from '../../../server/seed/seedModules';

const TODAY = new Date(Date.UTC(2026, 2, 15));

describe('seed modules', () => {
  it('say which handle is missing when a module is listed before the one that makes it', () => {
    const ctx = createSeedContext({ id: 'stadtkurier', defaultLocale: 'de-DE' }, TODAY);
    expect(() => users.build?.(ctx)).toThrow(/'personas'/);
  });

  it('write every table once, each after the tables its rows point to', async () => {
    const data = buildDemoData({ id: 'northern-review', defaultLocale: 'en-GB' }, TODAY);
    const tables: string[] = [];
    const tx: Queryable = {
      query: async (sql: string) => {
        tables.push(/insert into (\w+)/.exec(sql)?.[1] ?? sql);
        return [];
      },
    } as unknown as Queryable;
    for (const module of SEED_MODULES) await module.insert?.(tx, data);
    expect(new Set(tables).size).toBe(tables.length);
    // Foreign keys of server/db/migrations: referenced table first.
    const before: Array<[string, string]> = [
      ['publications', 'issues'],
      ['publications', 'subscriptions'],
      ['users', 'user_business_partners'],
      ['business_partners', 'user_business_partners'],
      ['business_partners', 'subscription_roles'],
      ['subscriptions', 'subscription_roles'],
      ['subscriptions', 'payment_history'],
      ['subscriptions', 'delivered_issues'],
      ['purchase_orders', 'purchase_order_roles'],
      ['business_partners', 'purchase_order_roles'],
      ['business_partners', 'pending_orders'],
      ['publications', 'offers'],
      ['users', 'payments'],
      ['payments', 'offer_acceptances'],
      ['offers', 'offer_acceptances'],
      ['subscriptions', 'offer_acceptances'],
      ['subscriptions', 'holiday_services'],
      ['business_partners', 'opt_ins'],
      ['business_partners', 'future_addresses'],
      ['subscriptions', 'complaints'],
    ];
    for (const [referenced, referencing] of before) {
      expect(tables.indexOf(referenced), `${referenced} before ${referencing}`).toBeGreaterThan(-1);
      expect(tables.indexOf(referenced), `${referenced} before ${referencing}`).toBeLessThan(
        tables.indexOf(referencing),
      );
    }
  });

  it('have unique names', () => {
    const names = SEED_MODULES.map((module) => module.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
