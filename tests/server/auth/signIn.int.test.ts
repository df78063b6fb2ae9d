import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskEmail } from '../../../engine/domain/fieldRules';
import { createApp } from '../../../server/app';
import type { Database } from '../../../server/db/database';
import { DEMO_PASSWORD, seedDemoData, setDemoPasswords } from '../../../server/seed';
import { startDemoOidcProvider, type RunningOidcProvider } from '../../../server/devOidc/demoOidcProvider';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeSignInTenant } from '../../support/builders';
import { createTestOutbox, firstLink } from '../../support/outbox';
import { createUser } from '../../../server/store/userStore';
import { acknowledgeChange } from '../../../server/operator/changes/changeFeed';

const tenantWith = makeSignInTenant;

const outbox = createTestOutbox('portal-signin-');
let db: Database;
const passwordTenant = {
  ...tenantWith(uniqueTenantId('pw')),
  contact: { fallbackEmail: 'service@reader.example', fallbackPhone: '+44 20 7946 0000' },
};
// A demo tenant ("demo": true): the one the development login signs in on.
const magicOnlyTenant = { ...tenantWith(uniqueTenantId('magic'), { password: false }), demo: true };
const oauthTenant = tenantWith(uniqueTenantId('sso'), {}, ['oauth']);
let email: string;
let demoEmail: string;
let baseUrl: string;
let devBaseUrl: string;
const closers: Array<() => Promise<void>> = [];
let provider: RunningOidcProvider;

/** The text of the newest mail to an address ('' when there is none). */
async function lastMailTo(to: string): Promise<string> {
  return (await outbox.mails(to)).at(-1)?.text ?? '';
}
const linkParam = (text: string, name: string) => firstLink(text).searchParams.get(name)!;

async function client(tenant: ServerTenant, url = baseUrl) {
  const c = browserLikeClient(url, `/t/${tenant.id}/api`);
  await c.get('/subscriptions'); // picks up the XSRF cookie
  return c;
}

beforeAll(async () => {
  db = await getTestDatabase();
  const logins = await seedDemoData(db, [passwordTenant, magicOnlyTenant, oauthTenant]);
  await setDemoPasswords(db, [passwordTenant, magicOnlyTenant, oauthTenant], logins);
  email = logins.find((l) => l.tenantId === passwordTenant.id)!.email;
  demoEmail = logins.find((l) => l.tenantId === magicOnlyTenant.id)!.email;
  const tenants = [passwordTenant, magicOnlyTenant, oauthTenant];
  const common = { db, tenants, distDir: outbox.dir, mailer: outbox.mailer };
  const production = await listen(
    createApp({
      // The test's sign-on provider listens on 127.0.0.1.
      allowPrivateSignOnProviders: true,
      ...common,
      signInLimits: { windowSeconds: 900, perAddress: 5, perClient: 1000 },
    }).app,
  );
  const development = await listen(
    createApp({
      // The test's sign-on provider listens on 127.0.0.1.
      allowPrivateSignOnProviders: true,
      ...common,
      mode: 'development',
    }).app,
  );
  baseUrl = production.baseUrl;
  devBaseUrl = development.baseUrl;
  provider = await startDemoOidcProvider({
    port: 0,
    clients: [{ clientId: 'portal-test', redirectUris: [`${baseUrl}/t/${oauthTenant.id}/login`] }],
  });
  oauthTenant.login.oauth = { issuer: provider.issuer, clientId: 'portal-test', scopes: ['openid', 'email'] };
  closers.push(production.close, development.close, provider.close);
});

afterAll(async () => {
  for (const close of closers) await close();
});

