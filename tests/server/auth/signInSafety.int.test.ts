import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { createAuthService } from '../../../server/auth/authService';
import { MAX_BUCKET_LENGTH } from '../../../server/auth/rateLimit';
import type { Database } from '../../../server/db/database';
import { createMailer, type Mailer, type OutgoingMail } from '../../../server/mail/mailer';
import { claimDueMails, enqueueMail } from '../../../server/store/mailQueueStore';
import { drainMailQueue } from '../../../server/mail/mailSender';
import { DEMO_PASSWORD, seedDemoData, setDemoPasswords } from '../../../server/seed';
import { startDemoOidcProvider, type RunningOidcProvider } from '../../../server/devOidc/demoOidcProvider';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeSignInTenant } from '../../support/builders';

/** Tests of docs/architecture.md "Sign-in safety"; more of them are in signIn.int.test.ts. */

const tenantWith = (id: string, features: string[] = []) => makeSignInTenant(id, {}, features);

const outboxDir = mkdtempSync(path.join(tmpdir(), 'portal-safety-'));
const tenant = tenantWith(uniqueTenantId('safe'));
const oauthTenant = tenantWith(uniqueTenantId('safe-sso'), ['oauth']);
/** A mail server that never answers: no sign-in answer may wait for it. */
const hangingTransport: Mailer = { send: () => new Promise(() => {}) };
let db: Database;
let email: string;
let baseUrl: string;
let provider: RunningOidcProvider;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  db = await getTestDatabase();
  const logins = await seedDemoData(db, [tenant, oauthTenant]);
  await setDemoPasswords(db, [tenant, oauthTenant], logins);
  email = logins.find((l) => l.tenantId === tenant.id)!.email;
  const server = await listen(
    createApp({
      // The test's sign-on provider listens on 127.0.0.1.
      allowPrivateSignOnProviders: true,
      db,
      tenants: [tenant, oauthTenant],
      distDir: outboxDir,
      mailer: hangingTransport,
    }).app,
  );
  baseUrl = server.baseUrl;
  provider = await startDemoOidcProvider({
    port: 0,
    clients: [{ clientId: 'portal-safety', redirectUris: [`${baseUrl}/t/${oauthTenant.id}/login`] }],
  });
  oauthTenant.login.oauth = {
    issuer: provider.issuer,
    clientId: 'portal-safety',
    scopes: ['openid', 'email'],
  };
  closers.push(server.close, provider.close);
});

afterAll(async () => {
  for (const close of closers) await close();
});

async function client(t: ServerTenant = tenant) {
  const c = browserLikeClient(baseUrl, `/t/${t.id}/api`);
  await c.get('/subscriptions'); // picks up the XSRF cookie
  return c;
}

describe('a sign-on provider the tenant file names goes through the outbound guard', () => {
  it('asks no provider at a private address under a server that does not allow it, and says the sign-on is unavailable', async () => {
    const sso = tenantWith(uniqueTenantId('private-sso'), ['oauth']);
    let asked = 0;
    const inward = http.createServer((_req, res) => {
      asked += 1;
      res.end('{}');
    });
    await new Promise<void>((resolve) => inward.listen(0, '127.0.0.1', resolve));
    const port = (inward.address() as { port: number }).port;
    sso.login.oauth = { issuer: `http://127.0.0.1:${port}`, clientId: 'inward', scopes: ['openid'] };
    // What `portal serve` makes: no development pages, no allowance for private providers.
    const server = await listen(
      createApp({ db, tenants: [sso], distDir: outboxDir, mailer: hangingTransport }).app,
    );
    try {
      const response = await fetch(`${server.baseUrl}/t/${sso.id}/sso/authorize`, {
        redirect: 'manual',
      });
      // The browser that followed the SSO button is back on the login page, which says why.
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe(`/t/${sso.id}/login?sso=unavailable`);
      expect(asked).toBe(0);
      // A post that finishes no sign-on this browser started is refused before the provider is
      // asked: a stranger cannot make the server call out, whatever the provider's state.
      const first = await fetch(`${server.baseUrl}/t/${sso.id}/api/faq`);
      const xsrf = /XSRF-TOKEN=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')![1];
      const stranger = await fetch(`${server.baseUrl}/t/${sso.id}/api/login/oauth?code=x&state=y`, {
        method: 'POST',
        headers: { cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf, accept: 'application/json' },
      });
      expect(stranger.status).toBe(401);
      expect(((await stranger.json()) as { error: { code: string } }).error.code).toBe('invalid_oauth_state');
      expect(asked).toBe(0);
    } finally {
      await server.close();
      await new Promise((resolve) => inward.close(resolve));
    }
  });
});

