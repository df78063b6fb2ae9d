import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../../server/db/database';
import { createSeedContext } from '../../../server/seed/context';
import { buildDemoData } from '../../../server/seed/demoData';
import { users } from '../../../server/seed/entities/users';
import { SEED_MODULES } from '../../../server/seed/seedModules';
import { ORDER_SYSTEM_ENTITIES } from '../../../server/operator/entities/orderSystemEntities';

const TODAY = new Date(Date.UTC(2026, 2, 15));

describe('seed modules', () => {
  it('say which handle is missing when a module is listed before the one that makes it', () => {
    const ctx = createSeedContext({ id: 'stadtkurier', defaultLocale: 'de-DE' }, TODAY);
    expect(() => users.build?.(ctx)).toThrow(/'personas'/);
  });

  it("write every table of the portal once, in order, and leave the order system's tables to the import", async () => {
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
    // The order system's data goes in through the import before the modules write (seedDemoData.ts):
    // no module writes those tables itself.
    const imported = ORDER_SYSTEM_ENTITIES.flatMap((e) => [
      e.table,
      ...(e.children ? [e.children.table] : []),
    ]);
    expect(tables.filter((table) => imported.includes(table))).toEqual([]);
    // Foreign keys of server/db/migrations between the portal's own tables: referenced table first.
    const before: Array<[string, string]> = [
      ['users', 'user_business_partners'],
      ['users', 'payments'],
      ['payments', 'offer_acceptances'],
    ];
    for (const [referenced, referencing] of before) {
      expect(tables.indexOf(referenced), `${referenced} before ${referencing}`).toBeGreaterThan(-1);
      expect(tables.indexOf(referenced), `${referenced} before ${referencing}`).toBeLessThan(
        tables.indexOf(referencing),
      );
    }
  });

  it("import the order system's entities in an order whose references point backwards", () => {
    const names = ORDER_SYSTEM_ENTITIES.map((entity) => entity.name);
    for (const [index, entity] of ORDER_SYSTEM_ENTITIES.entries())
      for (const reference of [...(entity.references ?? []), ...(entity.children?.references ?? [])])
        expect(names.indexOf(reference.entity), `${entity.name} -> ${reference.entity}`).toBeLessThan(index);
  });

  it('have unique names', () => {
    const names = SEED_MODULES.map((module) => module.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
