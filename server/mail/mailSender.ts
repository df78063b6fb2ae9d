import { mailsFailed, mailsSent, tenantLabel } from '../metrics/registry';
import type { Database } from '../db/database';
import { featureMailJobs } from '../featureManifest';
import { SERVER_FEATURES } from '../features';
import { senderAs, type Mailer } from './mailer';
import {
  claimDueMails,
  deleteFinishedMails,
  MAIL_QUEUED_CHANNEL,
  markAttemptFailed,
  markSent,
  renewLease,
  saveResolution,
  type ClaimedRow,
  type MailJob,
  type MailJobResolver,
} from '../store/mailQueueStore';
import { startPeriodicJob } from '../jobs/periodicJob';
import { isPlausibleEmail } from '../../engine/domain/fieldRules';

/**
 * The background sender of the mail queue (migration 005): claims due rows,
 * resolves sign-in requests into mails, hands them to the transport (nodemailer: SMTP or the file
 * outbox) and retries failures with exponential back-off. Safe with several server instances
 * (rows are claimed with `for update skip locked` and a lease) and across restarts (the queue is
 * in the database; a lease of a dead instance runs out).
 */
export interface MailSenderOptions {
  /** Rows claimed per round. */
  batchSize?: number;
  /** How long a claimed row stays with this instance before others may take it. */
  leaseMs?: number;
  /** Attempts before a mail is given up (`failed`). */
  maxAttempts?: number;
  /** First retry delay; doubles with each attempt, at most MAX_RETRY_DELAY_MS. */
  retryBaseMs?: number;
  resolvers?: Partial<Record<string, MailJobResolver>>;
  log?: (entry: Record<string, unknown>) => void;
  /**
   * The name a tenant's mails go out under (its publisher's, the tenant file's `name`): the sender's
   * display name, its address as queued. Undefined: the queued sender as it is.
   */
  senderName?: (tenantId: string) => string | undefined;
}

export const MAIL_SENDER_DEFAULTS = {
  batchSize: 20,
  leaseMs: 2 * 60_000,
  maxAttempts: 8,
  retryBaseMs: 30_000,
} as const;
/** The longest wait between two attempts of one mail. */
export const MAX_RETRY_DELAY_MS = 60 * 60_000;
/** Finished rows are kept this long for the record, then deleted. */
export const FINISHED_MAIL_RETENTION_MS = 7 * 86_400_000;

export interface DrainResult {
  sent: number;
  skipped: number;
  retried: number;
  failed: number;
}

/**
 * Every kind of request the sender resolves into a mail (or nothing): the `mailJobs` of the features'
 * manifests (server/features.ts), sign-in's and the e-mail widget's today.
 */
const MAIL_JOBS: Partial<Record<string, MailJobResolver>> = featureMailJobs(SERVER_FEATURES);

/**
 * The Message-ID of a queued mail: its row, the same on every attempt, at the domain of its sender.
 * SMTP cannot tell whether a server that answered kept a message, so a sender that dies between the
 * answer and the sent mark sends that mail again; the repeat then carries the same Message-ID, which
 * mail servers and clients use to recognise it (RFC 5322 §3.6.4).
 */
export function queuedMessageId(row: Pick<ClaimedRow, 'tenantId' | 'id'>, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'portal.invalid';
  return `<${row.id}.${row.tenantId}@${domain}>`;
}

export function retryDelayMs(attempts: number, baseMs: number = MAIL_SENDER_DEFAULTS.retryBaseMs): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_RETRY_DELAY_MS);
}

