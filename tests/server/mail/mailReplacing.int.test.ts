/**
 * A mail queued with a `replacing` key skips the earlier mail of the key still waiting in the queue
 * (server/store/mailQueueStore.ts enqueueMail): its link was voided by the newer one's, so of several
 * asked for at once only the mail with the working link goes out. One being sent is left alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database';
import { enqueueMail } from '../../../server/store/mailQueueStore';
import { getTestDatabase, uniqueTenantId } from '../../support/database';

const tenantId = uniqueTenantId('mail-replacing');
let db: Database;

beforeAll(async () => {
  db = await getTestDatabase();
});
afterAll(async () => {
  await db.query(`delete from mail_queue where tenant_id = $1`, [tenantId]);
});

const queue = (subject: string, replacing?: string) =>
  db.transaction((tx) =>
    enqueueMail(
      tx,
      { tenantId, to: 'invited@replacing.example', from: 'portal@portal.example', subject, text: subject },
      replacing ? { replacing } : {},
    ),
  );
const states = async () =>
  Object.fromEntries(
    (
      await db.query<{ subject: string; state: string }>(
        `select mail->>'subject' as subject, state from mail_queue where tenant_id = $1`,
        [tenantId],
      )
    ).map((row) => [row.subject, row.state]),
  );

describe('a mail that replaces another', () => {
  it('skips the waiting mail of its key, not one being sent, nor another key', async () => {
    await queue('first', 'license-invitation:1');
    await queue('other licence', 'license-invitation:2');
    await queue('no key');
    await queue('second', 'license-invitation:1');
    expect(await states()).toEqual({
      first: 'skipped',
      'other licence': 'queued',
      'no key': 'queued',
      second: 'queued',
    });
    // The sender has the second in hand (claimed, leased, as claimDueMails leaves it; only this
    // row, so no other test's mail is held): the third leaves it to be sent.
    await db.query(
      `update mail_queue set claim_token = gen_random_uuid()::text, claimed_until = clock_timestamp() + interval '1 minute'
        where tenant_id = $1 and mail->>'subject' = 'second'`,
      [tenantId],
    );
    await queue('third', 'license-invitation:1');
    expect((await states()).second).toBe('queued');
    expect((await states()).third).toBe('queued');
    // A skipped mail keeps only its recipient and subject, as a sent one does: its link goes.
    const [skipped] = await db.query<{ mail: Record<string, unknown> }>(
      `select mail from mail_queue where tenant_id = $1 and state = 'skipped'`,
      [tenantId],
    );
    expect(skipped.mail).toEqual({ to: 'invited@replacing.example', subject: 'first' });
  });
});