describe('a sign-on provider that cannot be reached', () => {
  it('sends the browser back to the login page with the page it asked for, and is not asked again at once', async () => {
    const sso = tenantWith(uniqueTenantId('down-sso'), ['oauth']);
    let asked = 0;
    const down = http.createServer((_req, res) => {
      asked += 1;
      res.writeHead(503).end();
    });
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    const port = (down.address() as { port: number }).port;
    sso.login.oauth = { issuer: `http://127.0.0.1:${port}`, clientId: 'down', scopes: ['openid'] };
    const server = await listen(
      createApp({
        allowPrivateSignOnProviders: true,
        db,
        tenants: [sso],
        distDir: outboxDir,
        mailer: hangingTransport,
      }).app,
    );
    try {
      const first = await fetch(`${server.baseUrl}/t/${sso.id}/sso/authorize?returnTo=%2Finvoices`, {
        redirect: 'manual',
      });
      expect(first.status).toBe(302);
      expect(first.headers.get('location')).toBe(`/t/${sso.id}/login?sso=unavailable&returnTo=%2Finvoices`);
      // No binding cookie for a sign-on that did not start.
      expect(first.headers.get('set-cookie') ?? '').not.toContain('portal_sso_binding');
      expect(asked).toBe(1);
      const again = await fetch(`${server.baseUrl}/t/${sso.id}/sso/authorize`, { redirect: 'manual' });
      expect(again.headers.get('location')).toBe(`/t/${sso.id}/login?sso=unavailable`);
      // The failed discovery is remembered for a while (server/auth/oauthLogin.ts FAILED_DISCOVERY_MS).
      expect(asked).toBe(1);
    } finally {
      await server.close();
      await new Promise((resolve) => down.close(resolve));
    }
  });
});

