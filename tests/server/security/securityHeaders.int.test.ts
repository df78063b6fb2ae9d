/**
 * The portal pages' CSP once held only frame-ancestors; no nosniff, no
 * Referrer-Policy, no Cache-Control on personal JSON; /preview listed every tenant in production;
 * the kickeruser cookie went to every tenant on a shared host. And (a later penetration test) that
 * cookie is readable by scripts: it must be, the page reads it (docs/architecture.md "Sign-in safety").
 * And no Strict-Transport-Security over HTTPS.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../../../server/http/trustProxy';
import { startSecurityFixture, type SecurityFixture } from './securityFixture';

let f: SecurityFixture;
let demo: SecurityFixture;

beforeAll(async () => {
  f = await startSecurityFixture();
  demo = await startSecurityFixture({
    devPages: true,
    outboxViewerDir: mkdtempSync(path.join(tmpdir(), 'portal-outbox-')),
  });
});

afterAll(async () => {
  await f?.close();
  await demo?.close();
});

const THEME = ':root{--color-primary:#9a3412}';

describe('the portal page', () => {
  it('has a Content-Security-Policy that runs only own scripts and allows the inline theme by its hash', async () => {
    const page = await f.call({
      method: 'GET',
      path: `/t/${f.tenants[0].id}/orders`,
      headers: { accept: 'text/html' },
    });
    expect(page.status).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    const directives = Object.fromEntries(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(directives['script-src']).toContain("'self'");
    expect(directives['script-src']).not.toContain("'unsafe-inline'");
    expect(directives['script-src']).not.toContain("'unsafe-eval'");
    expect(directives['style-src']).not.toContain("'unsafe-inline'");
    expect(directives['style-src']).toContain(
      `'sha256-${createHash('sha256').update(THEME).digest('base64')}'`,
    );
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['base-uri']).toEqual(["'self'"]);
    expect(directives['frame-ancestors']).toEqual(["'self'"]);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('sends no referrer from a page opened with a token in its URL', async () => {
    const page = await f.call({
      method: 'GET',
      path: `/t/${f.tenants[0].id}/login?p=secret-login-token-0123456789`,
      headers: { accept: 'text/html' },
    });
    expect(page.headers['referrer-policy']).toBe('no-referrer');
  });
});

describe('API answers', () => {
  it('are nosniff and never cached: signed-in answers, sign-in answers and errors', async () => {
    const [tenant] = f.tenants;
    const user = await f.session(tenant, f.logins.find((l) => l.tenantId === tenant.id)!.email);
    const answers = [
      await f.call({ method: 'GET', path: `${f.api(tenant)}/subscriptions`, token: user.token }),
      await f.call({
        method: 'POST',
        path: `${f.api(tenant)}/login/password`,
        body: { email: user.email, password: 'Lesen2026' },
      }),
      await f.call({ method: 'GET', path: `${f.api(tenant)}/no-such-call` }),
    ];
    for (const answer of answers) {
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['cache-control']).toContain('no-store');
    }
  });
});

describe('demo pages', () => {
  it('are not served by a production app: /preview, /outbox and the tenant list answer 404', async () => {
    for (const page of ['/preview', '/outbox', '/']) {
      const answer = await f.call({ method: 'GET', path: page, headers: { accept: 'text/html' } });
      expect(answer.status, page).toBe(404);
      expect(answer.text).not.toContain(f.tenants[0].id);
    }
  });

  it('are served when the app is made for dev or the demo', async () => {
    expect(
      (await demo.call({ method: 'GET', path: '/preview', headers: { accept: 'text/html' } })).status,
    ).toBe(200);
    expect(
      (await demo.call({ method: 'GET', path: '/outbox', headers: { accept: 'application/json' } })).status,
    ).toBe(200);
  });
});

describe('cookies', () => {
  const setCookies = (value: string | string[] | undefined) =>
    Array.isArray(value) ? value : value ? [value] : [];

  it('scopes the XSRF cookie to the tenant path under the shared prefix', async () => {
    const [tenant] = f.tenants;
    const answer = await f.call({ method: 'GET', path: `${f.api(tenant)}/faq`, xsrf: false });
    const cookie = setCookies(answer.headers['set-cookie']).find((c) => c.startsWith('XSRF-TOKEN='))!;
    expect(cookie).toContain(`Path=/t/${tenant.id}/`);
    expect(cookie).not.toMatch(/Domain=/i);
  });

  it('scopes the kickeruser cookie to its tenant: path /t/<tenant>/, no Domain', async () => {
    const kicker = f.tenants[1];
    const login = f.logins.find((l) => l.tenantId === kicker.id && !l.email.startsWith('demo@'))!;
    const answer = await f.call({
      method: 'POST',
      path: `${f.api(kicker)}/kicker-auth/login`,
      body: { email: login.email, password: 'Lesen2026' },
    });
    expect(answer.status).toBe(200);
    const cookie = setCookies(answer.headers['set-cookie']).find((c) => c.startsWith('kickeruser='))!;
    expect(cookie).toContain(`Path=/t/${kicker.id}/`);
    expect(cookie).not.toMatch(/Domain=/i);
  });

  it('keeps the kickeruser cookie readable by the page, which must read its ssoid (portal-core.md §7, §8), and otherwise locked down: Lax, 30 days, Secure over HTTPS', async () => {
    const proxied = await startSecurityFixture({ trustProxy: parseTrustProxy('loopback') });
    try {
      for (const [fixture, https] of [
        [f, false],
        [proxied, true],
      ] as const) {
        const kicker = fixture.tenants[1];
        const login = fixture.logins.find((l) => l.tenantId === kicker.id && !l.email.startsWith('demo@'))!;
        const answer = await fixture.call({
          method: 'POST',
          path: `${fixture.api(kicker)}/kicker-auth/login`,
          body: { email: login.email, password: 'Lesen2026' },
          headers: https ? { 'x-forwarded-proto': 'https' } : {},
        });
        expect(answer.status).toBe(200);
        const cookie = setCookies(answer.headers['set-cookie']).find((c) => c.startsWith('kickeruser='))!;
        const attributes = cookie.split(';').map((part) => part.trim().toLowerCase());
        // docs/architecture.md "Sign-in safety": the page reads the ssoid and posts it to
        // /kicker-auth/get-user.
        expect(attributes).not.toContain('httponly');
        expect(attributes).toContain('samesite=lax');
        expect(attributes.includes('secure'), `https: ${https}`).toBe(https);
        const expires = Date.parse(cookie.match(/Expires=([^;]+)/)![1]);
        expect(Math.round((expires - fixture.clock.now.getTime()) / 86_400_000)).toBe(30);
        // The SSO id travels only in the cookie, never in the body the tab keeps.
        const ssoId = decodeURIComponent(cookie.split(';')[0].slice('kickeruser='.length)).replace(
          'ssoid=',
          '',
        );
        expect(answer.text).not.toContain(ssoId);
        // Over HTTPS the browser is told to keep to it; over plain HTTP (a local server) nothing.
        expect(answer.headers['strict-transport-security'], `https: ${https}`).toBe(
          https ? 'max-age=31536000' : undefined,
        );
      }
      // A forwarded scheme from a client the server does not trust counts for nothing.
      const page = await f.call({
        method: 'GET',
        path: `${f.api(f.tenants[0])}/faq`,
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(page.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await proxied.close();
    }
  });
});
