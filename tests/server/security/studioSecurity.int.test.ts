/**
 * The studio is a tool of the machine it runs on (docs/operators.md "Operators: the studio"). Written as the
 * attacks of a penetration test, each of which used to work:
 *  - `portal serve --outbox-viewer` answered POST /studio/api/sign-in with a session of any account
 *    and listed accounts at /studio/api/demo-users;
 *  - a development server answered the same sign-in with `Host: evil.example:<port>` (a page of
 *    another site whose name was made to resolve to 127.0.0.1: DNS rebinding);
 *  - behind a reverse proxy on the same host (TRUST_PROXY=loopback, X-Forwarded-For: 203.0.113.7)
 *    the loopback check passed, since it read the proxy's socket;
 *  - the sign-in opened a session for any account of the tenant, one that signed up or was imported.
 * And, generated from the studio's own router like the API suite (apiRouteList.ts), every studio
 * route is attacked with a foreign Host, a forwarded client (trusted proxy or not), a page of
 * another origin, and on servers without development pages: 0 answered, 0 rows and files changed.
 */
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe } from '../../../cli/commands/serve';
import { runImport } from '../../../cli/commands/import';
import { parseTrustProxy } from '../../../server/http/trustProxy';
import { silentLogger } from '../../../server/http/requestLog';
import { demoLoginsOf, seedDemoData, SHARED_DEMO_EMAIL } from '../../../server/seed';
import { studioRouter } from '../../../server/studio/studioRoutes';
import { createUser, linkBusinessPartner } from '../../../server/store/userStore';
import type { RunningServer } from '../../../server/main';
import { createTestDatabase } from '../../support/database';
import { studioRoutes, type ApiRoute } from './apiRouteList';
import { rowCounts, send, startSecurityFixture, type Call, type SecurityFixture } from './securityFixture';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const work = mkdtempSync(path.join(tmpdir(), 'portal-studio-security-'));
const tenantsDir = path.join(work, 'tenants');
const FILE_ID = 'studio-target';
const fileText = readFileSync(path.join(ROOT, 'tenants', 'technikwelt.json'), 'utf8').replace(
  '"id": "technikwelt"',
  `"id": "${FILE_ID}"`,
);
mkdirSync(tenantsDir);
writeFileSync(path.join(tenantsDir, `${FILE_ID}.json`), fileText);

let demo: SecurityFixture;
let proxied: SecurityFixture;
let outboxOnly: SecurityFixture;
let serve: RunningServer | undefined;
let routes: ApiRoute[];
const previousTenantsDir = process.env.PORTAL_TENANTS_DIR;

beforeAll(async () => {
  // The studio edits this folder (studioFiles.ts): a copy, so a call that got through shows.
  process.env.PORTAL_TENANTS_DIR = tenantsDir;
  demo = await startSecurityFixture({ devPages: true, outboxViewerDir: path.join(work, 'outbox') });
  proxied = await startSecurityFixture({ devPages: true, trustProxy: parseTrustProxy('loopback') });
  // What `portal serve --outbox-viewer` makes: the outbox viewer without the development pages.
  outboxOnly = await startSecurityFixture({ outboxViewerDir: path.join(work, 'outbox') });
  routes = studioRoutes(
    studioRouter({ db: demo.db, auth: demo.auth, tenants: demo.tenants, distDir: path.join(work, 'dist') }),
  );
}, 180_000);

afterAll(async () => {
  await Promise.all([demo?.close(), proxied?.close(), outboxOnly?.close(), serve?.close()]);
  if (previousTenantsDir === undefined) delete process.env.PORTAL_TENANTS_DIR;
  else process.env.PORTAL_TENANTS_DIR = previousTenantsDir;
});

const hostOf = (fixture: SecurityFixture) => new URL(fixture.baseUrl).host;
const portOf = (fixture: SecurityFixture) => new URL(fixture.baseUrl).port;
const demoLogin = (fixture: SecurityFixture) =>
  fixture.logins.find((l) => l.tenantId === fixture.tenants[0].id && l.email === SHARED_DEMO_EMAIL)!;

function signIn(fixture: SecurityFixture, email: string, headers: Record<string, string> = {}) {
  return fixture.call({
    method: 'POST',
    path: '/studio/api/sign-in',
    body: { tenant: fixture.tenants[0].id, email },
    headers,
  });
}

async function sessionCount(fixture: SecurityFixture): Promise<number> {
  const [row] = await fixture.db.query<{ n: number }>(
    'select count(*)::int as n from sessions where tenant_id = $1',
    [fixture.tenants[0].id],
  );
  return row.n;
}

