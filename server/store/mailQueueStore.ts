import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database';
import type { OutgoingMail } from '../mail/mailer';

/**
 * SQL of the mail queue (migration 005). Requests only write rows — a rendered mail in the same
 * transaction as the change that causes it, or a sign-in request the sender resolves later — and
 * the background sender (server/mail/mailSender.ts) claims, sends and retries them. Every query is
 * tenant-scoped on write; the sender's claim reads across tenants, as housekeeping does.
 */

/** Sign-in requests whose answer must not depend on whether the address has an account. */
export type MailJobKind = 'magic-link' | 'register' | 'reset' | 'email-zip' | 'bulk-renewal';
/** Other requests whose answer must not depend on what matched (the e-mail widget, server/email-widget/emailWidgetMailJobs.ts). */
export type FeatureMailJobKind = 'email-widget';

/** What a sign-in request needs to build its mail later, without the request at hand. */
export interface MailJobBase {
  email: string;
  /** `http://host/t/acme/` as the requesting browser saw the portal (checked by portalUrl()). */
  portalUrl: string;
  locale: string;
  tenantName: string;
  from: string;
  /** When the request came (ISO): its links are valid from then, however late the sender runs. */
  requestedAt: string;
}

export interface MailJob {
  tenantId: string;
  kind: MailJobKind | FeatureMailJobKind;
  payload: MailJobBase & Record<string, unknown>;
}

/**
 * Turns a sign-in request into the mail to send, or null when there is nothing to send (no such
 * account). Runs inside the transaction that stores the rendered mail, so a token it writes and
 * the mail carrying it commit together.
 */
export type MailJobResolver = (tx: Queryable, job: MailJob) => Promise<OutgoingMail | null>;

interface StoredMail {
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: Array<{ filename: string; contentType: string; content: string; cid?: string }>;
  /** The key of enqueueMail's `replacing`: a later mail of the same key skips this one while it waits. */
  replacing?: string;
}

function toStored(mail: OutgoingMail): StoredMail {
  return {
    from: mail.from,
    to: mail.to,
    replyTo: mail.replyTo,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    attachments: mail.attachments?.map((file) => ({
      filename: file.filename,
      contentType: file.contentType,
      content: file.content.toString('base64'),
      ...(file.cid ? { cid: file.cid } : {}),
    })),
  };
}

function fromStored(tenantId: string, stored: StoredMail): OutgoingMail {
  return {
    tenantId,
    from: stored.from,
    to: stored.to,
    replyTo: stored.replyTo ?? undefined,
    subject: stored.subject,
    text: stored.text,
    html: stored.html ?? undefined,
    attachments: stored.attachments?.map((file) => ({
      filename: file.filename,
      contentType: file.contentType,
      content: Buffer.from(file.content, 'base64'),
      ...(file.cid ? { cid: file.cid } : {}),
    })),
  };
}

/** What the mail queue's insert trigger NOTIFYs on commit (migration 049): the sender listens. */
export const MAIL_QUEUED_CHANNEL = 'mail_queued';

/**
 * Queues a rendered mail. Pass the transaction of the change that causes it, so both commit or neither.
 *
 * `replacing`: the mail carries a link that voids the one of an earlier mail of the same key (a
 * licence's invitation sent again, a new e-mail change). That mail, still waiting in the queue and
 * not being sent, is skipped: of several asked for at once the sender could otherwise send the
 * newest first, and the last mail to arrive would hold the dead link. The caller makes the links
 * of one key one at a time (a transaction lock), so the last to commit is the newest.
 */
export async function enqueueMail(
  db: Queryable,
  mail: OutgoingMail,
  options: { replacing?: string } = {},
): Promise<void> {
  if (options.replacing)
    await db.query(
      `update mail_queue set state = 'skipped', done_at = clock_timestamp(),
              mail = jsonb_build_object('to', mail->'to', 'subject', mail->'subject')
        where tenant_id = $1 and kind = 'mail' and state = 'queued' and mail->>'replacing' = $2
          and (claimed_until is null or claimed_until < clock_timestamp())`,
      [mail.tenantId, options.replacing],
    );
  await db.query(`insert into mail_queue (tenant_id, kind, mail) values ($1, 'mail', $2)`, [
    mail.tenantId,
    JSON.stringify({ ...toStored(mail), ...(options.replacing ? { replacing: options.replacing } : {}) }),
  ]);
}

/** Queues a sign-in request: one insert, whatever the address; the sender decides what to send. */
export async function enqueueMailJob(db: Queryable, job: MailJob): Promise<void> {
  await db.query(`insert into mail_queue (tenant_id, kind, payload) values ($1, $2, $3)`, [
    job.tenantId,
    job.kind,
    JSON.stringify(job.payload),
  ]);
}

export interface ClaimedRow {
  tenantId: string;
  id: string;
  kind: string;
  payload: (MailJobBase & Record<string, unknown>) | null;
  mail: OutgoingMail | null;
  attempts: number;
  claimToken: string;
}

interface ClaimedDbRow {
  tenant_id: string;
  id: string;
  kind: string;
  payload: unknown;
  mail: unknown;
  attempts: number;
}

const parseJson = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);

