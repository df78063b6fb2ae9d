import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import type { Database } from '../../../server/db/database';
import { DEMO_PASSWORD, seedDemoData, setDemoPasswords } from '../../../server/seed';
import { startDemoOidcProvider, type RunningOidcProvider } from '../../../server/devOidc/demoOidcProvider';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import { RETURN_TO_MAX_LENGTH } from '../../../engine/domain/returnTo';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeSignInTenant } from '../../support/builders';
import { createTestOutbox, firstLink } from '../../support/outbox';

/**
 * Sign-in keeps the destination (portal-core.md §2 "Login"). The server's part: the
 * mailed login link carries the page it was asked for, the OAuth state keeps it through the
 * provider, and only same-portal paths (engine/domain/returnTo.ts) get that far.
 */

const outbox = createTestOutbox('portal-destination-');
const tenant = makeSignInTenant(uniqueTenantId('dest'));
const oauthTenant = makeSignInTenant(uniqueTenantId('dest-sso'), {}, ['oauth']);
let db: Database;
let email: string;
let subscriptionId: string;
let baseUrl: string;
let provider: RunningOidcProvider;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  db = await getTestDatabase();
  const logins = await seedDemoData(db, [tenant, oauthTenant]);
  await setDemoPasswords(db, [tenant, oauthTenant], logins);
  email = logins.find((login) => login.tenantId === tenant.id)!.email;
  const server = await listen(
    createApp({
      // The test's sign-on provider listens on 127.0.0.1.
      allowPrivateSignOnProviders: true,
      db,
      tenants: [tenant, oauthTenant],
      distDir: outbox.dir,
      mailer: outbox.mailer,
      signInLimits: { windowSeconds: 900, perAddress: 100, perClient: 1000 },
    }).app,
  );
  baseUrl = server.baseUrl;
  provider = await startDemoOidcProvider({
    port: 0,
    clients: [{ clientId: 'portal-destination', redirectUris: [`${baseUrl}/t/${oauthTenant.id}/login`] }],
  });
  oauthTenant.login.oauth = {
    issuer: provider.issuer,
    clientId: 'portal-destination',
    scopes: ['openid', 'email'],
  };
  closers.push(server.close, provider.close);
  const c = await client();
  const login = await c.post('/login/password', { email, password: DEMO_PASSWORD });
  c.setAccessToken(login.body.accessToken);
  subscriptionId = (await c.get<Array<{ id: string }>>('/subscriptions')).body[0].id;
});

afterAll(async () => {
  for (const close of closers) await close();
});

async function client(t: ServerTenant = tenant) {
  const c = browserLikeClient(baseUrl, `/t/${t.id}/api`);
  await c.get('/subscriptions'); // picks up the XSRF cookie
  return c;
}

/** Sends what the requests queued, then the newest link mailed to `to`. */
async function lastLinkTo(to: string): Promise<URL> {
  return firstLink((await outbox.mails(to)).at(-1)!.text);
}

describe('the mailed login link carries the page the login was asked for', () => {
  it('leads back to a deep link with its query; the token in it signs in', async () => {
    const c = await client();
    const destination = `/subscriptions/${subscriptionId}?view=x`;
    const response = await c.post('/login/magic-link', { email, locale: 'de-DE', returnTo: destination });
    expect(response.status).toBe(202);
    const link = await lastLinkTo(email);
    expect(link.pathname).toBe(`/t/${tenant.id}/login`);
    expect(link.searchParams.get('returnTo')).toBe(destination);
    expect(link.searchParams.get('lang')).toBe('de');
    const opened = await c.post('/login/token', { token: link.searchParams.get('p') });
    expect(opened.status).toBe(200);
    expect(opened.body.loginSource).toBe('token');
  });

  it('has no returnTo when none was asked for', async () => {
    const c = await client();
    expect((await c.post('/login/magic-link', { email })).status).toBe(202);
    expect((await lastLinkTo(email)).searchParams.has('returnTo')).toBe(false);
  });

  it.each([
    ['a protocol-relative host', '//evil.example/orders'],
    ['a backslash host', '/\\evil.example'],
    ['an absolute URL', 'https://evil.example/orders'],
    ['an encoded protocol-relative host', '/%2F%2Fevil.example'],
    ["another tenant's portal", '/t/other-tenant/subscriptions/1'],
    ['the login itself', '/login?p=x'],
    ['a relative path', 'subscriptions/1'],
  ])('leaves out %s: the link still signs in and leads to orders', async (_label, returnTo) => {
    const c = await client();
    const response = await c.post('/login/magic-link', { email, returnTo });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ status: 'sent' });
    const link = await lastLinkTo(email);
    expect(link.searchParams.has('returnTo')).toBe(false);
    expect(link.toString()).not.toContain('evil.example');
  });

  it('refuses a returnTo longer than a destination can be, naming the field', async () => {
    const c = await client();
    const response = await c.post('/login/magic-link', {
      email,
      returnTo: `/${'a'.repeat(RETURN_TO_MAX_LENGTH)}`,
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation_failed');
    expect(JSON.stringify(response.body.error.details)).toContain('returnTo');
  });
});

