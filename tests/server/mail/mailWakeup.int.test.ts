/**
 * A queued mail leaves when its transaction commits, not at the sender's next round
 * (server/mail/mailSender.ts startMailSender; migration 049): the sender here rounds every ten
 * minutes, so only the commit's NOTIFY can send these mails in time. A listening connection that is
 * lost is made again, and what was queued meanwhile goes out then.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../../server/db/database';
import { createMailer, readOutbox } from '../../../server/mail/mailer';
import { startMailSender } from '../../../server/mail/mailSender';
import { enqueueMail, MAIL_QUEUED_CHANNEL } from '../../../server/store/mailQueueStore';
import { createTestDatabase, uniqueTenantId } from '../../support/database';

const outboxDir = mkdtempSync(path.join(tmpdir(), 'portal-mail-wakeup-'));
const tenantId = uniqueTenantId('mail-wakeup');
let db: Database | undefined;
let stopSender: (() => Promise<void>) | undefined;

afterAll(async () => {
  await stopSender?.();
  await db?.close();
});

const queue = (database: Database, to: string) =>
  database.transaction((tx) =>
    enqueueMail(tx, { tenantId, to, from: 'portal@portal.example', subject: 'Hallo', text: 'Text' }),
  );

const sentTo = async (to: string) => (await readOutbox(outboxDir)).some((mail) => mail.to === to);

/** The backend of the sender's listening connection, as PostgreSQL lists it. */
const listeningBackends = (database: Database) =>
  database.query<{ pid: number }>(
    `select pid from pg_stat_activity where datname = current_database() and query = $1`,
    [`listen ${MAIL_QUEUED_CHANNEL}`],
  );

describe('the mail sender', () => {
  it('sends a mail when the transaction that queued it commits, and again after losing its connection', async () => {
    ({ db } = await createTestDatabase());
    const database = db;
    stopSender = startMailSender(database, createMailer({ outboxDir }), { intervalMs: 600_000 });
    await vi.waitFor(async () => expect(await listeningBackends(database)).toHaveLength(1), {
      timeout: 10_000,
    });

    await queue(database, 'first@wakeup.example');
    await vi.waitFor(async () => expect(await sentTo('first@wakeup.example')).toBe(true), {
      timeout: 5_000,
      interval: 50,
    });

    // The listening connection is cut; a mail queued before it listens again goes out once it does.
    const [{ pid }] = await listeningBackends(database);
    await database.query('select pg_terminate_backend($1)', [pid]);
    await vi.waitFor(async () => expect(await listeningBackends(database)).toHaveLength(0));
    await queue(database, 'second@wakeup.example');
    await vi.waitFor(async () => expect(await sentTo('second@wakeup.example')).toBe(true), {
      timeout: 15_000,
      interval: 100,
    });
    expect(await listeningBackends(database)).toHaveLength(1);
  }, 40_000);
});
