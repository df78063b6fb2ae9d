/**
 * The phase upgrade (portal-core.md §2 "a phase-upgrade button", §6 "phase upgrade: phase can
 * upgrade, ordering party, active") through the API: the demo's trial whose phase can be upgraded,
 * moved once; the subscription answers with its phase no longer upgradable, the account event the
 * order system hears of it by, the mail in the screen's language; a second request, another
 * subscription and a tenant without the feature are refused; the order system's rejection gives
 * the phase back.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { seedDemoData } from '../../../server/seed';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import type { Subscription } from '../../../schemas/generated/subscription';
import type { Database } from '../../../server/db/database';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { createTestOutbox, signInByMagicLink } from '../../support/outbox';
import { createKey } from '../../../cli/commands/keys';

const PUBLICATIONS = [
  { publication: 'PUP', description: 'Phase Post', kind: 'print', frequency: 'weekly' },
  { publication: 'PUD', description: 'Phase Digital', kind: 'digital', frequency: 'daily' },
];

function tenant(id: string, locale: 'de-DE' | 'en-GB', features: string[]): ServerTenant {
  return makeServerTenant({
    id,
    name: `Verlag ${id}`,
    hosts: [`${id}.test`],
    defaultLocale: locale,
    locales: ['de-DE', 'en-GB'],
    features,
    publications: PUBLICATIONS,
    embedding: { isEmbedded: false, parentOrigins: [] },
    login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
  });
}

const outbox = createTestOutbox('portal-phase-outbox-');
const british = tenant(uniqueTenantId('phase'), 'en-GB', ['phase-upgrade']);
const without = tenant(uniqueTenantId('phase-off'), 'de-DE', []);
const clock = new Date();
let baseUrl: string;
let close: () => Promise<void>;
let db: Database;
let writer: string;
type Client = ReturnType<typeof browserLikeClient>;

async function signIn(t: ServerTenant, email: string): Promise<Client> {
  return (await signInByMagicLink(outbox, { baseUrl, tenantId: t.id, email })).client;
}

/** The phase upgrades recorded for a subscription, oldest first. */
const requested = (subscriptionId: string) =>
  db.query<{ data: Record<string, unknown> }>(
    `select data from account_events where tenant_id = $1 and type = 'phase_upgrade.requested' and subject_id = $2 order by seq`,
    [british.id, subscriptionId],
  );

/** The demo's subscription whose phase can be upgraded, and the address of its ordering party's account. */
async function upgradableTrial(t: ServerTenant): Promise<{ id: string; email: string }> {
  const [row] = await db.query<{ id: string; email: string }>(
    `select s.id, u.email
       from subscriptions s
       join subscription_roles r on r.tenant_id = s.tenant_id and r.subscription_id = s.id and r.role = 'AG'
       join user_business_partners ubp on ubp.tenant_id = s.tenant_id and ubp.bp_number = r.bp_number
       join users u on u.tenant_id = s.tenant_id and u.id = ubp.user_id
      where s.tenant_id = $1 and (s.details->'currentPhase'->>'canUpgrade')::boolean
      order by s.id limit 1`,
    [t.id],
  );
  expect(row).toBeDefined();
  return row;
}

beforeAll(async () => {
  db = await getTestDatabase();
  await seedDemoData(db, [british, without], { today: clock });
  const { app } = createApp({
    db,
    tenants: [british, without],
    distDir: path.join(outbox.dir, 'no-dist'),
    mailer: outbox.mailer,
    now: () => clock,
    signInLimits: { windowSeconds: 900, perAddress: 100, perClient: 100_000 },
  });
  ({ baseUrl, close } = await listen(app));
  writer = (await createKey({ db, tenantIds: [british.id] }, british.id, { scopes: ['read', 'write'] }))
    .secret;
});

afterAll(async () => close?.());

