/**
 * The loyalty programme's calls (account-flows.md §3, §4 "Reward claim", "Loyalty opt-out", §7, §8)
 * against the seeded demo data: the member at the second tier, the rules a claim is refused by,
 * favourites, history, the flag, and concurrent claims on one code pool (each code once).
 */
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { acknowledgeChange } from '../../../server/operator/changes/changeFeed';
import { createMailer } from '../../../server/mail/mailer';
import { seedDemoData, SHARED_DEMO_EMAIL } from '../../../server/seed';
import { hashToken, newSecretToken } from '../../../server/auth/tokens';
import { insertSession } from '../../../server/store/authStore';
import { createUser, findUserByEmail } from '../../../server/store/userStore';
import type { Database } from '../../../server/db/database';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import type { LoyaltyTiersAnswer } from '../../../schemas/generated/loyalty';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';

const tenantOf = (id: string, features: string[]): ServerTenant =>
  makeServerTenant({
    id,
    name: `Club ${id}`,
    hosts: [`${id}.test`],
    defaultLocale: 'de-DE',
    locales: ['de-DE', 'en-GB'],
    features,
    embedding: { isEmbedded: false, parentOrigins: [] },
    login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
    loyalty: { showInNavbar: true },
  });

const club = tenantOf(uniqueTenantId('club'), ['loyalty-programme']);
const without = tenantOf(uniqueTenantId('noclub'), []);
const clock = new Date();
let db: Database;
let baseUrl: string;
let close: () => Promise<void>;
type Client = ReturnType<typeof browserLikeClient>;