async function processRow(
  db: Database,
  transport: Mailer,
  row: ClaimedRow,
  options: MailSenderOptions & { maxAttempts: number; retryBaseMs: number; leaseMs: number },
  result: DrainResult,
) {
  try {
    let mail = row.mail;
    if (row.kind !== 'mail') {
      const resolver = options.resolvers?.[row.kind] ?? MAIL_JOBS[row.kind];
      if (!resolver || !row.payload) throw new Error(`no resolver for mail job "${row.kind}"`);
      const job: MailJob = {
        tenantId: row.tenantId,
        kind: row.kind as MailJob['kind'],
        payload: row.payload,
      };
      mail = await db.transaction(async (tx) => {
        const resolved = await resolver(tx, job);
        if (!(await saveResolution(tx, row, resolved))) throw new Error('lease lost');
        return resolved;
      });
      if (!mail) {
        result.skipped++;
        return;
      }
    }
    if (!mail) throw new Error('queued mail without content');
    // Still ours? A lease that ran out during a long batch may have passed the row to another
    // instance, which sends it: this one must not send it a second time.
    if (!(await renewLease(db, row, options.leaseMs))) return;
    // One mailbox per mail: nodemailer reads `to` as a list, and an address an order system sent
    // as "owner@example.org, someone@example.net" would take a sign-in link to both.
    if (!isPlausibleEmail(mail.to)) throw new UnsendableMail('the recipient is not one e-mail address');
    // Sent, then marked, one row at a time: a crash in between repeats only the mail in flight
    // (the rows after it are still queued, and go out once when their lease runs out).
    await transport.send({
      ...mail,
      from: senderAs(mail.from, options.senderName?.(row.tenantId)),
      messageId: queuedMessageId(row, mail.from),
    });
    await markSent(db, row);
    result.sent++;
    mailsSent.inc({ tenant: tenantLabel(row.tenantId) });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const giveUp = error instanceof UnsendableMail || row.attempts >= options.maxAttempts;
    await markAttemptFailed(
      db,
      row,
      message,
      giveUp ? null : retryDelayMs(row.attempts, options.retryBaseMs),
    );
    options.log?.({
      level: giveUp ? 'error' : 'warn',
      msg: giveUp ? 'mail given up' : 'mail attempt failed',
      tenant: row.tenantId,
      mail: row.id,
      attempts: row.attempts,
      error: message,
    });
    if (giveUp) result.failed++;
    else result.retried++;
    mailsFailed.inc({ tenant: tenantLabel(row.tenantId), final: String(giveUp) });
  }
}

/** A mail no attempt can send: given up at once. */
class UnsendableMail extends Error {}

/**
 * Sends every mail that is due now, round after round until none is left, and returns what it
 * did. The background sender calls it on a timer; tests call it to read the outbox
 * deterministically after a request.
 */
export async function drainMailQueue(
  db: Database,
  transport: Mailer,
  options: MailSenderOptions = {},
  isStopping: () => boolean = () => false,
): Promise<DrainResult> {
  const settings = { ...MAIL_SENDER_DEFAULTS, ...options };
  const result: DrainResult = { sent: 0, skipped: 0, retried: 0, failed: 0 };
  // A stopping server finishes the row under way and leaves the rest (their leases run out and
  // another instance, or the next start, sends them).
  while (!isStopping()) {
    const rows = await claimDueMails(db, { limit: settings.batchSize, leaseMs: settings.leaseMs });
    if (rows.length === 0) return result;
    for (const row of rows) {
      if (isStopping()) break;
      await processRow(db, transport, row, settings, result);
    }
  }
  return result;
}

/**
 * Starts the background sender: drains at once (mails queued before a restart go out), then every
 * `intervalMs` and whenever a transaction that queued a mail commits; one round at a time per instance. Deletes finished rows after a week. Returns a
 * stop function that waits for a running round. Call it where the server starts its housekeeping.
 */
export function startMailSender(
  db: Database,
  transport: Mailer,
  options: MailSenderOptions & { intervalMs?: number; log?: (entry: Record<string, unknown>) => void } = {},
): () => Promise<void> {
  const intervalMs = options.intervalMs ?? 1000;
  let lastPrune = 0;
  return startPeriodicJob(
    'mail sender',
    async (isStopping) => {
      await drainMailQueue(db, transport, options, isStopping);
      if (Date.now() - lastPrune > 3_600_000) {
        lastPrune = Date.now();
        await deleteFinishedMails(db, FINISHED_MAIL_RETENTION_MS);
      }
    },
    {
      intervalMs,
      log: options.log,
      // A queued mail leaves once its transaction commits (migration 049's NOTIFY), not up to an
      // interval later: a sign-in link is what a person waits for at the screen.
      wakeOn: db.listen ? (wake) => db.listen!(MAIL_QUEUED_CHANNEL, wake) : undefined,
    },
  );
}