describe('POST /subscriptions/{id}/phase-upgrade', () => {
  it('gives the phase back when the order system rejects the change (docs/going-live.md "Whose data is it")', async () => {
    const trial = await upgradableTrial(british);
    const client = await signIn(british, trial.email);
    expect((await client.post(`/subscriptions/${trial.id}/phase-upgrade`)).status).toBe(200);
    const [event] = await db.query<{ id: string }>(
      `select id::text from account_events where tenant_id = $1 and type = 'phase_upgrade.requested' and subject_id = $2`,
      [british.id, trial.id],
    );
    const answer = await fetch(`${baseUrl}/t/${british.id}/operator/v1/changes/${event.id}/acknowledgement`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        status: 'rejected',
        reason: { 'de-DE': 'Nicht möglich.', 'en-GB': 'Not possible.' },
      }),
    });
    expect(answer.status).toBe(201);
    expect((await client.get<Subscription>(`/subscriptions/${trial.id}`)).body.currentPhase?.canUpgrade).toBe(
      true,
    );
  });

  it('moves the trial to its next phase once, records the event and mails the account in its language', async () => {
    const trial = await upgradableTrial(british);
    const client = await signIn(british, trial.email);
    const before = await client.get<Subscription>(`/subscriptions/${trial.id}`);
    expect(before.body.currentPhase?.canUpgrade).toBe(true);

    const earlier = (await requested(trial.id)).length;
    const moved = await client.post<Subscription>(`/subscriptions/${trial.id}/phase-upgrade`);
    expect(moved.status).toBe(200);
    expect(moved.body.id).toBe(trial.id);
    expect(moved.body.currentPhase?.canUpgrade).toBe(false);
    // The same on a fresh read, and in the list.
    expect((await client.get<Subscription>(`/subscriptions/${trial.id}`)).body.currentPhase?.canUpgrade).toBe(
      false,
    );
    const listed = (await client.get<Subscription[]>('/subscriptions')).body.find((s) => s.id === trial.id);
    expect(listed?.currentPhase?.canUpgrade).toBe(false);

    const events = await requested(trial.id);
    expect(events).toHaveLength(earlier + 1);
    expect(events.at(-1)!.data).toMatchObject({
      subscriptionId: trial.id,
      orderNumber: moved.body.orderNumber,
    });
    const mail = (await outbox.mails(trial.email, british.id)).find((m) => /next phase/.test(m.subject));
    expect(mail?.text).toContain('to its next phase');

    // Once: the capability rule no longer holds (§6 "phase can upgrade").
    const again = await client.post<any>(`/subscriptions/${trial.id}/phase-upgrade`);
    expect(again.status).toBe(403);
    expect(await requested(trial.id)).toHaveLength(earlier + 1);
  });

  it('refuses a subscription whose phase cannot be upgraded, and one not on the account', async () => {
    const trial = await upgradableTrial(without);
    const client = await signIn(british, (await upgradableTrialOrAny(british)).email);
    const list = (await client.get<Subscription[]>('/subscriptions')).body;
    const settled = list.find((s) => !s.currentPhase?.canUpgrade && s.roles.includes('AG'))!;
    expect((await client.post<any>(`/subscriptions/${settled.id}/phase-upgrade`)).status).toBe(403);
    expect((await client.post<any>(`/subscriptions/${trial.id}/phase-upgrade`)).status).toBe(404);
  });

  it('is switched off with the feature: 403 feature_disabled, nothing changed', async () => {
    const trial = await upgradableTrial(without);
    const client = await signIn(without, trial.email);
    const refused = await client.post<any>(`/subscriptions/${trial.id}/phase-upgrade`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('feature_disabled');
    expect((await client.get<Subscription>(`/subscriptions/${trial.id}`)).body.currentPhase?.canUpgrade).toBe(
      true,
    );
  });
});

/** Any account of the tenant with an upgradable trial, or (after the first test) the one that had it. */
async function upgradableTrialOrAny(t: ServerTenant): Promise<{ email: string }> {
  const [row] = await db.query<{ email: string }>(
    `select u.email from users u where u.tenant_id = $1 and exists (
       select 1 from user_business_partners ubp join subscription_roles r
         on r.tenant_id = ubp.tenant_id and r.bp_number = ubp.bp_number and r.role = 'AG'
        where ubp.tenant_id = u.tenant_id and ubp.user_id = u.id) order by u.email limit 1`,
    [t.id],
  );
  return row;
}