describe('OAuth sign-on bound to the browser that started it', () => {
  async function startSignOn(returnTo?: string) {
    const query = returnTo === undefined ? '' : `?returnTo=${encodeURIComponent(returnTo)}`;
    const response = await fetch(`${baseUrl}/t/${oauthTenant.id}/sso/authorize${query}`, {
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    const state = new URL(response.headers.get('location')!).searchParams.get('state')!;
    const cookie = response.headers.get('set-cookie') ?? '';
    return { state, cookie, binding: /portal_sso_binding=([^;]+)/.exec(cookie)?.[1] };
  }

  /** POST /api/login/oauth as a browser with the given cookies (plus its XSRF pair). */
  async function completeFrom(cookies: string, query: string) {
    const first = await fetch(`${baseUrl}/t/${oauthTenant.id}/api/subscriptions`);
    const xsrf = /XSRF-TOKEN=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')![1];
    const response = await fetch(`${baseUrl}/t/${oauthTenant.id}/api/login/oauth?${query}`, {
      method: 'POST',
      headers: {
        cookie: [`XSRF-TOKEN=${xsrf}`, cookies].filter(Boolean).join('; '),
        'x-xsrf-token': xsrf,
        accept: 'application/json',
      },
    });
    return { status: response.status, body: await response.json() };
  }

  it('sets an httpOnly, SameSite=Lax binding cookie scoped to the tenant base at /sso/authorize', async () => {
    const { cookie, binding } = await startSignOn();
    expect(binding).toMatch(/^[\w-]{43}$/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toContain(`Path=/t/${oauthTenant.id}/`);
    const rows = await db.query<{ binding_hash: string }>(
      `select binding_hash from oauth_requests where tenant_id = $1`,
      [oauthTenant.id],
    );
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.binding_hash) && row.binding_hash !== binding)).toBe(
      true,
    );
  });

  it('refuses a state started by another browser, without spending it; the starting browser still gets through the state check', async () => {
    const { state, binding } = await startSignOn();
    const stranger = await completeFrom('', `code=stolen&state=${state}`);
    expect(stranger.status).toBe(401);
    expect(stranger.body.error.code).toBe('invalid_oauth_state');
    const otherBrowser = await startSignOn();
    const wrongBinding = await completeFrom(
      `portal_sso_binding=${otherBrowser.binding}`,
      `code=stolen&state=${state}`,
    );
    expect(wrongBinding.body.error.code).toBe('invalid_oauth_state');
    // The starting browser passes the binding and state check; only the fake code fails after it.
    const owner = await completeFrom(`portal_sso_binding=${binding}`, `code=not-a-real-code&state=${state}`);
    expect(owner.status).toBe(401);
    expect(owner.body.error.code).toBe('oauth_failed');
  });

  it.each([['/\\evil.example'], ['//evil.example'], ['https://evil.example'], ['/%2F%2Fevil.example']])(
    'drops returnTo %s and keeps a same-portal path',
    async (returnTo) => {
      const refused = await startSignOn(returnTo);
      const kept = await startSignOn('/orders');
      const rows = await db.query<{ state_hash: string; return_to: string | null }>(
        `select state_hash, return_to from oauth_requests where tenant_id = $1`,
        [oauthTenant.id],
      );
      const { createHash } = await import('node:crypto');
      const byState = (state: string) =>
        rows.find((row) => row.state_hash === createHash('sha256').update(state).digest('hex'))!;
      expect(byState(refused.state).return_to).toBeNull();
      expect(byState(kept.state).return_to).toBe('/orders');
    },
  );
});