/**
 * A browser at the demo OpenID provider: follows its redirects with its cookies and submits its
 * login and consent forms, until it is sent back to the portal's login URL.
 */
async function signOnAtProvider(authorizationUrl: string, portalLogin: string, login: string): Promise<URL> {
  const cookies = new Map<string, string>();
  const keep = (response: Response) => {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  let next: { url: string; form?: URLSearchParams } = { url: authorizationUrl };
  for (let step = 0; step < 12; step++) {
    const response = await fetch(next.url, {
      method: next.form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: cookieHeader(),
        ...(next.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: next.form?.toString(),
    });
    keep(response);
    const location = response.headers.get('location');
    if (location) {
      const target = new URL(location, next.url);
      if (target.toString().startsWith(portalLogin)) return target;
      next = { url: target.toString() };
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (!action || !prompt)
      throw new Error(`the provider answered ${response.status} without a form:\n${html.slice(0, 500)}`);
    const form = new URLSearchParams({ prompt });
    if (prompt === 'login') {
      form.set('login', login);
      form.set('password', 'anything');
    }
    next = { url: new URL(action.replace(/&amp;/g, '&'), next.url).toString(), form };
  }
  throw new Error('the provider never sent the browser back');
}

describe('the OAuth state keeps the page through the provider', () => {
  async function signOn(returnTo: string | undefined) {
    const query = returnTo === undefined ? '' : `?returnTo=${encodeURIComponent(returnTo)}`;
    const started = await fetch(`${baseUrl}/t/${oauthTenant.id}/sso/authorize${query}`, {
      redirect: 'manual',
    });
    expect(started.status).toBe(302);
    const binding = /portal_sso_binding=([^;]+)/.exec(started.headers.get('set-cookie') ?? '')![1];
    const back = await signOnAtProvider(
      started.headers.get('location')!,
      `${baseUrl}/t/${oauthTenant.id}/login`,
      `reader-${Date.now()}@sso.example`,
    );
    expect(back.searchParams.get('code')).toMatch(/^[\w-]{20,}$/); // an authorisation code, not an error
    expect(back.searchParams.has('returnTo')).toBe(false); // the page travels in the state, not in the URL
    const first = await fetch(`${baseUrl}/t/${oauthTenant.id}/api/subscriptions`);
    const xsrf = /XSRF-TOKEN=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')![1];
    const completed = await fetch(`${baseUrl}/t/${oauthTenant.id}/api/login/oauth${back.search}`, {
      method: 'POST',
      headers: {
        cookie: `XSRF-TOKEN=${xsrf}; portal_sso_binding=${binding}`,
        'x-xsrf-token': xsrf,
        accept: 'application/json',
      },
    });
    return { status: completed.status, body: await completed.json() };
  }

  it('answers the sign-on with the deep link it started from', async () => {
    const answer = await signOn('/subscriptions/123-4?view=x');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ loginSource: 'oauth', returnTo: '/subscriptions/123-4?view=x' });
  });

  it.each([['//evil.example'], ['/t/other-tenant/orders'], ['https://evil.example']])(
    'answers without a destination for %s (the screen goes to orders)',
    async (returnTo) => {
      const answer = await signOn(returnTo);
      expect(answer.status).toBe(200);
      expect(answer.body.loginSource).toBe('oauth');
      expect(answer.body.returnTo).toBeUndefined();
    },
  );
});