describe('the demo sign-in on the machine itself', () => {
  it('still opens a session of a seeded demo login from loopback at 127.0.0.1 and localhost', async () => {
    for (const host of [hostOf(demo), `localhost:${portOf(demo)}`]) {
      const answer = await signIn(demo, demoLogin(demo).email, { host });
      expect(answer.status, host).toBe(200);
      const subscriptions = await demo.call({
        method: 'GET',
        path: `${demo.api(demo.tenants[0])}/subscriptions`,
        token: answer.json.session.accessToken,
      });
      expect(subscriptions.status).toBe(200);
    }
  });
});

describe('finding: DNS rebinding, a foreign Host on a development server', () => {
  it('answers 421 to the sign-in and the user list under any name that is not a loopback one, and opens no session', async () => {
    const before = await sessionCount(demo);
    const port = portOf(demo);
    for (const host of [
      `evil.example:${port}`,
      `127.0.0.1.evil.example:${port}`,
      `localhost.evil.example:${port}`,
      `192.0.2.1:${port}`,
      `[::2]:${port}`,
      // A loopback name with another port: not the address this server was opened at.
      `localhost:${Number(port) + 1}`,
      'localhost',
    ]) {
      const answer = await signIn(demo, demoLogin(demo).email, { host });
      expect(answer.status, host).toBe(421);
      expect(answer.json.error.code).toBe('studio_host_not_local');
      expect(answer.text).not.toContain('accessToken');
      const users = await demo.call({
        method: 'GET',
        path: `/studio/api/demo-users?tenant=${demo.tenants[0].id}`,
        headers: { host },
      });
      expect(users.status, host).toBe(421);
      expect(users.text).not.toContain(SHARED_DEMO_EMAIL);
    }
    expect(await sessionCount(demo)).toBe(before);
  });
});

describe('finding: DNS rebinding against the outbox and the QA preview', () => {
  it('answers 421 to /outbox, /preview and its sign-in and the tenant list under a foreign name, and serves them at loopback names', async () => {
    const port = portOf(demo);
    for (const host of [`evil.example:${port}`, `127.0.0.1.evil.example:${port}`, `192.0.2.1:${port}`]) {
      for (const call of [
        { method: 'GET', path: '/outbox' },
        { method: 'GET', path: '/' },
        { method: 'GET', path: '/preview' },
        {
          method: 'POST',
          path: '/preview/api/sign-in',
          body: { tenant: demo.tenants[0].id, email: SHARED_DEMO_EMAIL },
        },
      ]) {
        const answer = await demo.call({ ...call, headers: { host } });
        expect(answer.status, `${call.path} at ${host}`).toBe(421);
        expect(answer.text).not.toContain('accessToken');
      }
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `portal.localhost:${port}`])
      expect((await demo.call({ method: 'GET', path: '/outbox', headers: { host } })).status, host).toBe(200);
  });
});

describe("finding: a script on a tenant's page of a development server", () => {
  it('reaches neither the studio nor the preview at the tenant host, a loopback name: the portal answers there', async () => {
    const local = await startSecurityFixture({ devPages: true }, { tenantHostSuffix: 'localhost' });
    try {
      const tenantHost = `${local.tenants[0].hosts[0]}:${portOf(local)}`;
      const origin = { host: tenantHost, origin: `http://${tenantHost}` };
      const before = await rowCounts(local.db);
      for (const call of [
        {
          method: 'POST',
          path: '/studio/api/sign-in',
          body: { tenant: local.tenants[0].id, email: SHARED_DEMO_EMAIL },
        },
        {
          method: 'POST',
          path: '/preview/api/sign-in',
          body: { tenant: local.tenants[1].id, email: SHARED_DEMO_EMAIL },
        },
      ]) {
        const answer = await local.call({ ...call, headers: origin });
        expect(answer.text, `${call.path} at ${tenantHost}`).not.toMatch(/accessToken|token=/);
        expect(answer.status, call.path).not.toBe(200);
      }
      expect(await rowCounts(local.db)).toEqual(before);
      // The studio and the preview still answer at the server's own loopback name.
      const own = `localhost:${portOf(local)}`;
      const signIn = await local.call({
        method: 'POST',
        path: '/studio/api/sign-in',
        body: { tenant: local.tenants[0].id, email: SHARED_DEMO_EMAIL },
        headers: { host: own, origin: `http://${own}` },
      });
      expect(signIn.status).toBe(200);
    } finally {
      await local.close();
    }
  });
});

