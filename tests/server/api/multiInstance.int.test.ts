/**
 * Several server instances on one database (docs/architecture.md "Running more than one instance"): the
 * server keeps nothing in memory another instance needs. Two apps, each with its own connection pool on the
 * same PostgreSQL database, behind no shared memory at all.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import type { Database } from '../../../server/db/database';
import { openDatabase } from '../../../server/db/openDatabase';
import { seedDemoData } from '../../../server/seed';
import { createTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { createTestOutbox, firstLink } from '../../support/outbox';

const tenant = makeServerTenant({
  id: uniqueTenantId('multi'),
  name: 'Verlag Zwei Instanzen',
  hosts: ['multi.test'],
  defaultLocale: 'de-DE',
  features: ['payment-history', 'invoice-request'],
  embedding: { isEmbedded: false, parentOrigins: [] },
  login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
});

const perAddress = 3;
let first: Database;
// The mail queue is in the database both instances share, which this file opens itself.
const outbox = createTestOutbox('portal-multi-outbox-', () => first);
let second: Database;
let urlA: string;
let urlB: string;
const closers: Array<() => Promise<void>> = [];
let email: string;

async function lastLinkTo(address: string): Promise<string> {
  return firstLink((await outbox.mails(address)).at(-1)!.text).searchParams.get('p')!;
}

beforeAll(async () => {
  const created = await createTestDatabase();
  first = created.db;
  // The second instance: its own pool on the same database, as another process would have.
  second = await openDatabase({ url: created.url, poolSize: 5 });
  const logins = await seedDemoData(first, [tenant]);
  email = logins[0].email;
  for (const [db, assign] of [
    [first, (u: string) => (urlA = u)],
    [second, (u: string) => (urlB = u)],
  ] as const) {
    const { app } = createApp({
      db,
      tenants: [tenant],
      distDir: path.join(outbox.dir, 'no-dist'),
      mailer: outbox.mailer,
      signInLimits: { windowSeconds: 900, perAddress, perClient: 1_000 },
    });
    const { baseUrl, close } = await listen(app);
    assign(baseUrl);
    closers.push(close);
  }
});

afterAll(async () => {
  for (const close of closers) await close();
  await second?.close();
  await first?.close();
});

describe('two server instances on one database', () => {
  it('accepts on one instance a session made on the other', async () => {
    const onA = browserLikeClient(urlA, `/t/${tenant.id}/api`);
    await onA.get('/subscriptions');
    expect((await onA.post('/login/magic-link', { email })).status).toBe(202);
    const login = await onA.post('/login/token', { token: await lastLinkTo(email) });
    expect(login.status).toBe(200);

    const onB = browserLikeClient(urlB, `/t/${tenant.id}/api`);
    onB.setAccessToken(login.body.accessToken);
    const list = await onB.get('/subscriptions');
    expect(list.status).toBe(200);
    expect(list.body.length).toBeGreaterThan(0);

    // Log-out on B ends the session on A as well.
    await onB.get('/subscriptions'); // XSRF cookie of B
    expect((await onB.post('/logout')).status).toBeLessThan(300);
    onA.setAccessToken(login.body.accessToken);
    expect((await onA.get('/subscriptions')).status).toBe(401);
  });

  it('shows on one instance, at once, a change committed through the other (no stale subscription list)', async () => {
    const onA = browserLikeClient(urlA, `/t/${tenant.id}/api`);
    await onA.get('/subscriptions');
    await onA.post('/login/magic-link', { email });
    const login = await onA.post('/login/token', { token: await lastLinkTo(email) });
    onA.setAccessToken(login.body.accessToken);
    const before = (await onA.get('/subscriptions')).body as Array<{ id: string; displayName: string }>;
    // Asked twice on A: the second answer may come from A's memory (server/subscription/subscriptionListCache.ts).
    expect((await onA.get('/subscriptions')).body).toEqual(before);

    // Instance B's pool changes the first subscription's name (as any write of B would, in a transaction).
    await second.transaction(async (tx) => {
      await tx.query(
        `update subscriptions set details = jsonb_set(coalesce(details, '{}'::jsonb), '{displayName}', '"Umbenannt auf B"') where tenant_id = $1 and id = $2`,
        [tenant.id, before[0].id],
      );
    });
    const after = (await onA.get('/subscriptions')).body as Array<{ id: string; displayName: string }>;
    expect(after.find((s) => s.id === before[0].id)?.displayName).toBe('Umbenannt auf B');

    // A change that is rolled back is never seen, and leaves A's answer as it was.
    await expect(
      second.transaction(async (tx) => {
        await tx.query(
          `update subscriptions set details = jsonb_set(details, '{displayName}', '"Nie gespeichert"') where tenant_id = $1 and id = $2`,
          [tenant.id, before[0].id],
        );
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await onA.get('/subscriptions')).body).toEqual(after);
  });

  it('counts sign-in requests for one address across both instances', async () => {
    const address = 'gezaehlt@example.org';
    const clients = [
      browserLikeClient(urlA, `/t/${tenant.id}/api`),
      browserLikeClient(urlB, `/t/${tenant.id}/api`),
    ];
    for (const client of clients) await client.get('/subscriptions');
    const statuses: number[] = [];
    for (let i = 0; i <= perAddress; i += 1)
      statuses.push((await clients[i % 2].post('/login/magic-link', { email: address })).status);
    expect(statuses.slice(0, perAddress)).toEqual(Array(perAddress).fill(202));
    expect(statuses[perAddress]).toBe(429);
  });

  it('refuses on the other instance a second invoice request of the same day', async () => {
    const onA = browserLikeClient(urlA, `/t/${tenant.id}/api`);
    await onA.get('/subscriptions');
    await onA.post('/login/magic-link', { email });
    const login = await onA.post('/login/token', { token: await lastLinkTo(email) });
    onA.setAccessToken(login.body.accessToken);
    const onB = browserLikeClient(urlB, `/t/${tenant.id}/api`);
    await onB.get('/subscriptions');
    onB.setAccessToken(login.body.accessToken);

    const subscriptions = (await onA.get('/subscriptions')).body as Array<{ id: string }>;
    let requested = false;
    for (const sub of subscriptions) {
      const history = await onA.get(`/subscriptions/${sub.id}/payment-history?page=0`);
      const invoice =
        history.status === 200
          ? history.body.items.find((i: { invoiceNumber?: string }) => i.invoiceNumber)
          : undefined;
      if (!invoice) continue;
      const query = `invoiceNumber=${encodeURIComponent(invoice.invoiceNumber)}`;
      const firstAnswer = await onA.post(`/subscriptions/${sub.id}/invoices/request?${query}`);
      if (firstAnswer.status !== 200) continue;
      const secondAnswer = await onB.post(`/subscriptions/${sub.id}/invoices/request?${query}`);
      expect(secondAnswer.status).toBe(409);
      expect(secondAnswer.body.error.code).toBe('processing');
      requested = true;
      break;
    }
    expect(requested).toBe(true);
  });
});
