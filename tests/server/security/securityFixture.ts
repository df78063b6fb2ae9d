/**
 * The running portal the security tests attack: two demo tenants (technikwelt with every feature,
 * gartenfreunde with kicker-auth) under fresh ids, seeded with the demo data, served on a real port,
 * and sessions of their demo users opened directly through the auth service (the sign-in flows
 * have their own tests; here a session is only the key to the door).
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'node:http';
import type { Express } from 'express';
import { loadValidTenants } from '../../../cli/commands/loadValidTenants';
import { createApp, type AppOptions } from '../../../server/app';
import type { AuthService } from '../../../server/auth/authService';
import type { Database } from '../../../server/db/database';
import { createMailer } from '../../../server/mail/mailer';
import { seedDemoData, setDemoPasswords } from '../../../server/seed';
import { findUserByEmail } from '../../../server/store/userStore';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { listen } from '../../support/apiClient';

export const XSRF = 'security-suite-xsrf-token-0123456789';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

export interface Call {
  method: string;
  /** Path under the server root, e.g. `/t/<id>/api/subscriptions`. */
  path: string;
  token?: string;
  /** A JSON value, or a string sent as it is (hand-written JSON such as `{"__proto__": …}`). */
  body?: unknown;
  /** false: no XSRF cookie and header; a string: that header with the right cookie. */
  xsrf?: boolean | string;
  headers?: Record<string, string>;
}

/** One HTTP request with node:http (fetch would not send a chosen Host or a raw body). */
export function send(baseUrl: string, call: Call): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
  if (call.xsrf !== false) {
    headers.cookie = `XSRF-TOKEN=${XSRF}`;
    headers['x-xsrf-token'] = typeof call.xsrf === 'string' ? call.xsrf : XSRF;
  }
  if (call.token) headers['x-auth-token'] = call.token;
  const payload =
    call.body === undefined
      ? undefined
      : typeof call.body === 'string'
        ? call.body
        : JSON.stringify(call.body);
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    // node:http frames GET and DELETE bodies only with a length (it chunks other methods by itself).
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${call.path}`, { method: call.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

export interface Party {
  tenant: ServerTenant;
  email: string;
  userId: string;
  token: string;
}

export interface SecurityFixture {
  db: Database;
  app: Express;
  auth: AuthService;
  baseUrl: string;
  /** The dist folder the app serves (a built page per tenant). */
  distDir: string;
  tenants: [ServerTenant, ServerTenant];
  logins: Array<{ tenantId: string; email: string }>;
  /** A new session of a demo user. */
  session(tenant: ServerTenant, email: string): Promise<Party>;
  call(call: Call): Promise<Answer>;
  /** The API base of a tenant under the shared prefix. */
  api(tenant: ServerTenant): string;
  clock: { now: Date };
  close(): Promise<void>;
}

/**
 * Two demo tenants under ids of their own (tests of a file share one database), each at the host
 * `<id>.<hostSuffix>` (`localhost`: a development server's tenant names, which are loopback names).
 */
export async function securityTenants(hostSuffix = 'test'): Promise<[ServerTenant, ServerTenant]> {
  const [full, kicker] = (await loadValidTenants([
    'technikwelt',
    'gartenfreunde',
  ])) as unknown as ServerTenant[];
  const rename = (tenant: ServerTenant, prefix: string): ServerTenant => {
    const id = uniqueTenantId(prefix);
    return { ...tenant, id, hosts: [`${id}.${hostSuffix}`] };
  };
  return [rename(full, 'sec-a'), rename(kicker, 'sec-b')];
}

export async function startSecurityFixture(
  overrides: Partial<AppOptions> = {},
  { tenantHostSuffix }: { tenantHostSuffix?: string } = {},
): Promise<SecurityFixture> {
  const db = await getTestDatabase();
  const tenants = await securityTenants(tenantHostSuffix);
  const clock = { now: new Date() };
  const logins = await seedDemoData(db, tenants as Parameters<typeof seedDemoData>[1], { today: clock.now });
  await setDemoPasswords(db, tenants as Parameters<typeof setDemoPasswords>[1], logins);
  const work = mkdtempSync(path.join(tmpdir(), 'portal-security-'));
  // A built page per tenant, as `portal build` writes it: base placeholder, inline theme and config.
  for (const tenant of tenants) {
    mkdirSync(path.join(work, 'dist', tenant.id), { recursive: true });
    writeFileSync(
      path.join(work, 'dist', tenant.id, 'index.html'),
      `<!doctype html><html lang="de-DE"><head><meta charset="UTF-8"><base href="%PORTAL_BASE%"><title>${tenant.name}</title>
<style id="portal-theme">:root{--color-primary:#9a3412}</style>
<script type="application/json" id="portal-config">{"tenant":{"id":"${tenant.id}"}}</script>
<script type="module" crossorigin src="./assets/index-abc.js"></script></head><body><div id="root"></div></body></html>`,
    );
  }
  const { app, auth } = createApp({
    // The test's sign-on provider listens on 127.0.0.1.
    allowPrivateSignOnProviders: true,
    db,
    tenants,
    mailer: createMailer({ outboxDir: path.join(work, 'outbox') }),
    distDir: path.join(work, 'dist'),
    now: () => clock.now,
    // The suite calls every sign-in route many times on purpose; the limits have tests of their own.
    signInLimits: { windowSeconds: 900, perAddress: 1_000_000, perClient: 1_000_000 },
    ...overrides,
  });
  const { baseUrl, close } = await listen(app);
  return {
    db,
    app,
    auth,
    baseUrl,
    distDir: overrides.distDir ?? path.join(work, 'dist'),
    tenants,
    logins,
    clock,
    api: (tenant) => `/t/${tenant.id}/api`,
    call: (call) => send(baseUrl, call),
    async session(tenant, email) {
      const user = await findUserByEmail(db, tenant.id, email);
      if (!user) throw new Error(`no demo user ${email} in ${tenant.id}`);
      const login = await auth.startSession(tenant, user, 'token');
      return { tenant, email, userId: user.id, token: login.accessToken };
    },
    close,
  };
}

/**
 * Row counts of every table of the portal (except the rate-limit counters, which a refused call may
 * rightly bump): equal before and after a refused call means nothing was half-applied.
 */
export async function rowCounts(db: Database): Promise<Record<string, number>> {
  const tables = await db.query<{ table_name: string }>(
    `select table_name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not in ('rate_limits', 'schema_migrations')
      order by table_name`,
  );
  if (!tables.length) return {};
  const rows = await db.query<{ name: string; n: string }>(
    tables
      .map((t) => `select '${t.table_name}' as name, count(*)::text as n from "${t.table_name}"`)
      .join(' union all '),
  );
  return Object.fromEntries(rows.map((row) => [row.name, Number(row.n)]));
}