describe('e-mails through the queue', () => {
  const counts = async () =>
    (
      await db.query<{ queued: number; tokens: number }>(
        `select (select count(*) from mail_queue where tenant_id = $1)::int as queued, (select count(*) from login_tokens where tenant_id = $1)::int as tokens`,
        [tenant.id],
      )
    )[0];

  it.each([
    ['magic link', '/login/magic-link', (address: string) => ({ email: address })],
    ['forgot password', '/password/forgot', (address: string) => ({ email: address })],
    [
      'register',
      '/register',
      (address: string) => ({
        displayName: 'Someone',
        email: address,
        password: 'Reader2026',
        passwordConfirm: 'Reader2026',
      }),
    ],
    ['e-mail + zip', '/login/email-zip', (address: string) => ({ email: address, zipcode: '12345' })],
  ])(
    '%s: answers at once while the mail server hangs, and does the same work for an account and an unknown address',
    async (_name, call, body) => {
      const c = await client();
      const results = [];
      for (const address of [email, `unknown-${Date.now()}@nowhere.example`]) {
        const before = await counts();
        const started = Date.now();
        const response = await c.post(call, body(address));
        results.push({ status: response.status, body: response.body, elapsed: Date.now() - started });
        const after = await counts();
        // One queued request, no token written by the request itself: the sender decides later.
        expect(after.queued - before.queued).toBe(1);
        expect(after.tokens - before.tokens).toBe(0);
      }
      expect(results[0].status).toBe(202);
      expect(results[0].body).toEqual(results[1].body);
      expect(results[0].status).toBe(results[1].status);
      for (const result of results) expect(result.elapsed).toBeLessThan(5000);
    },
  );

  it('kicker forgot-password takes the same path for an account and an unknown address', async () => {
    const kicker = tenantWith(uniqueTenantId('safe-kick'), ['kicker-auth']);
    kicker.login.password = false;
    const logins = await seedDemoData(db, [kicker]);
    const server = await listen(
      createApp({
        // The test's sign-on provider listens on 127.0.0.1.
        allowPrivateSignOnProviders: true,
        db,
        tenants: [kicker],
        distDir: outboxDir,
        mailer: hangingTransport,
      }).app,
    );
    closers.push(server.close);
    const c = browserLikeClient(server.baseUrl, `/t/${kicker.id}/api`);
    await c.get('/subscriptions');
    const queued = async () =>
      Number(
        (
          await db.query<{ n: number }>(
            `select count(*)::int as n from mail_queue where tenant_id = $1 and kind = 'reset'`,
            [kicker.id],
          )
        )[0].n,
      );
    const known = await c.post('/kicker-auth/forgotpw', { email: logins[0].email });
    const unknown = await c.post('/kicker-auth/forgotpw', { email: 'nobody@nowhere.example' });
    expect(known.body).toEqual(unknown.body);
    expect(await queued()).toBe(2);
  });

  it('sends a queued mail once, retries a failure with back-off and gives up after the last attempt', async () => {
    const sent: OutgoingMail[] = [];
    let failNext = true;
    const to = `retry-${Date.now()}@reader.example`;
    const flaky: Mailer = {
      async send(mail) {
        if (mail.to !== to) return;
        if (failNext) {
          failNext = false;
          throw new Error('SMTP 451 try later');
        }
        sent.push(mail);
      },
    };
    await enqueueMail(db, {
      tenantId: tenant.id,
      to,
      from: 'portal@example.org',
      subject: 'Retry me',
      text: 'Hello',
    });
    const first = await drainMailQueue(db, flaky);
    expect(first.retried).toBeGreaterThanOrEqual(1);
    const waiting = await db.query<{ state: string; attempts: number; wait_s: number; last_error: string }>(
      `select state, attempts, extract(epoch from next_attempt_at - now())::float as wait_s, last_error from mail_queue where tenant_id = $1 and mail->>'to' = $2`,
      [tenant.id, to],
    );
    expect(waiting[0]).toMatchObject({ state: 'queued', attempts: 1, last_error: 'SMTP 451 try later' });
    expect(waiting[0].wait_s).toBeGreaterThan(20); // the first back-off step is 30 s
    expect((await drainMailQueue(db, flaky)).sent).toBe(0); // not due yet

    await db.query(
      `update mail_queue set next_attempt_at = now() where tenant_id = $1 and mail->>'to' = $2`,
      [tenant.id, to],
    );
    await drainMailQueue(db, flaky);
    expect(sent.filter((mail) => mail.to === to)).toHaveLength(1);
    const done = await db.query<{ state: string; mail: { text?: string } }>(
      `select state, mail from mail_queue where tenant_id = $1 and mail->>'to' = $2`,
      [tenant.id, to],
    );
    expect(done[0].state).toBe('sent');
    expect(done[0].mail.text).toBeUndefined(); // a sent body (maybe a live link) is not kept

    const hopeless = `hopeless-${Date.now()}@reader.example`;
    await enqueueMail(db, {
      tenantId: tenant.id,
      to: hopeless,
      from: 'portal@example.org',
      subject: 'Never',
      text: 'x',
    });
    const broken: Mailer = { send: async () => Promise.reject(new Error('connection refused')) };
    const gaveUp = await drainMailQueue(db, broken, { maxAttempts: 1 });
    expect(gaveUp.failed).toBeGreaterThanOrEqual(1);
    const failed = await db.query<{ state: string }>(
      `select state from mail_queue where tenant_id = $1 and mail->>'to' = $2`,
      [tenant.id, hopeless],
    );
    expect(failed[0].state).toBe('failed');
  });

  it('sends a mail to one address only: a list or a name beside it is given up at once, unsent', async () => {
    const marker = `listed-${Date.now()}`;
    const sent: OutgoingMail[] = [];
    const recording: Mailer = { send: async (mail) => void sent.push(mail) };
    const lists = [`${marker}@reader.example, someone@else.example`, `A <${marker}@reader.example>`];
    for (const to of [...lists, `${marker}@reader.example`])
      await enqueueMail(db, {
        tenantId: tenant.id,
        to,
        from: 'portal@example.org',
        subject: 'Link',
        text: 'x',
      });
    await drainMailQueue(db, recording);
    expect(sent.map((mail) => mail.to).filter((to) => to.includes(marker))).toEqual([
      `${marker}@reader.example`,
    ]);
    const rows = await db.query<{ to: string; state: string; attempts: number; last_error: string | null }>(
      `select mail->>'to' as to, state, attempts, last_error from mail_queue where tenant_id = $1 and mail->>'to' = any($2::text[])`,
      [tenant.id, lists],
    );
    expect(rows).toHaveLength(2);
    for (const row of rows)
      expect(row).toMatchObject({
        state: 'failed',
        attempts: 1,
        last_error: 'the recipient is not one e-mail address',
      });
  });

  it('lets two senders drain one queue at once without sending any mail twice', async () => {
    const marker = `parallel-${Date.now()}`;
    for (let i = 0; i < 12; i++) {
      await enqueueMail(db, {
        tenantId: tenant.id,
        to: `${marker}-${i}@reader.example`,
        from: 'portal@example.org',
        subject: marker,
        text: 'x',
      });
    }
    const sent: string[] = [];
    const slow: Mailer = {
      async send(mail) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (mail.subject === marker) sent.push(mail.to);
      },
    };
    await Promise.all([
      drainMailQueue(db, slow, { batchSize: 3 }),
      drainMailQueue(db, slow, { batchSize: 3 }),
    ]);
    expect(sent).toHaveLength(12);
    expect(new Set(sent).size).toBe(12);
  });

  it('takes over a mail whose sender died while holding it, once its lease runs out', async () => {
    const to = `orphan-${Date.now()}@reader.example`;
    await enqueueMail(db, {
      tenantId: tenant.id,
      to,
      from: 'portal@example.org',
      subject: 'Orphan',
      text: 'x',
    });
    const claimed = await claimDueMails(db, { limit: 100, leaseMs: 50 }); // an instance claims … and dies
    expect(claimed.some((row) => row.mail?.to === to)).toBe(true);
    const sent: string[] = [];
    const transport: Mailer = { send: async (mail) => void sent.push(mail.to) };
    await drainMailQueue(db, transport);
    expect(sent).not.toContain(to); // still leased
    await new Promise((resolve) => setTimeout(resolve, 80));
    await drainMailQueue(db, transport);
    expect(sent).toContain(to);
  });

  it('repeats only the mail in flight when its sender dies between the SMTP answer and the sent mark, with the same Message-ID', async () => {
    const marker = `crash-${Date.now()}`;
    for (let i = 0; i < 5; i++)
      await enqueueMail(db, {
        tenantId: tenant.id,
        to: `${marker}-${i}@reader.example`,
        from: 'Verlag <no-reply@verlag.example>',
        subject: marker,
        text: 'x',
      });
    const delivered: Array<{ to: string; messageId?: string }> = [];
    // The first instance: the SMTP server takes its first mail, then the process is killed before
    // it marks the mail sent (its send never returns).
    const dying: Mailer = {
      send: (mail) => {
        if (mail.subject === marker) delivered.push({ to: mail.to, messageId: mail.messageId });
        return new Promise(() => undefined);
      },
    };
    void drainMailQueue(db, dying, { batchSize: 5, leaseMs: 150 });
    await expect.poll(() => delivered.length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 250));
    // Another instance takes over once the leases ran out.
    const healthy: Mailer = {
      send: async (mail) => {
        if (mail.subject === marker) delivered.push({ to: mail.to, messageId: mail.messageId });
      },
    };
    await drainMailQueue(db, healthy, { batchSize: 5, leaseMs: 150 });
    expect(delivered).toHaveLength(6);
    const [first] = delivered;
    const repeats = delivered.filter((d) => d.to === first.to);
    expect(repeats).toHaveLength(2);
    expect(repeats[1].messageId).toBe(first.messageId);
    expect(first.messageId).toMatch(/^<[^<>@\s]+@verlag\.example>$/);
    expect(new Set(delivered.map((d) => d.to)).size).toBe(5);
    expect(new Set(delivered.map((d) => d.messageId)).size).toBe(5);
  });

  it('writes the outbox through the file transport when drained (the /outbox demo page reads it)', async () => {
    const c = await client();
    await c.post('/login/magic-link', { email });
    const fileTransport = createMailer({ outboxDir });
    await drainMailQueue(db, fileTransport);
    const { readOutbox } = await import('../../../server/mail/mailer');
    const entries = await readOutbox(outboxDir);
    expect(entries.some((entry) => entry.to === email && /login\?p=/.test(entry.text))).toBe(true);
  });
});