/** A session for an account (made if missing), straight in the sessions table: these tests are about the loyalty calls, not sign-in. */
async function clientFor(tenant: ServerTenant, email: string): Promise<Client> {
  const user = (await findUserByEmail(db, tenant.id, email)) ?? (await createUser(db, tenant.id, { email }));
  const token = newSecretToken();
  await insertSession(db, tenant.id, {
    tokenHash: hashToken(token),
    userId: user.id,
    loginSource: 'email',
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  const client = browserLikeClient(baseUrl, `/t/${tenant.id}/api`);
  await client.get('/loyalty-programme/optin'); // picks up the XSRF cookie
  client.setAccessToken(token);
  return client;
}

async function events(tenantId: string, type: string): Promise<Array<{ data: any }>> {
  return db.query(`select data from account_events where tenant_id = $1 and type = $2 order by created_at`, [
    tenantId,
    type,
  ]);
}

beforeAll(async () => {
  db = await getTestDatabase();
  await seedDemoData(db, [club, without], { today: clock });
  const { app } = createApp({
    db,
    tenants: [club, without],
    distDir: path.join(mkdtempSync(path.join(tmpdir(), 'loyalty-')), 'no-dist'),
    mailer: createMailer({ outboxDir: mkdtempSync(path.join(tmpdir(), 'loyalty-outbox-')) }),
    now: () => clock,
  });
  ({ baseUrl, close } = await listen(app));
});
afterAll(async () => close?.());

describe('the demo member', () => {
  it('is opted in at the second of three tiers, with favourites and a used reward', async () => {
    const demo = await clientFor(club, SHARED_DEMO_EMAIL);
    const answer = await demo.get<LoyaltyTiersAnswer>('/loyalty-programme/tiers');
    expect(answer.status).toBe(200);
    const { user, tiers } = answer.body;
    expect(user.optedIn).toBe(true);
    expect(tiers.map((t) => [t.tierCode, t.reached])).toEqual([
      ['STARTER', true],
      ['SILVER', true],
      ['GOLD', false],
    ]);
    expect(user.runtime).toBeGreaterThanOrEqual(tiers[1].runtimeToReach);
    expect(user.runtime).toBeLessThan(tiers[2].runtimeToReach);
    expect(user.favorites.sort()).toEqual(['gold-weekend', 'silver-concert']);
    expect(tiers[0].rewards.length).toBeGreaterThan(8);
    expect(tiers[0].rewards.find((r) => r.id === 'starter-coffee')).toMatchObject({
      used: true,
      rewardType: 'G',
    });
    expect(tiers[1].rewards.find((r) => r.id === 'silver-shop10')).toMatchObject({
      used: false,
      rewardType: 'L',
      targetURL: null,
    });
    expect(tiers[0].name).toEqual({ 'de-DE': 'Einsteiger', 'en-GB': 'Starter' });
    expect(tiers[0].reachedIconUrl).toMatch(/^data:image\/svg\+xml,/);
  });

  it('lists the history: reward, date, code and the shop link', async () => {
    const demo = await clientFor(club, SHARED_DEMO_EMAIL);
    const history = await demo.get<any[]>('/loyalty-programme/history-entries');
    expect(history.status).toBe(200);
    expect(history.body.map((h) => h.rewardId)).toEqual(['silver-books', 'starter-coffee']);
    expect(history.body[1].couponCode).toMatch(/^STA-[0-9A-Z]{7}$/);
    expect(history.body[0]).toMatchObject({
      couponCode: null,
      rewardType: '3',
      targetURL: expect.stringMatching(/^https:\/\/shop\./),
    });
  });

  it('refuses a reward of an unreached tier, a used one and one that cannot be claimed online, changing nothing', async () => {
    const demo = await clientFor(club, SHARED_DEMO_EMAIL);
    const gold = await demo.post('/loyalty-programme/claim-reward', {
      tierCode: 'GOLD',
      rewardId: 'gold-weekend',
    });
    expect([gold.status, gold.body.error.code]).toEqual([403, 'loyalty_reward_not_available']);
    const used = await demo.post('/loyalty-programme/claim-reward', {
      tierCode: 'STARTER',
      rewardId: 'starter-coffee',
    });
    expect([used.status, used.body.error.code]).toEqual([409, 'loyalty_reward_used']);
    const bag = await demo.post('/loyalty-programme/claim-reward', {
      tierCode: 'STARTER',
      rewardId: 'starter-bag',
    });
    expect([bag.status, bag.body.error.code]).toEqual([409, 'loyalty_reward_not_claimable']);
    const wrongTier = await demo.post('/loyalty-programme/claim-reward', {
      tierCode: 'STARTER',
      rewardId: 'gold-weekend',
    });
    expect(wrongTier.status).toBe(404);
    const bad = await demo.post('/loyalty-programme/claim-reward', { rewardId: 'starter-ebook', extra: 1 });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'validation_failed']);
    expect((await demo.get<any[]>('/loyalty-programme/history-entries')).body).toHaveLength(2);
  });

  it('claims a code once and a shop link by its target, and records each claim', async () => {
    const demo = await clientFor(club, SHARED_DEMO_EMAIL);
    const code = await demo.post('/loyalty-programme/claim-reward', {
      tierCode: 'SILVER',
      rewardId: 'silver-concert',
    });
    expect(code.status).toBe(200);
    expect(code.body).toEqual({ success: true, codeValue: expect.stringMatching(/^SIL-/), targetURL: null });
    const again = await demo.post('/loyalty-programme/claim-reward', {
      tierCode: 'SILVER',
      rewardId: 'silver-concert',
    });
    expect(again.body.error.code).toBe('loyalty_reward_used');
    const shop = await demo.post('/loyalty-programme/claim-reward', {
      tierCode: 'SILVER',
      rewardId: 'silver-shop10',
    });
    expect(shop.body).toEqual({
      success: true,
      codeValue: null,
      targetURL: expect.stringMatching(/\/loyalty\/shop10$/),
    });
    const claimed = await events(club.id, 'loyalty.reward_claimed');
    expect(claimed.map((e) => e.data.rewardId)).toEqual(
      expect.arrayContaining(['silver-concert', 'silver-shop10']),
    );
    const history = await demo.get<any[]>('/loyalty-programme/history-entries');
    expect(history.body.find((h) => h.rewardId === 'silver-concert').couponCode).toBe(code.body.codeValue);
  });

  it("takes a claim the order system rejected off the history; the reward stays used, its code nobody else's", async () => {
    const demo = await clientFor(club, SHARED_DEMO_EMAIL);
    const code = await demo.post('/loyalty-programme/claim-reward', {
      tierCode: 'STARTER',
      rewardId: 'starter-ebook',
    });
    expect(code.status).toBe(200);
    const [event] = await db.query<{ id: string }>(
      `select id::text from account_events where tenant_id = $1 and type = 'loyalty.reward_claimed' and data->>'rewardId' = 'starter-ebook'`,
      [club.id],
    );
    const answer = await acknowledgeChange(
      { db, now: () => clock, mailFrom: 'club@loyalty.test' },
      club,
      '00000000-0000-4000-8000-000000000000',
      event.id,
      { status: 'rejected', reason: { 'de-DE': 'Nicht berechtigt.', 'en-GB': 'Not entitled.' } },
    );
    expect(answer.acknowledgement.undone).toBe(true);
    const history = await demo.get<any[]>('/loyalty-programme/history-entries');
    expect(history.body.map((h) => h.rewardId)).not.toContain('starter-ebook');
    // Claimed once, even if refused: a second claim would hand out another code for the same refusal.
    const tiers = await demo.get<LoyaltyTiersAnswer>('/loyalty-programme/tiers');
    expect(tiers.body.tiers[0].rewards.find((r) => r.id === 'starter-ebook')?.used).toBe(true);
    const again = await demo.post('/loyalty-programme/claim-reward', {
      tierCode: 'STARTER',
      rewardId: 'starter-ebook',
    });
    expect(again.body.error.code).toBe('loyalty_reward_used');
    const [pool] = await db.query<{ claimed: boolean }>(
      `select claimed_at is not null as claimed from loyalty_codes where tenant_id = $1 and code = $2`,
      [club.id, code.body.codeValue],
    );
    expect(pool.claimed).toBe(true);
  });

  it('marks and unmarks a favourite, recording only real changes', async () => {
    const demo = await clientFor(club, SHARED_DEMO_EMAIL);
    const before = (await events(club.id, 'loyalty.favorite_changed')).length;
    expect(
      (await demo.post('/loyalty-programme/favorite-reward', { rewardId: 'starter-museum', favorite: true }))
        .body,
    ).toEqual({ success: true, favorite: true });
    expect(
      (await demo.post('/loyalty-programme/favorite-reward', { rewardId: 'starter-museum', favorite: true }))
        .status,
    ).toBe(200);
    expect((await demo.get<LoyaltyTiersAnswer>('/loyalty-programme/tiers')).body.user.favorites).toContain(
      'starter-museum',
    );
    expect(
      (await demo.post('/loyalty-programme/favorite-reward', { rewardId: 'starter-museum', favorite: false }))
        .body.favorite,
    ).toBe(false);
    expect((await events(club.id, 'loyalty.favorite_changed')).length).toBe(before + 2);
    expect(
      (await demo.post('/loyalty-programme/favorite-reward', { rewardId: 'nope', favorite: true })).status,
    ).toBe(404);
  });
});