/**
 * Claims up to `limit` due rows for `leaseMs`. Due-ness, leases and retries use the database's
 * clock, the one clock every instance shares (and the one that stamped next_attempt_at at insert).
 * `for update skip locked` lets several instances
 * claim at once without waiting on or double-taking each other's rows; the lease (claimed_until)
 * keeps a claimed row away from others after this statement commits, and hands it back when the
 * claiming instance dies. attempts counts claims, so a row that crashes its sender still ends.
 */
export async function claimDueMails(
  db: Queryable,
  options: { limit: number; leaseMs: number },
): Promise<ClaimedRow[]> {
  const claimToken = randomUUID();
  const rows = await db.query<ClaimedDbRow>(
    `update mail_queue q set claim_token = $1, claimed_until = clock_timestamp() + $2 * interval '1 millisecond', attempts = q.attempts + 1
      where (q.tenant_id, q.id) in (
        select tenant_id, id from mail_queue
         where state = 'queued' and next_attempt_at <= clock_timestamp() and (claimed_until is null or claimed_until < clock_timestamp())
         order by next_attempt_at, created_at
         limit $3
         for update skip locked)
     returning q.tenant_id, q.id, q.kind, q.payload, q.mail, q.attempts`,
    [claimToken, options.leaseMs, options.limit],
  );
  return rows.map((row) => ({
    tenantId: row.tenant_id,
    id: row.id,
    kind: row.kind,
    payload: parseJson(row.payload) ?? null,
    mail: row.mail ? fromStored(row.tenant_id, parseJson(row.mail) as StoredMail) : null,
    attempts: Number(row.attempts),
    claimToken,
  }));
}

/**
 * Stores what a sign-in request resolved to (a mail, or nothing to send) and drops its input (a
 * registration carries a password hash). False when the lease was lost to another instance: the
 * caller's transaction must then roll back.
 */
export async function saveResolution(
  db: Queryable,
  row: ClaimedRow,
  mail: OutgoingMail | null,
): Promise<boolean> {
  const updated = mail
    ? await db.query(
        `update mail_queue set kind = 'mail', payload = null, mail = $4
          where tenant_id = $1 and id = $2 and claim_token = $3 and state = 'queued' returning id`,
        [row.tenantId, row.id, row.claimToken, JSON.stringify(toStored(mail))],
      )
    : await db.query(
        `update mail_queue set payload = null, state = 'skipped', done_at = clock_timestamp(), claim_token = null, claimed_until = null
          where tenant_id = $1 and id = $2 and claim_token = $3 and state = 'queued' returning id`,
        [row.tenantId, row.id, row.claimToken],
      );
  return updated.length > 0;
}

/**
 * Marks a mail sent. The body goes (a sign-in link in it stays valid for minutes: a copy in the
 * table must not be replayable); recipient and subject stay for the record.
 */
export async function markSent(db: Queryable, row: ClaimedRow): Promise<void> {
  await db.query(
    `update mail_queue set state = 'sent', done_at = clock_timestamp(), claim_token = null, claimed_until = null, last_error = null,
            mail = jsonb_build_object('to', mail->'to', 'subject', mail->'subject')
      where tenant_id = $1 and id = $2 and claim_token = $3`,
    [row.tenantId, row.id, row.claimToken],
  );
}

/**
 * Renews the lease of a claimed row right before its mail goes out, and answers whether this sender
 * still holds it. A row whose lease ran out (a slow SMTP server, a long batch) may already have been
 * claimed by another instance: then this one must not send it too.
 */
export async function renewLease(db: Queryable, row: ClaimedRow, leaseMs: number): Promise<boolean> {
  const rows = await db.query(
    `update mail_queue set claimed_until = clock_timestamp() + $4 * interval '1 millisecond'
      where tenant_id = $1 and id = $2 and claim_token = $3 and state = 'queued' and claimed_until > clock_timestamp()
      returning id`,
    [row.tenantId, row.id, row.claimToken, leaseMs],
  );
  return rows.length > 0;
}

/**
 * A failed attempt: try again in `retryInMs`, or give up (`failed`) when it is null. A row given up
 * keeps only recipient and subject: its body (a sign-in link, a contact message) and a job's payload
 * (a registration's password hash) go, as for a sent row.
 */
export async function markAttemptFailed(
  db: Queryable,
  row: ClaimedRow,
  error: string,
  retryInMs: number | null,
): Promise<void> {
  await db.query(
    `update mail_queue
        set state = case when $4::bigint is null then 'failed' else 'queued' end,
            next_attempt_at = case when $4::bigint is null then next_attempt_at else clock_timestamp() + $4::bigint * interval '1 millisecond' end,
            done_at = case when $4::bigint is null then clock_timestamp() else null end,
            claim_token = null, claimed_until = null, last_error = $5,
            payload = case when $4::bigint is null then null else payload end,
            mail = case when $4::bigint is null and mail is not null then jsonb_build_object('to', mail->'to', 'subject', mail->'subject') else mail end
      where tenant_id = $1 and id = $2 and claim_token = $3`,
    [row.tenantId, row.id, row.claimToken, retryInMs, error.slice(0, 1000)],
  );
}

/** Deletes finished rows (sent, skipped, failed) that ended more than `olderThanMs` ago. */
export async function deleteFinishedMails(db: Queryable, olderThanMs: number): Promise<void> {
  await db.query(
    `delete from mail_queue where state <> 'queued' and done_at < clock_timestamp() - $1 * interval '1 millisecond'`,
    [olderThanMs],
  );
}
