/**
 * The example export in docs/examples/import (docs/going-live.md "3. Import"): it imports as it is,
 * and the subscription it describes is shown to its ordering party with what its `details` say
 * (cancellable, paid by direct debit, monthly), so the example an operator copies stays true.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database';
import { runImport } from '../../../cli/commands/import';
import { listSubscriptionsForUser } from '../../../server/store/subscriptionStore';
import { createUser, linkBusinessPartner } from '../../../server/store/userStore';
import { getTestDatabase, uniqueTenantId } from '../../support/database';

const EXAMPLES = path.resolve(import.meta.dirname, '../../../docs/examples/import');
let db: Database;
beforeAll(async () => {
  db = await getTestDatabase();
});

describe('docs/examples/import', () => {
  it('imports as it is, and shows the subscription its details describe', async () => {
    const tenantId = uniqueTenantId('import-example');
    const { result, text } = await runImport(db, tenantId, EXAMPLES);
    expect(text).not.toContain('Nothing was written');
    expect(result.ok).toBe(true);
    expect(result.entities.map((e) => [e.entity, e.created])).toEqual([
      ['publications', 1],
      ['business-partners', 1],
      ['subscriptions', 1],
      ['payments', 1],
    ]);
    const user = await createUser(db, tenantId, { email: 'anna.berg@example.com' });
    await linkBusinessPartner(db, tenantId, user.id, '0099000001');
    const [subscription] = await listSubscriptionsForUser(db, tenantId, user.id, { locale: 'de-DE' });
    expect(subscription).toMatchObject({
      id: '3010000001',
      displayName: 'Rhein-Bote – Print',
      isCancelable: true,
      paymentDetails: { paymentMethod: 'direct_debit' },
      // Codes, which every screen names in its own language (account.billingFrequency.01,
      // account.mixType.PR), not the order system's words in one.
      billingFrequency: '01',
      mixType: 'PR',
    });
    // A second run of the same export changes nothing.
    const again = await runImport(db, tenantId, EXAMPLES);
    expect(again.result.entities.every((e) => e.created === 0 && e.updated === 0)).toBe(true);
  });
});