describe('the opt-in', () => {
  it('is needed for favourites, claims and history; joining and leaving are recorded', async () => {
    const newcomer = await clientFor(club, 'newcomer@club.example');
    expect((await newcomer.get('/loyalty-programme/optin')).body).toEqual({
      success: true,
      loyaltyOption: false,
    });
    const tiers = await newcomer.get<LoyaltyTiersAnswer>('/loyalty-programme/tiers');
    expect(tiers.body.user).toEqual({ runtime: 0, optedIn: false, favorites: [] });
    for (const [path, body] of [
      ['/loyalty-programme/claim-reward', { tierCode: 'STARTER', rewardId: 'starter-ebook' }],
      ['/loyalty-programme/favorite-reward', { rewardId: 'starter-ebook', favorite: true }],
    ] as const) {
      const refused = await newcomer.post(path, body);
      expect([refused.status, refused.body.error.code]).toEqual([403, 'loyalty_not_opted_in']);
    }
    expect((await newcomer.get('/loyalty-programme/history-entries')).body.error.code).toBe(
      'loyalty_not_opted_in',
    );

    expect((await newcomer.post('/loyalty-programme/optin', { loyaltyOption: true })).body).toEqual({
      success: true,
      loyaltyOption: true,
    });
    const claimed = await newcomer.post('/loyalty-programme/claim-reward', {
      tierCode: 'STARTER',
      rewardId: 'starter-ebook',
    });
    expect(claimed.body.codeValue).toMatch(/^STA-/);
    const silver = await newcomer.post('/loyalty-programme/claim-reward', {
      tierCode: 'SILVER',
      rewardId: 'silver-concert',
    });
    expect(silver.body.error.code).toBe('loyalty_reward_not_available');
    expect(
      (await newcomer.post('/loyalty-programme/optin', { loyaltyOption: false })).body.loyaltyOption,
    ).toBe(false);
    expect((await newcomer.get('/loyalty-programme/history-entries')).status).toBe(403);
    const user = await findUserByEmail(db, club.id, 'newcomer@club.example');
    expect(
      (await events(club.id, 'loyalty.opted_in')).filter((e) => e.data.userId === user!.id),
    ).toHaveLength(1);
    expect(
      (await events(club.id, 'loyalty.opted_out')).filter((e) => e.data.userId === user!.id),
    ).toHaveLength(1);
  });
});

