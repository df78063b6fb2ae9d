/**
 * PostgreSQL restarting under load (docs/architecture.md "Running more than one instance"): two portal
 * instances on one external PostgreSQL (a private cluster of the system's PostgreSQL 15, like the postgres
 * project's) take writes, reads and mail while the server is restarted (`pg_ctl restart -m fast`)
 * and, separately, while every backend is terminated. They answer 503 with Retry-After only while it
 * is really down, never another 5xx, reconnect by themselves, lose no acknowledged write, send every
 * queued mail (a repeat only for a mail in flight, with its Message-ID), and /readyz says what
 * happened.
 *
 * Only in the postgres project: the embedded project's cluster is shared by its test files.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import type { Database } from '../../../server/db/database';
import { createDatabaseIfMissing, openDatabase } from '../../../server/db/openDatabase';
import { migrate } from '../../../server/db/migrate';

import { createMailer, type Mailer } from '../../../server/mail/mailer';
import { startMailSender } from '../../../server/mail/mailSender';
import { enqueueMail } from '../../../server/store/mailQueueStore';
import { createOperatorKey } from '../../../server/operator/keys/operatorKeys';
import { startSystemPostgres } from '../../../scripts/systemPostgres';
import { testDatabaseKind } from '../../support/database';
import { listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';

const tenant = makeServerTenant({
  id: 'restart',
  name: 'Verlag Neustart',
  hosts: ['restart.test'],
  defaultLocale: 'de-DE',
  features: [],
  embedding: { isEmbedded: false, parentOrigins: [] },
  login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
});

interface Instance {
  db: Database;
  baseUrl: string;
  close: () => Promise<void>;
  stopMail: () => Promise<void>;
}

let cluster: Awaited<ReturnType<typeof startSystemPostgres>>;
let url: string;
let key: string;
const instances: Instance[] = [];
const delivered: Array<{ to: string; messageId?: string }> = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(testDatabaseKind() !== 'postgres')('PostgreSQL restarting under load', () => {
  beforeAll(async () => {
    cluster = await startSystemPostgres();
    const admin = new URL(cluster.adminUrl);
    await createDatabaseIfMissing(cluster.adminUrl, 'portal_restart');
    admin.pathname = '/portal_restart';
    url = admin.toString();
    const setup = await openDatabase({ url, poolSize: 2 });
    await migrate(setup);
    key = (
      await createOperatorKey(setup, tenant.id, {
        name: 'restart',
        scopes: ['read', 'write'],
        now: new Date(),
      })
    ).secret;
    for (let i = 0; i < 40; i++)
      await enqueueMail(setup, {
        tenantId: tenant.id,
        to: `reader-${i}@restart.example`,
        from: 'Verlag <no-reply@restart.example>',
        subject: 'restart',
        text: 'x',
      });
    await setup.close();
    const slowSmtp: Mailer = {
      send: async (mail) => {
        await sleep(40);
        delivered.push({ to: mail.to, messageId: mail.messageId });
      },
    };
    for (let i = 0; i < 2; i++) {
      const db = await openDatabase({ url, poolSize: 4 });
      const { app } = createApp({
        db,
        tenants: [tenant],
        distDir: mkdtempSync(path.join(tmpdir(), 'portal-restart-')),
        mailer: createMailer({ outboxDir: mkdtempSync(path.join(tmpdir(), 'portal-restart-mail-')) }),
      });
      const server = await listen(app);
      // The mail sender of each instance, with a short lease so a mail in flight at the outage is
      // taken over within the test.
      const stopMail = startMailSender(db, slowSmtp, { intervalMs: 100, leaseMs: 1500, retryBaseMs: 200 });
      instances.push({ db, ...server, stopMail });
    }
  }, 120_000);

  afterAll(async () => {
    for (const instance of instances) {
      await instance.stopMail().catch(() => undefined);
      await instance.close().catch(() => undefined);
      await instance.db.close().catch(() => undefined);
    }
    await cluster?.stop();
  });

  it('answers 503 only while it is down, reconnects, loses no acknowledged write and sends every mail', async () => {
    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    let missingRetryAfter = 0;
    let next = 0;
    let running = true;
    const readyzDuringOutage: unknown[] = [];

    const writer = async (instance: Instance) => {
      while (running) {
        const bpNumber = String(9_100_000_000 + next++);
        const write = instance === instances[0] || next % 3 !== 0;
        const response = await fetch(
          `${instance.baseUrl}/t/${tenant.id}/operator/v1/${write ? `business-partners/${bpNumber}` : 'whoami'}`,
          {
            method: write ? 'PUT' : 'GET',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: write ? JSON.stringify({ version: 1, bpNumber, lastName1: 'Neustart' }) : undefined,
          },
        ).catch(() => null);
        const status = response?.status ?? 0;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status === 503 && !response!.headers.get('retry-after')) missingRetryAfter++;
        if (write && (status === 200 || status === 201)) acknowledged.push(bpNumber);
        if (status === 503) {
          const ready = await fetch(`${instance.baseUrl}/readyz`).catch(() => null);
          if (ready?.status === 503) readyzDuringOutage.push(await ready.json());
          await sleep(50);
        }
      }
    };
    const loops = [...instances, ...instances].map(writer);

    await sleep(800);
    await cluster.restart();
    await sleep(1500);
    const killer = new pg.Client({ connectionString: url });
    await killer.connect();
    await killer.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
    );
    await killer.end();
    await sleep(1500);
    // After both: every instance answers again by itself.
    const recovered: Array<{ status: number; body: any }> = [];
    for (const instance of instances) {
      const ready = await fetch(`${instance.baseUrl}/readyz`);
      recovered.push({ status: ready.status, body: await ready.json() });
    }
    const before = acknowledged.length;
    await sleep(500);
    running = false;
    await Promise.all(loops);

    for (const ready of recovered)
      expect(ready).toMatchObject({
        status: 200,
        // What happened, for an operator who looks afterwards.
        body: {
          status: 'ready',
          lastOutage: { since: expect.any(String), until: expect.any(String), reason: expect.any(String) },
        },
      });
    expect(acknowledged.length).toBeGreaterThan(before); // writes go through again
    expect(statuses.get(503) ?? 0).toBeGreaterThan(0); // the outages were seen
    const unexpected = [...statuses.keys()].filter((s) => ![200, 201, 503].includes(s));
    expect(unexpected, JSON.stringify(Object.fromEntries(statuses))).toEqual([]);
    expect(missingRetryAfter).toBe(0);
    for (const answer of readyzDuringOutage)
      expect(answer).toMatchObject({ status: 'unavailable', reason: expect.any(String) });

    const check = new pg.Client({ connectionString: url });
    await check.connect();
    const { rows } = await check.query<{ bp: string }>(
      `select bp_number::text as bp from business_partners where tenant_id = $1`,
      [tenant.id],
    );
    const stored = new Set(rows.map((r) => r.bp));
    expect(acknowledged.filter((bp) => !stored.has(bp))).toEqual([]);

    // Every queued mail goes out; a repeat only of a mail in flight, as the same message.
    await expect.poll(() => new Set(delivered.map((d) => d.to)).size, { timeout: 30_000 }).toBe(40);
    const { rows: queued } = await check.query<{ state: string; n: number }>(
      `select state, count(*)::int as n from mail_queue group by state`,
    );
    await check.end();
    expect(queued).toEqual([{ state: 'sent', n: 40 }]);
    const repeats = delivered.length - 40;
    expect(repeats).toBeLessThanOrEqual(4);
    const ids = new Map<string, string | undefined>();
    for (const d of delivered) {
      if (ids.has(d.to)) expect(d.messageId).toBe(ids.get(d.to));
      ids.set(d.to, d.messageId);
    }
  }, 120_000);
});