describe('password sign-in', () => {
  it('logs in with e-mail and password with login source "email"', async () => {
    const c = await client(passwordTenant);
    const response = await c.post('/login/password', { email: email.toUpperCase(), password: DEMO_PASSWORD });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ loginSource: 'email', user: { email } });
    c.setAccessToken(response.body.accessToken);
    expect((await c.get('/subscriptions')).status).toBe(200);
  });

  it('answers a wrong password and an unknown address alike', async () => {
    const c = await client(passwordTenant);
    const wrong = await c.post('/login/password', { email, password: 'Wrong1234' });
    const unknown = await c.post('/login/password', {
      email: 'nobody@nowhere.example',
      password: 'Wrong1234',
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error.code).toBe('invalid_credentials');
  });

  it('is not offered where the tenant has no password sign-in', async () => {
    const c = await client(magicOnlyTenant);
    expect((await c.post('/login/password', { email, password: DEMO_PASSWORD })).status).toBe(404);
  });

  it('stops one client guessing one address after the limit with 429 and Retry-After, kept in the database', async () => {
    const c = await client(passwordTenant);
    const target = 'limited@nowhere.example';
    for (let i = 0; i < 5; i++)
      expect((await c.post('/login/password', { email: target, password: 'Wrong1234' })).status).toBe(401);
    const limited = await c.post('/login/password', { email: target, password: 'Wrong1234' });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const rows = await db.query<{ hits: number }>(
      `select hits from rate_limits where tenant_id = $1 and bucket like $2`,
      [passwordTenant.id, `password:address-client:${target}|%`],
    );
    // The five wrong passwords; the refused sixth was never checked, so it is not counted.
    expect(rows.map((row) => Number(row.hits))).toEqual([5]);
  });
});