describe('one mailbox, one budget', () => {
  const limits = { windowSeconds: 900, perAddress: 5, perClient: 1000 };
  const auth = () => createAuthService({ db, mailFrom: 'portal@example.org', signInLimits: limits });
  const origin = (client: string) => ({ portalUrl: 'http://127.0.0.1/t/x/', client });
  const status = async (request: Promise<unknown>) =>
    request.then(
      () => 202,
      (error: { status?: number }) => error.status ?? 500,
    );

  it('counts every flow that mails the address a link that signs in against its five, from whatever client', async () => {
    const address = `mailbox-${Date.now()}@reader.example`;
    const registration = {
      email: address,
      password: 'Secret12345',
      passwordConfirm: 'Secret12345',
      displayName: 'Reader',
    };
    const flows = [
      (c: string) => auth().requestMagicLink(tenant, { email: address }, origin(c)),
      (c: string) => auth().forgotPassword(tenant, { email: address }, origin(c)),
      (c: string) => auth().requestMagicLink(tenant, { email: ` ${address.toUpperCase()} ` }, origin(c)),
      (c: string) => auth().forgotPassword(tenant, { email: address }, origin(c)),
      (c: string) => auth().requestMagicLink(tenant, { email: address }, origin(c)),
      // A sixth mail, by a flow that has sent two of its own five, from a new client: the mailbox's
      // budget is spent.
      (c: string) => auth().forgotPassword(tenant, { email: address }, origin(c)),
      // A registration's mail depends on whether the address has an account: its request counts per
      // client and per address and client, and the sender caps the mailbox (registration.ts).
      (c: string) => auth().register(tenant, registration, origin(c)),
    ];
    const statuses = [];
    for (const [i, flow] of flows.entries()) statuses.push(await status(flow(`198.51.100.${40 + i}`)));
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429, 202]);
    // Another mailbox is not touched.
    expect(
      await status(auth().forgotPassword(tenant, { email: `other-${address}` }, origin('198.51.100.60'))),
    ).toBe(202);
  });
});