describe('refusals', () => {
  it('answers 401 without a session and 403 feature_disabled where the tenant has no loyalty programme', async () => {
    const anonymous = browserLikeClient(baseUrl, `/t/${club.id}/api`);
    expect((await anonymous.get('/loyalty-programme/tiers')).status).toBe(401);
    const elsewhere = await clientFor(without, SHARED_DEMO_EMAIL);
    for (const call of [
      elsewhere.get('/loyalty-programme/tiers'),
      elsewhere.post('/loyalty-programme/optin', { loyaltyOption: true }),
      elsewhere.get('/loyalty-programme/history-entries'),
    ]) {
      const answer = await call;
      expect([answer.status, answer.body.error.code]).toEqual([403, 'feature_disabled']);
    }
  });
});

describe('concurrent claims', () => {
  it('hands each code of a pool out once when many members claim at the same time', async () => {
    // A pool of 5 codes, 12 members claiming at once: 5 get distinct codes, 7 are told the claim failed.
    await db.query(
      `delete from loyalty_codes where tenant_id = $1 and reward_id = 'starter-cinema' and code not in (select code from loyalty_codes where tenant_id = $1 and reward_id = 'starter-cinema' order by code limit 5)`,
      [club.id],
    );
    const members = await Promise.all(
      Array.from({ length: 12 }, (_, i) => clientFor(club, `racer${i}@club.example`)),
    );
    for (const m of members) await m.post('/loyalty-programme/optin', { loyaltyOption: true });
    const answers = await Promise.all(
      members.map((m) =>
        m.post('/loyalty-programme/claim-reward', { tierCode: 'STARTER', rewardId: 'starter-cinema' }),
      ),
    );
    const codes = answers.filter((a) => a.status === 200).map((a) => a.body.codeValue);
    expect(codes).toHaveLength(5);
    expect(new Set(codes).size).toBe(5);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.error.code)).toEqual(
      Array(7).fill('loyalty_claim_failed'),
    );
    const taken = await db.query<{ n: string }>(
      `select count(*) as n from loyalty_codes where tenant_id = $1 and reward_id = 'starter-cinema' and claimed_at is not null`,
      [club.id],
    );
    expect(Number(taken[0].n)).toBe(5);
  });

  it('lets one member claim a reward once even when the claims race', async () => {
    const racer = await clientFor(club, 'twice@club.example');
    await racer.post('/loyalty-programme/optin', { loyaltyOption: true });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        racer.post('/loyalty-programme/claim-reward', { tierCode: 'STARTER', rewardId: 'starter-podcast' }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(
      answers.filter((a) => a.status === 409).every((a) => a.body.error.code === 'loyalty_reward_used'),
    ).toBe(true);
    const user = await findUserByEmail(db, club.id, 'twice@club.example');
    const taken = await db.query(`select code from loyalty_codes where tenant_id = $1 and claimed_by = $2`, [
      club.id,
      user!.id,
    ]);
    expect(taken).toHaveLength(1);
  });
});

describe('a loyalty change the order system rejects', () => {
  const rejectLatest = async (type: string) => {
    const [event] = await db.query<{ id: string }>(
      `select id::text from account_events where tenant_id = $1 and type = $2 order by seq desc limit 1`,
      [club.id, type],
    );
    return (
      await acknowledgeChange(
        { db, now: () => clock, mailFrom: 'club@loyalty.test' },
        club,
        '00000000-0000-4000-8000-000000000000',
        event.id,
        { status: 'rejected', reason: { 'de-DE': 'Nicht berechtigt.', 'en-GB': 'Not entitled.' } },
      )
    ).acknowledgement.undone;
  };

  it('takes the joining back, and a favourite marked or unmarked', async () => {
    const joiner = await clientFor(club, 'rejected-joiner@club.example');
    expect((await joiner.post('/loyalty-programme/optin', { loyaltyOption: true })).status).toBe(200);
    expect(await rejectLatest('loyalty.opted_in')).toBe(true);
    expect((await joiner.get<any>('/loyalty-programme/optin')).body.loyaltyOption).toBe(false);

    const demo = await clientFor(club, SHARED_DEMO_EMAIL);
    const favorites = async () =>
      (await demo.get<LoyaltyTiersAnswer>('/loyalty-programme/tiers')).body.user.favorites.sort();
    const before = await favorites();
    const favorite = (rewardId: string, value: boolean) =>
      demo.post('/loyalty-programme/favorite-reward', { rewardId, favorite: value });
    expect((await favorite('starter-ebook', true)).status).toBe(200);
    expect(await rejectLatest('loyalty.favorite_changed')).toBe(true);
    expect(await favorites()).toEqual(before);
    expect((await favorite(before[0], false)).status).toBe(200);
    expect(await rejectLatest('loyalty.favorite_changed')).toBe(true);
    expect(await favorites()).toEqual(before);
  });
});