describe('finding: a client behind a reverse proxy on the same host', () => {
  const forwarded: Array<Record<string, string>> = [
    { 'x-forwarded-for': '203.0.113.7' },
    { 'x-forwarded-for': '127.0.0.1' },
    { forwarded: 'for=203.0.113.7;proto=https' },
    { 'x-real-ip': '203.0.113.7' },
  ];

  it('answers 403 whenever a forwarded-for header is there, with TRUST_PROXY unset and with TRUST_PROXY=loopback', async () => {
    for (const fixture of [demo, proxied]) {
      const before = await sessionCount(fixture);
      for (const headers of forwarded) {
        const answer = await signIn(fixture, demoLogin(fixture).email, headers);
        expect(answer.status, JSON.stringify(headers)).toBe(403);
        expect(answer.json.error.code).toBe('studio_forwarded');
        expect(answer.text).not.toContain('accessToken');
      }
      expect(await sessionCount(fixture)).toBe(before);
    }
  });
});

describe('finding: the studio under `portal serve --outbox-viewer`', () => {
  it('has no studio and no preview sign-in, only the outbox and the tenant list', async () => {
    const { db, url } = await createTestDatabase();
    await db.close();
    const tenants = demo.tenants;
    serve = await startServe(
      { port: 0, host: '127.0.0.1', outboxViewer: true },
      {
        tenants,
        databaseUrl: url,
        dataDir: path.join(work, 'serve-data'),
        distDir: path.join(work, 'serve-dist'),
        smtpUrl: undefined,
        log: silentLogger,
        beforeListen: async (served) => void (await seedDemoData(served, tenants)),
      },
    );
    const call = (c: Call) => send(serve!.url, c);
    const signInAnswer = await call({
      method: 'POST',
      path: '/studio/api/sign-in',
      body: { tenant: tenants[0].id, email: SHARED_DEMO_EMAIL },
    });
    expect(signInAnswer.status).toBe(404);
    expect(signInAnswer.text).not.toContain('accessToken');
    const users = await call({ method: 'GET', path: `/studio/api/demo-users?tenant=${tenants[0].id}` });
    expect(users.status).toBe(404);
    expect(users.text).not.toContain(SHARED_DEMO_EMAIL);
    for (const page of ['/studio', '/studio/', '/studio/api/tenants', '/preview', '/preview/api/catalogue'])
      expect((await call({ method: 'GET', path: page, headers: { accept: 'text/html' } })).status, page).toBe(
        404,
      );
    const previewSignIn = await call({
      method: 'POST',
      path: '/preview/api/sign-in',
      body: { tenant: tenants[0].id, email: SHARED_DEMO_EMAIL },
    });
    expect(previewSignIn.status).toBe(404);
    // What --outbox-viewer is for stays.
    expect((await call({ method: 'GET', path: '/outbox' })).status).toBe(200);
    const index = await call({ method: 'GET', path: '/', headers: { accept: 'text/html' } });
    expect(index.status).toBe(200);
    expect(index.text).toContain('/outbox');
    expect(index.text).not.toContain('/preview');
  }, 120_000);
});

describe('finding: a session of an ordinary subscriber', () => {
  it('refuses an account that signed up, and one of an imported subscriber, with or without an account', async () => {
    const tenant = demo.tenants[0];
    const signedUp = await createUser(demo.db, tenant.id, {
      email: 'eve.signed-up@example.org',
      displayName: 'Eve Signed-Up',
    });
    const importDir = mkdtempSync(path.join(work, 'import-'));
    const ndjson = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
    writeFileSync(
      path.join(importDir, 'business-partners.ndjson'),
      ndjson([
        {
          version: 1,
          bpNumber: '7700000001',
          firstName: 'Ines',
          lastName1: 'Import',
          emailAddress: 'ines.imported@example.org',
        },
        {
          version: 1,
          bpNumber: '7700000002',
          firstName: 'Otto',
          lastName1: 'Import',
          emailAddress: 'otto.imported@example.org',
        },
      ]),
    );
    const imported = await runImport(demo.db, tenant.id, importDir);
    expect(imported.result.ok, imported.text).toBe(true);
    // Ines has signed in once (her account speaks for her partner); Otto never has.
    const ines = await createUser(demo.db, tenant.id, { email: 'ines.imported@example.org' });
    await linkBusinessPartner(demo.db, tenant.id, ines.id, '7700000001');

    const before = await sessionCount(demo);
    for (const email of [
      signedUp.email,
      ines.email,
      'otto.imported@example.org',
      ' EVE.SIGNED-UP@example.org ',
    ]) {
      const answer = await signIn(demo, email);
      expect(answer.status, email).toBe(403);
      expect(answer.json.error.code).toBe('not_a_demo_login');
      expect(answer.text).not.toContain('accessToken');
    }
    expect(await sessionCount(demo)).toBe(before);

    const users = await demo.call({ method: 'GET', path: `/studio/api/demo-users?tenant=${tenant.id}` });
    expect(users.status).toBe(200);
    const listed = (users.json.users as Array<{ email: string }>).map((u) => u.email).sort();
    expect(listed).toEqual(
      demoLoginsOf(tenant)
        .map((l) => l.email)
        .sort(),
    );
    expect(users.text).not.toContain('signed-up');
    expect(users.text).not.toContain('imported');
  });
});