describe('e-mail + zip and bulk renewal spend the mailbox only with the mails they make', () => {
  const limits = { windowSeconds: 900, perAddress: 5, perClient: 1000 };
  const auth = () => createAuthService({ db, mailFrom: 'portal@example.org', signInLimits: limits });
  const origin = (client: string) => ({ portalUrl: 'http://127.0.0.1/t/x/', client });
  const status = async (request: Promise<unknown>) =>
    request.then(
      () => 202,
      (error: { status?: number }) => error.status ?? 500,
    );
  /** A seeded account of the tenant (not the one the other tests sign in with) and its partner's zip code and name. */
  const reader = async (index: number) => {
    const rows = await db.query<{ email: string; zipcode: string; lastName: string }>(
      `select u.email, bp.zipcode, bp.last_name1 as "lastName" from users u
         join user_business_partners ubp on ubp.tenant_id = u.tenant_id and ubp.user_id = u.id
         join business_partners bp on bp.tenant_id = ubp.tenant_id and bp.bp_number = ubp.bp_number
        where u.tenant_id = $1 and u.email <> $2 and bp.zipcode is not null and bp.last_name1 is not null
          and bp.email_address = u.email
        order by u.email`,
      [tenant.id, email],
    );
    expect(rows.length).toBeGreaterThan(index);
    return rows[index];
  };
  const mailsTo = async (address: string) => {
    const sent: OutgoingMail[] = [];
    await drainMailQueue(db, { send: async (mail) => void sent.push(mail) });
    return sent.filter((mail) => mail.to === address);
  };

  it("refuses the client that asks with facts that do not hold, not the address's owner on another client", async () => {
    const owner = await reader(0);
    await mailsTo(owner.email); // what earlier tests queued
    const wrongZip = (client: string) =>
      status(auth().requestEmailZipLink(tenant, { email: owner.email, zipcode: '00000' }, origin(client)));
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push(await wrongZip('198.51.100.70'));
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    for (let i = 0; i < 5; i++)
      expect(
        await status(
          auth().requestBulkRenewalLink(
            tenant,
            { email: owner.email, lastName: 'Niemand', zipcode: '00000' },
            origin('198.51.100.71'),
          ),
        ),
      ).toBe(202);
    // Nothing reached the mailbox, so nothing of its budget is spent: the owner's login link goes out.
    expect(
      await status(auth().requestMagicLink(tenant, { email: owner.email }, origin('203.0.113.70'))),
    ).toBe(202);
    expect(await status(wrongZip('203.0.113.71'))).toBe(202);
    const mails = await mailsTo(owner.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toMatch(/login\?p=/);
  });

  it("a stranger's registrations of the owner's address spend neither the owner's login links nor the links facts make", async () => {
    const owner = await reader(0);
    await mailsTo(owner.email);
    const registration = {
      email: owner.email,
      password: 'Secret12345',
      passwordConfirm: 'Secret12345',
      displayName: 'Eve',
    };
    for (let i = 0; i < 5; i++)
      expect(await status(auth().register(tenant, registration, origin('198.51.100.200')))).toBe(202);
    expect(await status(auth().register(tenant, registration, origin('198.51.100.200')))).toBe(429);
    // From other clients they are answered, and the mailbox has no more of them in the window.
    expect(await status(auth().register(tenant, registration, origin('198.51.100.201')))).toBe(202);
    expect(await mailsTo(owner.email)).toHaveLength(5);
    // The owner's e-mail + zip link and login link both go out.
    expect(
      await status(
        auth().requestEmailZipLink(
          tenant,
          { email: owner.email, zipcode: owner.zipcode },
          origin('203.0.113.200'),
        ),
      ),
    ).toBe(202);
    expect(
      await status(auth().requestMagicLink(tenant, { email: owner.email }, origin('203.0.113.201'))),
    ).toBe(202);
    const links = await mailsTo(owner.email);
    expect(links).toHaveLength(2);
    for (const link of links) expect(link.text).toMatch(/login\?p=/);
  });

  it('counts every spelling of one mailbox against its budgets: name+tag@ reaches name@', async () => {
    const [local, domain] = ['one.mailbox', 'example.org'];
    const sentToMailbox = async () => {
      const sent: OutgoingMail[] = [];
      await drainMailQueue(db, { send: async (mail) => void sent.push(mail) });
      return sent.filter((mail) => mail.to.replace(/\+[^@]*@/, '@') === `${local}@${domain}`);
    };
    await sentToMailbox();
    // Registrations of eight spellings, each from a client of its own: five mails reach the mailbox.
    for (let i = 0; i < 8; i++) {
      const registration = {
        email: `${local}+${i}@${domain}`,
        password: 'Secret12345',
        passwordConfirm: 'Secret12345',
        displayName: 'Eve',
      };
      expect(await status(auth().register(tenant, registration, origin(`198.51.100.${210 + i}`)))).toBe(202);
    }
    expect(await sentToMailbox()).toHaveLength(5);
    // Login links asked for other spellings count in the one budget of login links too.
    for (let i = 0; i < 5; i++)
      await auth().requestMagicLink(
        tenant,
        { email: `${local}+x${i}@${domain}` },
        origin(`203.0.113.${210 + i}`),
      );
    expect(
      await status(auth().requestMagicLink(tenant, { email: `${local}@${domain}` }, origin('203.0.113.220'))),
    ).toBe(429);
  });

  it('caps the links that facts which hold make at the mailbox budget; an opened link gives its place back', async () => {
    const owner = await reader(1);
    await mailsTo(owner.email);
    for (let i = 0; i < 6; i++)
      expect(
        await status(
          auth().requestEmailZipLink(
            tenant,
            { email: owner.email, zipcode: owner.zipcode },
            origin(`192.0.2.${80 + i}`),
          ),
        ),
      ).toBe(202);
    const links = await mailsTo(owner.email);
    expect(links).toHaveLength(5);
    const token = /login\?p=([^&\s]+)/.exec(links[0].text)![1];
    await auth().loginWithToken(tenant, decodeURIComponent(token), '192.0.2.90');
    expect(
      await status(
        auth().requestBulkRenewalLink(
          tenant,
          { email: owner.email, lastName: owner.lastName, zipcode: owner.zipcode },
          origin('192.0.2.91'),
        ),
      ),
    ).toBe(202);
    expect(await mailsTo(owner.email)).toHaveLength(1);
  });

  it('keeps the links that facts made out of the budget requests read, so no 429 tells whether they held', async () => {
    const owner = await reader(2);
    await mailsTo(owner.email);
    for (let i = 0; i < 5; i++)
      expect(
        await status(
          auth().requestEmailZipLink(
            tenant,
            { email: owner.email, zipcode: owner.zipcode },
            origin(`198.51.100.${120 + i}`),
          ),
        ),
      ).toBe(202);
    expect(await mailsTo(owner.email)).toHaveLength(5);
    // The login links' own budget is untouched by those five: as for an address whose zip code
    // nobody knew, five go out and the sixth is refused.
    const statuses = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        await status(auth().requestMagicLink(tenant, { email: owner.email }, origin(`203.0.113.${120 + i}`))),
      );
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });
});

