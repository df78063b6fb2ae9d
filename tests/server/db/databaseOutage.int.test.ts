/**
 * The database going away (issue "Native PostgreSQL as the embedded default", "Bad input and
 * faults"): down at start is a clear message naming the URL with its password masked and exit 1;
 * down while running is 503 with the error envelope and /readyz says so; when it is back the
 * server recovers without a restart.
 *
 * The outage is a TCP proxy in front of the test database that the test closes and opens again,
 * so the server sees exactly what a stopped and restarted PostgreSQL looks like on the wire.
 */
import { execFile } from 'node:child_process';
import net from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import type { Database } from '../../../server/db/database';
import { openDatabase } from '../../../server/db/openDatabase';
import { freePort } from '../../../server/db/embeddedPostgres';
import { createMailer } from '../../../server/mail/mailer';
import { createTestDatabase, uniqueTenantId } from '../../support/database';
import { listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';

const ROOT = path.resolve(import.meta.dirname, '../../..');

class Outage {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  constructor(
    private readonly target: { host: string; port: number },
    readonly port: number,
  ) {}

  async up(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  async down(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

const tenant = makeServerTenant({
  id: uniqueTenantId('outage'),
  name: 'Verlag Ausfall',
  hosts: ['outage.test'],
  defaultLocale: 'de-DE',
  features: [],
  embedding: { isEmbedded: false, parentOrigins: [] },
  login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
});

let outage: Outage;
let db: Database;
let baseUrl: string;
let close: () => Promise<void>;
let direct: Database;

beforeAll(async () => {
  const created = await createTestDatabase();
  direct = created.db;
  const real = new URL(created.url);
  outage = new Outage({ host: real.hostname, port: Number(real.port) }, await freePort());
  await outage.up();
  const proxied = new URL(created.url);
  proxied.port = String(outage.port);
  db = await openDatabase({ url: proxied.toString(), poolSize: 3 });
  const { app } = createApp({
    db,
    tenants: [tenant],
    distDir: mkdtempSync(path.join(tmpdir(), 'portal-outage-')),
    mailer: createMailer({ outboxDir: mkdtempSync(path.join(tmpdir(), 'portal-outage-mail-')) }),
  });
  ({ baseUrl, close } = await listen(app));
});

afterAll(async () => {
  await close?.();
  await db?.close().catch(() => undefined);
  await direct?.close();
});

const subscriptions = () =>
  fetch(`${baseUrl}/t/${tenant.id}/api/subscriptions`, { headers: { 'x-auth-token': 'not-a-session' } });

describe('database outage while running', () => {
  it('answers 503 with the error envelope while the database is down and recovers without a restart', async () => {
    expect((await fetch(`${baseUrl}/readyz`)).status).toBe(200);
    expect((await subscriptions()).status).toBe(401);

    await outage.down();
    const ready = await fetch(`${baseUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      status: 'unavailable',
      reason: expect.stringMatching(/\S/),
      since: expect.any(String),
    });
    const during = await subscriptions();
    expect(during.status).toBe(503);
    expect(during.headers.get('retry-after')).toBe('5');
    expect(await during.json()).toEqual({
      error: {
        code: 'database_unavailable',
        message: 'The service is briefly unavailable. Please try again in a moment.',
      },
    });

    await outage.up();
    const back = await fetch(`${baseUrl}/readyz`);
    expect(back.status).toBe(200);
    expect(await back.json()).toMatchObject({
      status: 'ready',
      lastOutage: { since: expect.any(String), until: expect.any(String), reason: expect.any(String) },
    });
    expect((await subscriptions()).status).toBe(401);
  });
});

describe('database down at start', () => {
  it('exits 1 with a message naming the URL, its password masked', async () => {
    const port = await freePort(); // nothing listens there
    const url = `postgres://portal:geheim-passwort@127.0.0.1:${port}/portal`;
    const result = await promisify(execFile)(
      process.execPath,
      [path.join(ROOT, 'cli', 'bin.mjs'), 'serve', '--port', '0'],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: url },
      },
    ).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `cannot reach PostgreSQL at postgres://portal:***@127.0.0.1:${port}/portal`,
    );
    expect(result.stderr).not.toContain('geheim-passwort');
  }, 60_000);
});
