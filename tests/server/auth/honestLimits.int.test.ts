/**
 * Limits that do not punish the honest, inputs never silently cut (docs/architecture.md "Sign-in
 * safety"): the limits count failures (and mail sends), not successes; every 429 says when to try
 * again (Retry-After and details.retryAfterSeconds); a too-long input is refused with 400, never cut.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import type { Database } from '../../../server/db/database';
import { DEMO_PASSWORD, seedDemoData, setDemoPasswords } from '../../../server/seed';
import { buildDemoData } from '../../../server/seed/demoData';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeSignInTenant } from '../../support/builders';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { createTestOutbox, signInByMagicLink } from '../../support/outbox';

const LIMITS = { windowSeconds: 900, perAddress: 3, perClient: 1000 };
const outbox = createTestOutbox('portal-honest-');
const tenant: ServerTenant = {
  ...makeSignInTenant(uniqueTenantId('honest'), {}, ['manual-registration', 'sso-profile-page']),
  linkSubscription: { allowBpNumber: true },
} as ServerTenant;
const clock = new Date();
let db: Database;
let baseUrl: string;
let close: () => Promise<void>;
let logins: Awaited<ReturnType<typeof seedDemoData>>;

/** The portal with these sign-in limits, over the file's database and outbox. */
function serverWith(signInLimits: typeof LIMITS) {
  return listen(
    createApp({
      db,
      tenants: [tenant],
      distDir: outbox.dir,
      mailer: outbox.mailer,
      signInLimits,
      // One instant for the whole file: the limits count in fixed 15-minute windows, and a run
      // across a window's edge started counting anew halfway through a test.
      now: () => clock,
      // Clients told apart by X-Forwarded-For (without it every request is 127.0.0.1's).
      trustProxy: ['loopback'],
    }).app,
  );
}

beforeAll(async () => {
  db = await getTestDatabase();
  logins = await seedDemoData(db, [tenant], { today: clock });
  await setDemoPasswords(db, [tenant], logins);
  const server = await serverWith(LIMITS);
  baseUrl = server.baseUrl;
  close = server.close;
});

afterAll(async () => close?.());

const emailOf = (index: number) => logins.filter((l) => l.tenantId === tenant.id)[index].email;

async function client() {
  const c = browserLikeClient(baseUrl, `/t/${tenant.id}/api`);
  await c.get('/subscriptions'); // the XSRF cookie
  return c;
}

function expectWait(response: {
  status: number;
  headers: Headers;
  body: { error: { code: string; message: string; details?: { retryAfterSeconds?: number } } };
}) {
  expect(response.status).toBe(429);
  const header = Number(response.headers.get('retry-after'));
  expect(header).toBeGreaterThan(0);
  expect(header).toBeLessThanOrEqual(LIMITS.windowSeconds);
  expect(response.body.error.details?.retryAfterSeconds).toBe(header);
  expect(response.body.error.message).toMatch(/try again in \d+ minutes?\./);
}

describe('password sign-in counts wrong passwords, not successful sign-ins', () => {
  it('lets the owner sign in many times in a row, then stops wrong guesses with a wait', async () => {
    const c = await client();
    const email = emailOf(0);
    for (let i = 0; i < LIMITS.perAddress * 3; i++)
      expect((await c.post('/login/password', { email, password: DEMO_PASSWORD })).status).toBe(200);
    for (let i = 0; i < LIMITS.perAddress; i++)
      expect((await c.post('/login/password', { email, password: 'Wrong1234' })).status).toBe(401);
    expectWait(await c.post('/login/password', { email, password: 'Wrong1234' }));
  });

  it('gives back the place of a correct password between wrong ones', async () => {
    const c = await client();
    const email = emailOf(1);
    expect((await c.post('/login/password', { email, password: 'Wrong1234' })).status).toBe(401);
    expect((await c.post('/login/password', { email, password: 'Wrong1234' })).status).toBe(401);
    for (let i = 0; i < 3; i++)
      expect((await c.post('/login/password', { email, password: DEMO_PASSWORD })).status).toBe(200);
    expect((await c.post('/login/password', { email, password: 'Wrong1234' })).status).toBe(401);
    expectWait(await c.post('/login/password', { email, password: DEMO_PASSWORD }));
  });
});