describe('create account', () => {
  it('creates the account only when the e-mailed link is opened, then logs in', async () => {
    const c = await client(passwordTenant);
    const address = `new-${Date.now()}@reader.example`;
    const response = await c.post('/register', {
      displayName: 'New Reader',
      email: address,
      password: 'Reader2026',
      passwordConfirm: 'Reader2026',
    });
    expect(response.status).toBe(202);
    expect((await c.post('/login/password', { email: address, password: 'Reader2026' })).status).toBe(401);
    const token = linkParam(await lastMailTo(address), 'confirm');
    const confirmed = await c.post('/register/confirm', { token, password: 'Reader2026' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.loginSource).toBe('email');
    expect((await c.post('/login/password', { email: address, password: 'Reader2026' })).status).toBe(200);
    // Opened again, the link says the account is confirmed already; an unknown one that it is invalid.
    const again = await c.post('/register/confirm', { token, password: 'Reader2026' });
    expect([again.status, again.body.error.code]).toEqual([409, 'already_confirmed']);
    const unknown = await c.post('/register/confirm', {
      token: `${token.slice(0, -2)}xx`,
      password: 'Reader2026',
    });
    expect([unknown.status, unknown.body.error.code]).toEqual([401, 'invalid_token']);
  });

  it('refuses a name of more than one line, which would go into the mails as lines of their own', async () => {
    const c = await client(passwordTenant);
    const address = `lines-${Date.now()}@reader.example`;
    const response = await c.post<any>('/register', {
      displayName: 'New Reader',
      firstName: 'New\nReader',
      email: address,
      password: 'Reader2026',
      passwordConfirm: 'Reader2026',
    });
    expect([response.status, response.body.error.details]).toEqual([
      400,
      [expect.objectContaining({ field: '/firstName', message: 'must match format "one-line"' })],
    ]);
    expect(await outbox.mails(address)).toEqual([]);
  });

  it("gives no account to whoever registered someone else's address: the link wants the password chosen", async () => {
    const attacker = await client(passwordTenant);
    const victim = `owner-${Date.now()}@reader.example`;
    expect(
      (
        await attacker.post('/register', {
          displayName: 'Owner',
          email: victim,
          password: 'Attacker2026',
          passwordConfirm: 'Attacker2026',
        })
      ).status,
    ).toBe(202);
    const token = linkParam(await lastMailTo(victim), 'confirm');
    // The owner opens the link, but did not choose that password: no account, the link stays.
    const owner = await client(passwordTenant);
    const refused = await owner.post('/register/confirm', { token, password: 'Owner2026x' });
    expect([refused.status, refused.body.error.code]).toEqual([400, 'wrong_registration_password']);
    const users = await db.query(`select 1 from users where tenant_id = $1 and email = $2`, [
      passwordTenant.id,
      victim,
    ]);
    expect(users).toHaveLength(0);
    expect((await attacker.post('/login/password', { email: victim, password: 'Attacker2026' })).status).toBe(
      401,
    );
    // The one who chose it confirms with the same link.
    expect((await owner.post('/register/confirm', { token, password: 'Attacker2026' })).status).toBe(200);
  });

  it('lets a leaked confirmation link guess its password no more often than an address may try', async () => {
    const c = await client(passwordTenant);
    const address = `guessed-${Date.now()}@reader.example`;
    await c.post('/register', {
      displayName: 'Guessed',
      email: address,
      password: 'Secret2026',
      passwordConfirm: 'Secret2026',
    });
    const token = linkParam(await lastMailTo(address), 'confirm');
    // The per-address limit of this server is 5 (and 1000 per client).
    for (let i = 0; i < 5; i++) {
      const wrong = await c.post('/register/confirm', { token, password: `Guess${i}2026` });
      expect(wrong.body.error.code).toBe('wrong_registration_password');
    }
    const limited = await c.post('/register/confirm', { token, password: 'Secret2026' });
    expect([limited.status, limited.body.error.code]).toEqual([429, 'rate_limited']);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('answers the same for an existing address and mails that person a hint instead', async () => {
    const c = await client(passwordTenant);
    const response = await c.post('/register', {
      displayName: 'Someone',
      email,
      password: 'Reader2026',
      passwordConfirm: 'Reader2026',
    });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ status: 'confirmation_sent' });
    expect(await lastMailTo(email)).toContain('You already have one');
  });

  it('refuses a weak password and a mismatched confirmation with the field named', async () => {
    const c = await client(passwordTenant);
    const weak = await c.post('/register', {
      displayName: 'X',
      email: 'weak@reader.example',
      password: 'abcdefgh',
      passwordConfirm: 'abcdefgh',
    });
    expect(weak.status).toBe(400);
    expect(weak.body.error.code).toBe('weak_password');
    const mismatch = await c.post('/register', {
      displayName: 'X',
      email: 'weak@reader.example',
      password: 'Reader2026',
      passwordConfirm: 'Reader2027',
    });
    expect(mismatch.body.error.code).toBe('password_mismatch');
  });
});

describe('forgotten password', () => {
  it('mails a single-use reset link; the new password works and old sessions end', async () => {
    const address = `reset-${Date.now()}@reader.example`;
    const c = await client(passwordTenant);
    await c.post('/register', {
      displayName: 'Reset Me',
      email: address,
      password: 'Before2026',
      passwordConfirm: 'Before2026',
    });
    const session = await c.post('/register/confirm', {
      token: linkParam(await lastMailTo(address), 'confirm'),
      password: 'Before2026',
    });
    const old = await client(passwordTenant);
    old.setAccessToken(session.body.accessToken);
    expect((await old.get('/subscriptions')).status).toBe(200);

    expect((await c.post('/password/forgot', { email: `  ${address}  ` })).status).toBe(202);
    const token = linkParam(await lastMailTo(address), 'reset');
    const reset = await c.post('/password/reset', {
      token,
      password: 'After2026x',
      passwordConfirm: 'After2026x',
    });
    expect(reset.status).toBe(200);
    // Recorded as a change of the account, once.
    const [{ id: userId }] = await db.query<{ id: string }>(
      `select id from users where tenant_id = $1 and email = $2`,
      [passwordTenant.id, address],
    );
    expect(
      await db.query(
        `select data from account_events where tenant_id = $1 and type = 'account.password_reset' and user_id = $2`,
        [passwordTenant.id, userId],
      ),
    ).toEqual([{ data: { userId } }]);
    expect((await old.get('/subscriptions')).status).toBe(401);
    expect((await c.post('/login/password', { email: address, password: 'Before2026' })).status).toBe(401);
    expect((await c.post('/login/password', { email: address, password: 'After2026x' })).status).toBe(200);
    expect(
      (await c.post('/password/reset', { token, password: 'Again2026x', passwordConfirm: 'Again2026x' }))
        .status,
    ).toBe(401);
    const stored = await db.query<{ password_hash: string }>(
      `select password_hash from users where tenant_id = $1 and email = $2`,
      [passwordTenant.id, address],
    );
    expect(stored[0].password_hash).toMatch(/^scrypt\$/);
  });

  it('voids the reset and sign-in links mailed before the reset: none sets another password or signs in', async () => {
    const address = `reset-links-${Date.now()}@reader.example`;
    const c = await client(passwordTenant);
    await c.post('/register', {
      displayName: 'Reset Links',
      email: address,
      password: 'Before2026',
      passwordConfirm: 'Before2026',
    });
    await c.post('/register/confirm', {
      token: linkParam(await lastMailTo(address), 'confirm'),
      password: 'Before2026',
    });
    await c.post('/password/forgot', { email: address });
    const olderReset = linkParam(await lastMailTo(address), 'reset');
    await c.post('/login/magic-link', { email: address });
    const signInLink = linkParam(await lastMailTo(address), 'p');
    await c.post('/password/forgot', { email: address });
    const newestReset = linkParam(await lastMailTo(address), 'reset');

    const owner = await c.post('/password/reset', {
      token: newestReset,
      password: 'Owner2026x',
      passwordConfirm: 'Owner2026x',
    });
    expect(owner.status).toBe(200);
    const other = await client(passwordTenant);
    const again = await other.post('/password/reset', {
      token: olderReset,
      password: 'Other2026x',
      passwordConfirm: 'Other2026x',
    });
    expect(again.status).toBe(401);
    expect((await other.post('/login/token', { token: signInLink })).status).toBe(401);
    expect((await other.post('/login/password', { email: address, password: 'Owner2026x' })).status).toBe(
      200,
    );
    // A link asked for after the reset signs in as before.
    await c.post('/login/magic-link', { email: address });
    expect(
      (await other.post('/login/token', { token: linkParam(await lastMailTo(address), 'p') })).status,
    ).toBe(200);
  });

  it('refuses a forgot-password address over 50 characters (§5)', async () => {
    const c = await client(passwordTenant);
    const response = await c.post('/password/forgot', { email: `${'a'.repeat(45)}@reader.example` });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation_failed');
  });
});

describe('development login', () => {
  it('is refused by a production server', async () => {
    const c = await client(passwordTenant);
    const response = await c.post('/login/dev', { email });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('dev_login_disabled');
  });

  it('signs in by e-mail on a development server with login source "dev", on a demo tenant only', async () => {
    const c = await client(magicOnlyTenant, devBaseUrl);
    const response = await c.post('/login/dev', { email: demoEmail });
    expect(response.status).toBe(200);
    expect(response.body.loginSource).toBe('dev');
    // A tenant that is no demo holds a publisher's subscribers, who sign in by a link or a password.
    const publisher = await client(passwordTenant, devBaseUrl);
    const refused = await publisher.post('/login/dev', { email });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('dev_login_disabled');
  });

  it('answers only on the machine itself, not through a proxy or to another host name', async () => {
    const c = await client(magicOnlyTenant, devBaseUrl);
    for (const headers of [
      { 'x-forwarded-for': '203.0.113.5' } as Record<string, string>,
      // A page that rebound its own name to 127.0.0.1 (DNS rebinding) sends that name as the Host.
      { host: 'evil.example' },
    ]) {
      const refused = await c.post<any>('/login/dev', { email: demoEmail }, headers);
      expect([refused.status, refused.body.error.code, refused.body.accessToken]).toEqual([
        403,
        'dev_login_local_only',
        undefined,
      ]);
    }
  });
});

describe('OAuth sign-in against a real OpenID provider', () => {
  it('sends the SSO button to the provider with PKCE (S256), state and nonce', async () => {
    const response = await fetch(`${baseUrl}/t/${oauthTenant.id}/sso/authorize`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(location.origin).toBe(provider.issuer);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(location.searchParams.get('state')).toMatch(/^[\w-]{40,}$/);
    expect(location.searchParams.get('nonce')).toMatch(/^[\w-]{40,}$/);
    expect(location.searchParams.get('redirect_uri')).toBe(`${baseUrl}/t/${oauthTenant.id}/login`);
    const db = await getTestDatabase();
    const waiting = await db.query(`select * from oauth_requests where tenant_id = $1`, [oauthTenant.id]);
    expect(waiting.length).toBeGreaterThan(0);
  });

  it('refuses a code with an unknown state', async () => {
    const c = await client(oauthTenant);
    const response = await c.post('/login/oauth?code=abc&state=forged');
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('invalid_oauth_state');
  });

  it('is not offered by a tenant without the oauth feature', async () => {
    const response = await fetch(`${baseUrl}/t/${passwordTenant.id}/sso/authorize`, { redirect: 'manual' });
    expect(response.status).toBe(403);
  });
});

describe('kicker-auth (SSO cookie)', () => {
  const kickerTenant = tenantWith(uniqueTenantId('kick'), { password: false }, ['kicker-auth']);
  let kickerUrl: string;
  let kickerEmail: string;

  beforeAll(async () => {
    const db = await getTestDatabase();
    const logins = await seedDemoData(db, [kickerTenant]);
    await setDemoPasswords(db, [kickerTenant], logins);
    kickerEmail = logins[0].email;
    const server = await listen(
      createApp({
        // The test's sign-on provider listens on 127.0.0.1.
        allowPrivateSignOnProviders: true,
        db,
        tenants: [kickerTenant],
        distDir: outbox.dir,
        mailer: outbox.mailer,
      }).app,
    );
    kickerUrl = server.baseUrl;
    closers.push(server.close);
  });

  it('logs in with e-mail and password, sets the kickeruser cookie, and its ssoid logs in again', async () => {
    const c = await client(kickerTenant, kickerUrl);
    const login = await c.post('/kicker-auth/login', { email: kickerEmail, password: DEMO_PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body.loginSource).toBe('kicker-auth');
    const cookie = login.headers.get('set-cookie')!;
    expect(cookie).toMatch(/kickeruser=ssoid%3D[\w-]+; Path=\//);
    const ssoId = decodeURIComponent(/kickeruser=([^;]+)/.exec(cookie)![1]).replace('ssoid=', '');
    expect(login.body.ssoId).toBeUndefined(); // only in the cookie

    const again = await client(kickerTenant, kickerUrl);
    const restored = await again.post('/kicker-auth/get-user', { ssoId });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ loginSource: 'kicker-auth', user: { email: kickerEmail } });

    // Log-out ends the SSO session too: the cookie's ssoid is worthless afterwards.
    again.setAccessToken(restored.body.accessToken);
    expect((await again.post('/logout')).status).toBe(204);
    const afterLogout = await again.post('/kicker-auth/get-user', { ssoId });
    expect(afterLogout.status).toBe(401);
    expect(afterLogout.body.error.code).toBe('invalid_sso_session');
  });

  it('refuses a guessed ssoid and a missing one', async () => {
    const c = await client(kickerTenant, kickerUrl);
    expect((await c.post('/kicker-auth/get-user', { ssoId: 'x'.repeat(43) })).status).toBe(401);
    expect((await c.post('/kicker-auth/get-user', {})).status).toBe(400);
  });

  it('answers register and forgot-password with a message', async () => {
    const c = await client(kickerTenant, kickerUrl);
    const registered = await c.post('/kicker-auth/register', {
      displayName: 'Club Member',
      email: `club-${Date.now()}@garden.example`,
      password: 'Garden2026',
      passwordConfirm: 'Garden2026',
    });
    expect(registered.status).toBe(202);
    expect(registered.body).toEqual({ message: 'confirmation_sent' });
    expect((await c.post('/kicker-auth/forgotpw', { email: kickerEmail })).body).toEqual({
      message: 'reset_sent',
    });
  });

  it('does not exist on tenants without the kicker-auth feature', async () => {
    const c = await client(passwordTenant);
    const refused = await c.post('/kicker-auth/login', { email, password: DEMO_PASSWORD });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('feature_disabled');
  });
});

describe('partial logins', () => {
  async function partner(where: string) {
    const db = await getTestDatabase();
    const rows = await db.query<{
      order_number: string;
      last_name1: string;
      email_address: string | null;
      subscription_id: string;
      zipcode: string;
    }>(
      `select s.order_number, bp.last_name1, bp.email_address, s.id as subscription_id, bp.zipcode
         from subscriptions s
         join subscription_roles sr on sr.tenant_id = s.tenant_id and sr.subscription_id = s.id and sr.role = 'AG'
         join business_partners bp on bp.tenant_id = sr.tenant_id and bp.bp_number = sr.bp_number
        where s.tenant_id = $1 and bp.last_name1 is not null and ${where}
        order by s.id limit 1`,
      [passwordTenant.id],
    );
    expect(rows[0]).toBeDefined();
    return rows[0];
  }
  const linked = `exists (select 1 from user_business_partners u where u.tenant_id = bp.tenant_id and u.bp_number = bp.bp_number)`;

  it('answers not_found and verification_failed as link results', async () => {
    const c = await client(passwordTenant);
    const unknown = await c.post('/login/order-number', { orderNumber: '4999999999', lastName: 'Nobody' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual({ status: 'not_found' });
    const target = await partner(linked);
    const wrongName = await c.post('/login/order-number', {
      orderNumber: target.order_number,
      lastName: 'Wrongname',
    });
    expect(wrongName.body.error.details).toEqual({ status: 'verification_failed', method: 'name' });
  });

  async function accountOf(bpWhere: string) {
    const rows = await db.query<{ email: string }>(
      `select u.email from users u join user_business_partners ubp on ubp.tenant_id = u.tenant_id and ubp.user_id = u.id
        where u.tenant_id = $1 and ubp.bp_number = (select sr.bp_number from subscription_roles sr where sr.tenant_id = $1 and sr.subscription_id = $2 and sr.role = 'AG')
        order by u.created_at limit 1`,
      [passwordTenant.id, bpWhere],
    );
    return rows[0]?.email;
  }
  // The partner's only address on record: its e-mail address, without a WW entry to fall back on.
  const setAddressOnRecord = (subscriptionId: string, address: string | null) =>
    db.query(
      `update business_partners set email_address = $3, details = details - 'listOfCommunication' where tenant_id = $1 and bp_number = (select bp_number from subscription_roles where tenant_id = $1 and subscription_id = $2 and role = 'AG')`,
      [passwordTenant.id, subscriptionId, address],
    );
  const counts = async () =>
    (
      await db.query<{ users: number; links: number }>(
        `select (select count(*) from users where tenant_id = $1)::int as users, (select count(*) from user_business_partners where tenant_id = $1)::int as links`,
        [passwordTenant.id],
      )
    )[0];

  it('mails a sign-in link to the account of a linked partner; the answer carries the masked address and nothing that stands in for the link', async () => {
    const c = await client(passwordTenant);
    const target = await partner(linked);
    const accountEmail = (await accountOf(target.subscription_id))!;
    const first = await c.post('/login/order-number', {
      orderNumber: target.order_number,
      lastName: target.last_name1.toUpperCase(),
    });
    expect(first.status).toBe(400);
    expect(first.body.error.details).toEqual({
      status: 'confirm_email',
      maskedEmail: expect.stringMatching(/^\w\*{3}@/),
    });
    expect(JSON.stringify(first.body)).not.toContain(accountEmail); // the address itself is never sent
    expect(first.body.accessToken).toBeUndefined();
    // The former confirmToken resubmission is no way in any more: it proved nothing.
    const resubmitted = await c.post('/login/order-number', {
      orderNumber: target.order_number,
      lastName: target.last_name1,
      confirmToken: 'x'.repeat(43),
    });
    expect(resubmitted.status).toBe(400);
    expect(resubmitted.body.error.code).toBe('validation_failed');

    // Opening the mailed link opens the §4 partial session for that one subscription and names it.
    const token = linkParam(await lastMailTo(accountEmail), 'p');
    const opened = await c.post('/login/token', { token });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({
      loginSource: 'order-number',
      user: { email: accountEmail },
      returnTo: `/subscriptions/${target.subscription_id}`,
    });
    expect((await c.post('/login/token', { token })).status).toBe(401); // single use
    c.setAccessToken(opened.body.accessToken);
    const list = await c.get('/subscriptions');
    expect(list.body.map((s: { id: string }) => s.id)).toEqual([target.subscription_id]);
    const other = await c.get('/purchase-orders');
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('partial_login');
  });

  it('neither creates an account nor links the partner for an e-mail the visitor types; the link goes to the address on record and only opening it links', async () => {
    const target = await partner(`not ${linked}`);
    const onRecord = `record-${Date.now()}@reader.example`;
    await setAddressOnRecord(target.subscription_id, onRecord);
    const attacker = `attacker-${Date.now()}@evil.example`;
    const before = await counts();
    const c = await client(passwordTenant);
    const answer = await c.post('/login/order-number', {
      orderNumber: target.order_number,
      lastName: target.last_name1,
      email: attacker,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toEqual({
      status: 'confirm_email',
      maskedEmail: maskEmail(onRecord),
    });
    expect(await counts()).toEqual(before);
    expect(await lastMailTo(attacker)).toBe('');
    expect(
      (
        await db.query(`select 1 from users where tenant_id = $1 and email = $2`, [
          passwordTenant.id,
          attacker,
        ])
      ).length,
    ).toBe(0);

    const opened = await c.post('/login/token', { token: linkParam(await lastMailTo(onRecord), 'p') });
    expect(opened.status).toBe(200);
    expect(opened.body.user.email).toBe(onRecord);
    c.setAccessToken(opened.body.accessToken);
    const list = await c.get('/subscriptions');
    expect(list.body.map((s: { id: string }) => s.id)).toContain(target.subscription_id);
  });

  it("takes the default WW entry of the partner's ways to reach them as the address on record when it has no e-mail address (portal-core.md §3)", async () => {
    const target = await partner(`not ${linked}`);
    const ww = `ww-${Date.now()}@reader.example`;
    const where = `tenant_id = $1 and bp_number = (select bp_number from subscription_roles where tenant_id = $1 and subscription_id = $2 and role = 'AG')`;
    const [before] = await db.query<{ email_address: string | null; details: unknown }>(
      `select email_address, details from business_partners where ${where}`,
      [passwordTenant.id, target.subscription_id],
    );
    await db.query(
      `update business_partners set email_address = null,
          details = details || jsonb_build_object('listOfCommunication', jsonb_build_array(
            jsonb_build_object('communicationType', 'TEL', 'communicationDefault', true, 'communicationValue', '+49 30 1234'),
            jsonb_build_object('communicationType', 'WW', 'communicationDefault', false, 'communicationValue', 'old@reader.example'),
            jsonb_build_object('communicationType', 'WW', 'communicationDefault', true, 'communicationValue', ' '),
            jsonb_build_object('communicationType', 'WW', 'communicationDefault', true, 'communicationValue', 'a@reader.example; b@reader.example'),
            jsonb_build_object('communicationType', 'WW', 'communicationDefault', true, 'communicationValue', $3::text)))
        where ${where}`,
      [passwordTenant.id, target.subscription_id, ww],
    );
    try {
      const c = await client(passwordTenant);
      const answer = await c.post<any>('/login/order-number', {
        orderNumber: target.order_number,
        lastName: target.last_name1,
      });
      expect(answer.body.error.details).toEqual({ status: 'confirm_email', maskedEmail: maskEmail(ww) });
      expect(await lastMailTo('old@reader.example')).toBe('');
      // The sign-in link asked for by that address finds the subscriber the order system brought in.
      const other = await client(passwordTenant);
      const before = (await outbox.mails(ww)).length;
      expect((await other.post('/login/magic-link', { email: ww.toUpperCase() })).status).toBe(202);
      const sent = (await outbox.mails(ww)).slice(before);
      expect(sent).toHaveLength(1);
      const opened = await other.post<any>('/login/token', { token: linkParam(sent[0].text, 'p') });
      expect(opened.status).toBe(200);
      expect(opened.body.loginSource).toBe('token');
      other.setAccessToken(opened.body.accessToken);
      expect((await other.get<any[]>('/subscriptions')).body.map((s) => s.id)).toContain(
        target.subscription_id,
      );
    } finally {
      await db.query(`update business_partners set email_address = $3, details = $4 where ${where}`, [
        passwordTenant.id,
        target.subscription_id,
        before.email_address,
        before.details,
      ]);
    }
  });

  it('tells the account that spoke for a partner when the address on record signs in for it too', async () => {
    const target = await partner(linked);
    const before = (await accountOf(target.subscription_id))!;
    const bp = (
      await db.query<{ bp_number: string }>(
        `select bp_number::text from subscription_roles where tenant_id = $1 and subscription_id = $2 and role = 'AG'`,
        [passwordTenant.id, target.subscription_id],
      )
    )[0].bp_number;
    // The order system now holds another address for the customer (a change of its own, or of
    // whoever holds a key that may write its records).
    const onRecord = `moved-${Date.now()}@reader.example`;
    await setAddressOnRecord(target.subscription_id, onRecord);
    const c = await client(passwordTenant);
    await c.post('/login/order-number', { orderNumber: target.order_number, lastName: target.last_name1 });
    expect(await lastMailTo(before)).not.toContain(bp); // nothing yet: the link is not opened
    const opened = await c.post('/login/token', { token: linkParam(await lastMailTo(onRecord), 'p') });
    expect(opened.status).toBe(200);

    const notice = (await outbox.mails(before)).at(-1)!;
    // In the tenant's language: the account's own is not known.
    expect(notice.subject).toBe(
      `Another e-mail address now signs in for your subscriptions at ${passwordTenant.name}`,
    );
    expect(notice.text).toContain(
      `The e-mail address m***@r***.example, which ${passwordTenant.name} holds on record for customer number ${bp}`,
    );
    expect(notice.text).toContain(
      'contact our customer service at once: service@reader.example, +44 20 7946 0000.',
    );
    expect(notice.text).not.toContain(onRecord);
    // Once: a second sign-in of the same address links nothing new and tells nobody again.
    await c.post('/login/order-number', { orderNumber: target.order_number, lastName: target.last_name1 });
    await c.post('/login/token', { token: linkParam(await lastMailTo(onRecord), 'p') });
    expect((await outbox.mails(before)).filter((mail) => mail.text.includes(bp))).toHaveLength(1);
  });

  it("links a partner the order system brought in later with an account's address when a login link is opened from it, and not again once the order system rejected that link", async () => {
    const target = await partner(`not ${linked}`);
    const bp = (
      await db.query<{ bp_number: string }>(
        `select bp_number::text from subscription_roles where tenant_id = $1 and subscription_id = $2 and role = 'AG'`,
        [passwordTenant.id, target.subscription_id],
      )
    )[0].bp_number;
    // The account exists (made earlier, with no partner); the order system now sends a partner
    // with its address on record.
    const email = `later-${Date.now()}@reader.example`;
    const user = await createUser(db, passwordTenant.id, { email });
    await setAddressOnRecord(target.subscription_id, email);
    const signIn = async () => {
      const c = await client(passwordTenant);
      expect((await c.post('/login/magic-link', { email })).status).toBe(202);
      const opened = await c.post('/login/token', { token: linkParam(await lastMailTo(email), 'p') });
      expect(opened.status).toBe(200);
      c.setAccessToken(opened.body.accessToken);
      return (await c.get<{ id: string }[]>('/subscriptions')).body.map((s) => s.id);
    };
    expect(await signIn()).toContain(target.subscription_id);
    const links = await db.query<{ id: string; data: unknown }>(
      `select id::text, data from account_events where tenant_id = $1 and type = 'subscription.linked' and user_id = $2`,
      [passwordTenant.id, user.id],
    );
    expect(links.map((e) => e.data)).toEqual([
      { userId: user.id, bpNumber: bp, subscriptionId: null, method: 'sign-in-link', emailStored: null },
    ]);
    // Signed in again: linked already, nothing recorded twice.
    expect(await signIn()).toContain(target.subscription_id);
    // The order system rejects the link: it is undone, and a later sign-in does not make it again.
    await acknowledgeChange(
      { db, now: () => new Date(), mailFrom: 'portal@reader.example' },
      passwordTenant,
      '00000000-0000-4000-8000-000000000000',
      links[0].id,
      { status: 'rejected', reason: { 'de-DE': 'Nicht dieser Kunde.', 'en-GB': 'Not this customer.' } },
    );
    expect(await signIn()).not.toContain(target.subscription_id);
    expect(
      (
        await db.query(
          `select 1 from account_events where tenant_id = $1 and type = 'subscription.linked' and user_id = $2`,
          [passwordTenant.id, user.id],
        )
      ).length,
    ).toBe(1);
  });

  it('answers no_email_on_record and creates nothing when the partner has neither an account nor an address', async () => {
    const target = await partner(`not ${linked}`);
    await setAddressOnRecord(target.subscription_id, null);
    const before = await counts();
    const c = await client(passwordTenant);
    const fresh = `partial-${Date.now()}@reader.example`;
    const answer = await c.post('/login/order-number', {
      orderNumber: target.order_number,
      lastName: target.last_name1,
      email: fresh,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toEqual({ status: 'no_email_on_record' });
    expect(await counts()).toEqual(before);
    expect(await lastMailTo(fresh)).toBe('');
  });

  it('answers e-mail + zip with 202 whatever the pair, and mails a login link (source "email-zip") only for a matching one', async () => {
    const rows = await db.query<{ zipcode: string }>(
      `select bp.zipcode from users u join user_business_partners ubp on ubp.tenant_id = u.tenant_id and ubp.user_id = u.id
         join business_partners bp on bp.tenant_id = ubp.tenant_id and bp.bp_number = ubp.bp_number
        where u.tenant_id = $1 and u.email = $2 and bp.zipcode is not null limit 1`,
      [passwordTenant.id, email],
    );
    const c = await client(passwordTenant);
    await lastMailTo(email); // sends whatever earlier tests queued
    const before = await lastMailTo(email);
    const wrong = await c.post('/login/email-zip', { email, zipcode: '00000' });
    const unknown = await c.post('/login/email-zip', { email: 'nobody@nowhere.example', zipcode: '00000' });
    expect(wrong.status).toBe(202);
    expect(wrong.body).toEqual(unknown.body);
    expect(await lastMailTo(email)).toBe(before);
    expect(await lastMailTo('nobody@nowhere.example')).toBe('');
    const ok = await c.post('/login/email-zip', { email, zipcode: rows[0].zipcode });
    expect(ok.status).toBe(202);
    expect(ok.body).toEqual(wrong.body);
    expect(ok.body.accessToken).toBeUndefined();
    const opened = await c.post('/login/token', { token: linkParam(await lastMailTo(email), 'p') });
    expect(opened.status).toBe(200);
    expect(opened.body.loginSource).toBe('email-zip');
  });
});