describe('password attempts slow a guesser without locking the owner out', () => {
  const limits = { windowSeconds: 900, perAddress: 5, perClient: 1000 };
  const auth = () => createAuthService({ db, mailFrom: 'portal@example.org', signInLimits: limits });
  const origin = (client: string) => ({ portalUrl: 'http://127.0.0.1/t/x/', client });
  const attempt = async (password: string, client: string, address = email) => {
    try {
      await auth().loginWithPassword(tenant, { email: address, password }, origin(client));
      return 200;
    } catch (error) {
      return (error as { status?: number }).status ?? 500;
    }
  };

  it('stops the guessing client after five wrong passwords, while the owner on a fresh client still logs in', async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push(await attempt('Wrong1234', '198.51.100.7'));
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect(await attempt(DEMO_PASSWORD, '198.51.100.7')).toBe(429);
    expect(await attempt(DEMO_PASSWORD, '203.0.113.20')).toBe(200);
  });

  it('backs off clients that failed on an address once it has many failures; a fresh client is still checked', async () => {
    const target = (
      await db.query<{ email: string }>(
        `select email from users where tenant_id = $1 and password_hash is not null and email <> $2 limit 1`,
        [tenant.id, email],
      )
    )[0].email;
    for (let i = 1; i <= 5; i++) expect(await attempt('Wrong1234', `192.0.2.${i}`, target)).toBe(401);
    // Each of these clients failed here: they wait (2 s, doubling) instead of guessing on.
    expect(await attempt('Wrong1234', '192.0.2.1', target)).toBe(429);
    expect(await attempt(DEMO_PASSWORD, '192.0.2.2', target)).toBe(429);
    // A client without a failure on this address is checked: wrong is 401, right is 200.
    expect(await attempt('Wrong1234', '192.0.2.50', target)).toBe(401);
    expect(await attempt(DEMO_PASSWORD, '192.0.2.51', target)).toBe(200);
  });

  it('keeps rate-limit keys short whatever the client and address (no 500 for a 6,000-character value)', async () => {
    const huge = `${'x'.repeat(6000)}`;
    expect(await attempt('Wrong1234', huge)).toBe(401);
    const c = await client();
    const response = await c.post(
      '/login/password',
      { email, password: 'Wrong1234' },
      { 'x-forwarded-for': huge },
    );
    expect(response.status).toBeLessThan(500);
    const longest = await db.query<{ n: number }>(
      `select max(length(bucket))::int as n from rate_limits where tenant_id = $1`,
      [tenant.id],
    );
    expect(longest[0].n).toBeLessThanOrEqual(MAX_BUCKET_LENGTH + 80);
  });
});