describe('mail sends are counted, and their 429 says when to try again', () => {
  it('answers the login-link request after the budget with Retry-After', async () => {
    const c = await client();
    const email = `flood-${Date.now()}@reader.example`;
    for (let i = 0; i < LIMITS.perAddress; i++)
      expect((await c.post('/login/magic-link', { email })).status).toBe(202);
    expectWait(await c.post('/login/magic-link', { email }));
  });

  it("a stranger registering the owner's address spends their own budget, not the owner's login link; the mailbox is capped all the same", async () => {
    const email = emailOf(4);
    const c = await client();
    const register = (n: number) =>
      c.post(
        '/register',
        { displayName: 'Eve', email, password: 'Xyzzy12345', passwordConfirm: 'Xyzzy12345' },
        { 'x-forwarded-for': `198.51.100.${n}` },
      );
    const before = (await outbox.mails(email)).length;
    // One client: its budget of the address ends with a wait.
    for (let i = 0; i < LIMITS.perAddress; i++) expect((await register(60)).status).toBe(202);
    expectWait(await register(60));
    // Many clients: each is answered, and the mailbox gets no more than its budget of such mails.
    for (let n = 61; n < 61 + LIMITS.perAddress; n++) expect((await register(n)).status).toBe(202);
    const hints = (await outbox.mails(email)).slice(before);
    expect(hints).toHaveLength(LIMITS.perAddress);
    // The owner, on another client, is not refused a login link, and it arrives.
    const owner = { 'x-forwarded-for': '203.0.113.60' };
    expect((await c.post('/login/magic-link', { email }, owner)).status).toBe(202);
    expect((await c.post('/password/forgot', { email }, owner)).status).toBe(202);
    expect((await outbox.mails(email)).length - before).toBe(LIMITS.perAddress + 2);
  });

  it('gives back the place of a login link once it is opened: signing in by link again and again is no flood', async () => {
    const email = emailOf(3);
    // Three times the budget, each link opened: every request answered 202 and every link works.
    for (let i = 0; i < LIMITS.perAddress * 3; i++)
      await signInByMagicLink(outbox, { baseUrl, tenantId: tenant.id, email });
    // Links nobody opens keep their places: the budget ends as before.
    const c = await client();
    for (let i = 0; i < LIMITS.perAddress; i++)
      expect((await c.post('/login/magic-link', { email })).status).toBe(202);
    expectWait(await c.post('/login/magic-link', { email }));
  });

  it("gives back the order number's place once the link its sign-in mailed is opened", async () => {
    const data = buildDemoData(tenant as Parameters<typeof buildDemoData>[0], clock);
    const ordered = data.subscriptionRoles
      .filter((r) => r.role === 'AG')
      .map((r) => ({
        s: data.subscriptions.find((s) => s.id === r.subscription_id)!,
        partner: data.businessPartners.find((b) => b.bp_number === r.bp_number)!,
      }))
      .find(({ partner }) => partner.email_address && (partner.last_name1 ?? '').trim())!;
    expect(ordered).toBeDefined();
    const body = { orderNumber: ordered.s.order_number, lastName: ordered.partner.last_name1 };
    const address = ordered.partner.email_address!;
    for (let i = 0; i < LIMITS.perAddress * 2; i++) {
      const c = await client();
      const before = (await outbox.mails(address)).length;
      const answer = await c.post<any>('/login/order-number', body);
      expect(answer.body.error?.details?.status, JSON.stringify(answer.body)).toBe('confirm_email');
      const mail = (await outbox.mails(address)).slice(before).at(-1)!;
      const token = new URL(/https?:\/\/\S+/.exec(mail.text)![0]).searchParams.get('p')!;
      expect((await c.post('/login/token', { token })).status).toBe(200);
    }
    // Wrong names count and stay counted: the client that guessed waits, even with the right name.
    const c = await client();
    const guesser = { 'x-forwarded-for': '203.0.113.9' };
    for (let i = 0; i < LIMITS.perAddress; i++)
      expect(
        (await c.post<any>('/login/order-number', { ...body, lastName: 'Nobody' }, guesser)).body.error
          .details.status,
      ).toBe('verification_failed');
    expectWait(await c.post('/login/order-number', body, guesser));
    // The owner on another line is not locked out by someone else's guesses.
    const owner = await c.post<any>('/login/order-number', body, { 'x-forwarded-for': '203.0.113.10' });
    expect(owner.body.error?.details?.status).toBe('confirm_email');
  });

  it('stops a burst of wrong names from many fresh clients at once for an order number', async () => {
    const data = buildDemoData(tenant as Parameters<typeof buildDemoData>[0], clock);
    const orderNumber = data.subscriptions.at(-1)!.order_number;
    const c = await client();
    // Four times a client's budget, from as many clients, all at once: each one is a fresh client.
    const answers = await Promise.all(
      Array.from({ length: LIMITS.perAddress * 4 + 3 }, (_, n) =>
        c.post<any>(
          '/login/order-number',
          { orderNumber, lastName: `Guess${n}` },
          { 'x-forwarded-for': `198.51.100.${n + 1}` },
        ),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((status) => status === 400)).toHaveLength(LIMITS.perAddress * 4);
    expect(statuses.filter((status) => status === 429)).toHaveLength(3);
  });

  it("does not count retries the back-off refused: a few guessers cannot fill the order number's budget of all clients", async () => {
    const data = buildDemoData(tenant as Parameters<typeof buildDemoData>[0], clock);
    const owned = data.subscriptionRoles
      .filter((r) => r.role === 'AG')
      .map((r) => ({
        s: data.subscriptions.find((s) => s.id === r.subscription_id)!,
        partner: data.businessPartners.find((b) => b.bp_number === r.bp_number)!,
      }))
      .filter(({ partner }) => partner.email_address && (partner.last_name1 ?? '').trim());
    // Not the order number of the tests above, whose budgets they spent.
    const { s, partner } = owned.find(({ s }) => s.order_number !== owned[0].s.order_number)!;
    const c = await client();
    const from = (n: number) => ({ 'x-forwarded-for': `192.0.2.${n}` });
    // Five clients guess once each: the back-off starts and holds each of them back.
    for (let n = 1; n <= 5; n++)
      expect(
        (
          await c.post<any>(
            '/login/order-number',
            { orderNumber: s.order_number, lastName: `Guess${n}` },
            from(n),
          )
        ).body.error.details.status,
      ).toBe('verification_failed');
    // Their quick retries are refused before they are checked, more of them than the budget of
    // all clients (four times a client's) has room for beside the five wrong guesses.
    for (let round = 0; round < 2; round++)
      for (let n = 1; n <= 5; n++)
        expectWait(
          await c.post(
            '/login/order-number',
            { orderNumber: s.order_number, lastName: `Retry${n}` },
            from(n),
          ),
        );
    // The owner on a line that never failed is checked, and gets the link.
    const owner = await c.post<any>(
      '/login/order-number',
      { orderNumber: s.order_number, lastName: partner.last_name1 },
      from(99),
    );
    expect(owner.body.error?.details?.status, JSON.stringify(owner.body)).toBe('confirm_email');
  });
});

async function signedIn(email: string) {
  const c = await client();
  const login = await c.post('/login/password', { email, password: DEMO_PASSWORD });
  expect(login.status).toBe(200);
  c.setAccessToken(login.body.accessToken);
  return c;
}

describe('link subscription counts failed proofs only', () => {
  it('counts wrong proofs of an order number together with the anonymous sign-ins, from every account and client', async () => {
    // An order number's zip code or name has few values: the wrong guesses of the anonymous
    // sign-in by order number, from as many fresh clients as its budget holds ...
    const orderNumber = '4888888888';
    const c = await client();
    for (let n = 0; n < LIMITS.perAddress * 4; n++)
      expect(
        (
          await c.post<any>(
            '/login/order-number',
            { orderNumber, lastName: `Guess${n}` },
            { 'x-forwarded-for': `192.0.2.${n + 1}` },
          )
        ).status,
      ).toBe(400);
    // ... leave none to an account that links it, on a client and an account of its own.
    const account = await signedIn(emailOf(2));
    expectWait(
      await account.post(
        '/subscriptions',
        { orderNumber, zipcode: '12345', lastName: 'Nobody', preferredRole: 'AG' },
        { 'x-forwarded-for': '192.0.2.200' },
      ),
    );
  });

  it('does not count form mistakes or a proof that held; failed proofs end in a 429 with the wait', async () => {
    const c = await signedIn(emailOf(2));
    const link = (body: Record<string, unknown>) => c.post('/subscriptions', body);
    // A partner without an address and without an account: the proof holds, then no_email_on_record.
    const data = buildDemoData(tenant as Parameters<typeof buildDemoData>[0], clock);
    const linkedBps = new Set(data.userBusinessPartners.map((u) => u.bp_number));
    const open = data.subscriptions
      .filter((s) => s.order_status === 'A')
      .map((s) => ({
        s,
        role: data.subscriptionRoles.find(
          (r) => r.subscription_id === s.id && r.role === 'AG' && !linkedBps.has(r.bp_number),
        ),
      }))
      .filter((c): c is { s: (typeof data.subscriptions)[number]; role: NonNullable<typeof c.role> } =>
        Boolean(c.role),
      )
      .map(({ s, role }) => ({
        s,
        partner: data.businessPartners.find((b) => b.bp_number === role.bp_number)!,
      }))
      .find(({ partner }) => partner.email_address === null)!;
    expect(open).toBeDefined();
    for (let i = 0; i < LIMITS.perAddress + 1; i++) {
      const held = await link({
        orderNumber: open.s.order_number,
        zipcode: open.partner.zipcode,
        lastName: open.partner.last_name1 ?? open.partner.company1,
        preferredRole: 'AG',
      });
      expect(held.body.error.details, JSON.stringify(held.body)).toMatchObject({
        status: 'no_email_on_record',
      });
      expect((await link({ zipcode: '12345' })).body.error.details.status).toBe('validation_failed');
    }
    for (let i = 0; i < LIMITS.perAddress; i++)
      expect(
        (await link({ orderNumber: '4999999999', zipcode: '12345', lastName: 'Nobody', preferredRole: 'AG' }))
          .body.error.details.status,
      ).toBe('not_found');
    expectWait(
      await link({ orderNumber: '4999999998', zipcode: '12345', lastName: 'Nobody', preferredRole: 'AG' }),
    );
  });
});

describe('too long is refused, never cut', () => {
  const long = 'Abcdefghij1234567890X'; // 21 characters

  it('refuses a 21-character password at registration with 400 and queues nothing', async () => {
    const c = await client();
    const email = `long-${Date.now()}@reader.example`;
    const before = await db.query<{ n: number }>(
      `select count(*)::int as n from mail_queue where tenant_id = $1`,
      [tenant.id],
    );
    const response = await c.post('/register', {
      displayName: 'Long',
      email,
      password: long,
      passwordConfirm: long,
    });
    expect(response.status).toBe(400);
    const after = await db.query<{ n: number }>(
      `select count(*)::int as n from mail_queue where tenant_id = $1`,
      [tenant.id],
    );
    expect(after[0].n).toBe(before[0].n);
    // Nor do its first 20 characters make an account later.
    expect(await outbox.mails(email)).toHaveLength(0);
  });

  it('refuses a 21-character new password on the SSO profile; the old one still works', async () => {
    const email = emailOf(3);
    const c = await signedIn(email);
    const refused = await c.post('/sso-profile/executeUpdatePassword', {
      currentPassword: DEMO_PASSWORD,
      newPassword: long,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.fields.newPassword).toBe('invalid');
    const other = await client();
    expect((await other.post('/login/password', { email, password: DEMO_PASSWORD })).status).toBe(200);
    expect((await other.post('/login/password', { email, password: long.slice(0, 20) })).status).toBe(401);
  });
});

describe("a mailed link over a client's budget that someone else's wrong tokens spent", () => {
  it('opens the genuine link from that client address and still refuses every wrong token there with a wait', async () => {
    const tight = { windowSeconds: 900, perAddress: 3, perClient: 3 };
    const server = await serverWith(tight);
    try {
      const c = browserLikeClient(server.baseUrl, `/t/${tenant.id}/api`);
      await c.get('/subscriptions');
      // One address behind a shared NAT: a guesser's wrong tokens spend its budget.
      const shared = { 'x-forwarded-for': '203.0.113.50' };
      for (let i = 0; i < tight.perClient; i++)
        expect((await c.post('/login/token', { token: `bogus-${i}`.padEnd(43, 'x') }, shared)).status).toBe(
          401,
        );
      expectWait(await c.post('/login/token', { token: 'bogus-over'.padEnd(43, 'x') }, shared));
      // The owner behind the same address opens the link the portal mailed them.
      const email = emailOf(2);
      const before = (await outbox.mails(email)).length;
      expect(
        (await c.post('/login/magic-link', { email }, { 'x-forwarded-for': '203.0.113.51' })).status,
      ).toBe(202);
      const mail = (await outbox.mails(email)).slice(before).at(-1)!;
      const token = new URL(/https?:\/\/\S+/.exec(mail.text)![0]).searchParams.get('p')!;
      const opened = await c.post<any>('/login/token', { token }, shared);
      expect(opened.status).toBe(200);
      expect(opened.body.accessToken).toEqual(expect.any(String));
      // Spent once, and a guess there still waits.
      expectWait(await c.post('/login/token', { token }, shared));
      expectWait(await c.post('/login/token', { token: 'bogus-later'.padEnd(43, 'x') }, shared));
    } finally {
      await server.close();
    }
  });
});

describe('every secret a client sends counts when it is refused', () => {
  it('stops wrong opt-in link tokens and kicker SSO ids with a wait, as it does wrong login tokens', async () => {
    const tight = { windowSeconds: 900, perAddress: 3, perClient: 3 };
    const secretsTenant = {
      ...makeSignInTenant(uniqueTenantId('secrets'), {}, ['opt-ins', 'kicker-auth']),
    } as ServerTenant;
    const server = await listen(
      createApp({
        db,
        tenants: [secretsTenant],
        distDir: outbox.dir,
        mailer: outbox.mailer,
        signInLimits: tight,
        now: () => clock,
        trustProxy: ['loopback'],
      }).app,
    );
    try {
      const c = browserLikeClient(server.baseUrl, `/t/${secretsTenant.id}/api`);
      await c.get('/faq');
      const guesser = { 'x-forwarded-for': '203.0.113.60' };
      const wrong = (i: number) => `wrong-${i}`.padEnd(43, 'x');
      expect((await c.post('/opt-ins/confirm', { token: wrong(0) }, guesser)).status).toBe(404);
      expect((await c.get<any>(`/opt-ins/confirm/state?token=${wrong(1)}`, guesser)).body).toEqual({
        open: false,
        optIns: [],
      });
      expect((await c.post('/kicker-auth/get-user', { ssoId: wrong(2) }, guesser)).status).toBe(401);
      expectWait(await c.post('/opt-ins/confirm', { token: wrong(3) }, guesser));
      expectWait(await c.get(`/opt-ins/confirm/state?token=${wrong(4)}`, guesser));
      expectWait(await c.post('/kicker-auth/get-user', { ssoId: wrong(5) }, guesser));
      // Another client is not held up.
      const other = { 'x-forwarded-for': '203.0.113.61' };
      expect((await c.post('/opt-ins/confirm', { token: wrong(6) }, other)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