/** A request of the route with the values a real studio call carries. */
function studioCall(route: ApiRoute, fixture: SecurityFixture, headers: Record<string, string>): Call {
  const filled = route.path
    .replace(':fileId', FILE_ID)
    .replace(':draftId', 'draft-attack-0001')
    .replace('{*rest}', 'subscriptions')
    .replace('{/*path}', '/orders');
  const query =
    filled === '/api/demo-users' || filled === '/api/insights' ? `?tenant=${fixture.tenants[0].id}` : '';
  return {
    method: route.method,
    path: `/studio${filled}${query}`,
    body:
      route.method === 'GET'
        ? undefined
        : {
            tenant: fixture.tenants[0].id,
            email: SHARED_DEMO_EMAIL,
            fileId: FILE_ID,
            data: { ...JSON.parse(fileText), name: 'Attacker Verlag' },
            confirmedProblems: 0,
          },
    headers: { accept: 'application/json', ...headers },
  };
}

describe('every studio route, generated from its router', () => {
  it('lists the calls of the studio', () => {
    const listed = routes.map((r) => `${r.method} ${r.path}`);
    for (const call of [
      'GET /',
      'GET /api/tenants',
      'GET /api/tenants/:fileId',
      'PUT /api/drafts/:draftId',
      'POST /api/save',
      'GET /api/demo-users',
      'POST /api/sign-in',
      'GET /api/insights',
      'POST /preview/:draftId/api/{*rest}',
      'GET /preview/:draftId{/*path}',
    ])
      expect(listed).toContain(call);
  });

  it('answers none of them to a foreign Host, a forwarded client, a page of another origin, or without development pages', async () => {
    // The three servers share this file's database.
    const counts = await rowCounts(demo.db);
    const failures: string[] = [];
    const expectRefused = async (fixture: SecurityFixture, call: Call, status: number, code?: string) => {
      const answer = await send(fixture.baseUrl, call);
      const label = `${call.method} ${call.path} ${JSON.stringify(call.headers)}`;
      if (answer.status !== status) failures.push(`${label}: ${answer.status}, expected ${status}`);
      else if (code && answer.json?.error?.code !== code)
        failures.push(`${label}: ${answer.text.slice(0, 200)}`);
      if (answer.text.includes('accessToken') || answer.text.includes(SHARED_DEMO_EMAIL))
        failures.push(`${label}: answered data`);
    };
    for (const route of routes) {
      const port = portOf(demo);
      await expectRefused(
        demo,
        studioCall(route, demo, { host: `evil.example:${port}` }),
        421,
        'studio_host_not_local',
      );
      await expectRefused(demo, studioCall(route, demo, { host: `localhost:${Number(port) + 1}` }), 421);
      for (const fixture of [demo, proxied]) {
        await expectRefused(
          fixture,
          studioCall(route, fixture, { 'x-forwarded-for': '203.0.113.7' }),
          403,
          'studio_forwarded',
        );
        await expectRefused(
          fixture,
          studioCall(route, fixture, { forwarded: 'for=203.0.113.7' }),
          403,
          'studio_forwarded',
        );
      }
      if (route.method !== 'GET')
        await expectRefused(
          demo,
          studioCall(route, demo, { origin: 'http://evil.example' }),
          403,
          'studio_cross_origin',
        );
      await expectRefused(outboxOnly, studioCall(route, outboxOnly, {}), 404);
    }
    expect(failures).toEqual([]);
    expect(await rowCounts(demo.db)).toEqual(counts);
    expect(readFileSync(path.join(tenantsDir, `${FILE_ID}.json`), 'utf8')).toBe(fileText);
  });
});
