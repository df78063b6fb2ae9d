/**
 * Access is declared once per route and the session is looked up once per request: routers
 * mounted on overlapping paths (/subscriptions and /subscriptions/:id, the issue calendar's
 * /subscriptions/:id/upcoming-issues) reuse the user the first one found.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import type { Database } from '../../../server/db/database';
import { seedDemoData } from '../../../server/seed';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { createTestOutbox, signInByMagicLink } from '../../support/outbox';

const tenant = makeServerTenant({
  id: uniqueTenantId('lookup'),
  name: 'Verlag Einmal',
  hosts: ['lookup.test'],
  defaultLocale: 'de-DE',
  features: ['payment-history', 'issue-history', 'issue-calendar'],
  login: { magicLink: true },
});
const outbox = createTestOutbox('portal-lookup-');
let sessionLookups = 0;
let close: () => Promise<void>;
let client: ReturnType<typeof browserLikeClient>;

/** The test database, counting the statements that read a session. */
function counting(db: Database): Database {
  return {
    ...db,
    query: (sql, params) => {
      if (/from sessions s\b/.test(sql)) sessionLookups += 1;
      return db.query(sql, params);
    },
    transaction: db.transaction.bind(db),
    close: db.close.bind(db),
  } as Database;
}

beforeAll(async () => {
  const db = await getTestDatabase();
  const [login] = await seedDemoData(db, [tenant]);
  const { app } = createApp({
    db: counting(db),
    tenants: [tenant],
    distDir: path.join(outbox.dir, 'dist'),
    mailer: outbox.mailer,
  });
  const server = await listen(app);
  close = server.close;
  ({ client } = await signInByMagicLink(outbox, {
    baseUrl: server.baseUrl,
    tenantId: tenant.id,
    email: login.email,
    firstPath: '/faq',
  }));
});

afterAll(async () => close?.());

describe('one session lookup per authenticated request', () => {
  it('looks the session up once, however many routers guard the path', async () => {
    const [subscription] = (await client.get('/subscriptions')).body as Array<{ id: string }>;
    for (const path of [
      '/subscriptions',
      `/subscriptions/${subscription.id}`,
      `/subscriptions/${subscription.id}/payment-history?page=0`,
      `/subscriptions/${subscription.id}/upcoming-issues`,
    ]) {
      sessionLookups = 0;
      const answer = await client.get(path);
      expect(answer.status, path).toBeLessThan(500);
      expect(sessionLookups, path).toBe(1);
    }
  });
});
