import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { encodeWord } from 'nodemailer/lib/mime-funcs';

/**
 * The sender of the portal's mails (sign-in links, confirmations, e-cards) when MAIL_FROM names
 * none. Each mail goes out under its publisher's name (senderAs), from this address.
 */
export const PORTAL_MAIL_FROM = 'Kundenportal <no-reply@portal.example>';

/** The address of a sender written `Name <address>` or as the address alone; undefined when it has none. */
export function senderAddress(from: string): string | undefined {
  const address = (/<([^<>\s]+)>\s*$/.exec(from)?.[1] ?? from).trim();
  return /^[^@\s<>"]+@[^@\s<>"]+\.[^@\s<>"]+$/.test(address) ? address : undefined;
}

/**
 * The sender `from`'s address under `name` (a publisher's, docs/reference.md MAIL_FROM): a quoted
 * display name, which nodemailer encodes where it is not ASCII. `from` as it is without a name.
 */
export function senderAs(from: string, name: string | undefined): string {
  const address = senderAddress(from);
  if (!name?.trim() || !address) return from;
  const quoted = name
    .trim()
    .replace(/[\r\n]+/g, ' ')
    .replace(/["\\]/g, '\\$&');
  return `"${quoted}" <${address}>`;
}

/** MAIL_FROM as the portal's sender; anything without an address stops the start naming the variable. */
export function mailFromOfEnv(value = process.env.MAIL_FROM): string {
  if (value === undefined || value.trim() === '') return PORTAL_MAIL_FROM;
  if (!senderAddress(value))
    throw new Error(
      `MAIL_FROM must be an e-mail address, or a name and one as "Name <address>", not "${value}"`,
    );
  return value.trim();
}

export interface OutgoingMail {
  tenantId: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  html?: string;
  /** Reply address (the contact form's sender). */
  replyTo?: string;
  /** Files sent along (the contact form's upload); with `cid`, an inline image the HTML shows as `cid:<cid>` (the e-card). */
  attachments?: Array<{ filename: string; content: Buffer; contentType: string; cid?: string }>;
  /**
   * `<…@domain>`: the same for every attempt of one queued mail (server/mail/mailSender.ts), so a
   * mail sent again after a crash is recognisable as the same message (docs/architecture.md
   * "Sign-in safety": the mail sender).
   */
  messageId?: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

export interface OutboxEntry {
  file: string;
  tenantId: string;
  to: string;
  subject: string;
  date: string;
  text: string;
  messageId?: string;
}

/**
 * SMTP_URL (`smtp://user:password@host:587`, `smtps://…:465`) as nodemailer options, with time-outs
 * well below the mail queue's two-minute lease (server/mail/mailSender.ts): a hanging SMTP server
 * fails the attempt, which is retried, instead of outliving the lease.
 */
export function smtpOptions(smtpUrl: string) {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    secure,
    requireTLS: url.searchParams.get('requireTLS') === 'true',
    auth: url.username
      ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
      : undefined,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  };
}

/**
 * What nodemailer sends. A subject holding `=?` is sent encoded as a whole: nodemailer leaves a
 * well-formed encoded word in it as it is, and mail programs decode that, so a name a subscriber
 * typed (an e-card's sender, `=?utf-8?b?…?=`) could show other text in a mail from the publisher's
 * address, characters the input checks refuse included. Encoded, it reads as typed.
 */
function messageOf(mail: OutgoingMail) {
  return {
    from: mail.from,
    to: mail.to,
    subject: mail.subject.includes('=?') ? encodeWord(mail.subject, 'B', 52) : mail.subject,
    text: mail.text,
    html: mail.html,
    replyTo: mail.replyTo,
    attachments: mail.attachments,
    messageId: mail.messageId,
  };
}

/**
 * E-mails go through nodemailer (docs/architecture.md "Data and the server": Real parts): over SMTP when
 * SMTP_URL is set, otherwise rendered to RFC 822 files in an outbox folder (one `.eml` plus a `.json` summary
 * per message) that `portal dev` and `npm start` list at /outbox.
 */
export function createMailer(options: { smtpUrl?: string; outboxDir: string }): Mailer {
  if (options.smtpUrl) {
    // Time-outs well below the mail queue's two-minute lease (server/mail/mailSender.ts), so a
    // hanging SMTP server fails the attempt instead of outliving the lease.
    const transport = nodemailer.createTransport(smtpOptions(options.smtpUrl));
    return {
      async send(mail) {
        await transport.sendMail(messageOf(mail));
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let sequence = 0;
  return {
    async send(mail) {
      const info = await transport.sendMail(messageOf(mail));
      await mkdir(options.outboxDir, { recursive: true });
      const date = new Date().toISOString();
      const base = `${date.replace(/[:.]/g, '-')}-${process.pid}-${(sequence++).toString().padStart(4, '0')}`;
      await writeFile(path.join(options.outboxDir, `${base}.eml`), info.message as Buffer);
      const entry: OutboxEntry = {
        file: `${base}.eml`,
        tenantId: mail.tenantId,
        to: mail.to,
        subject: mail.subject,
        date,
        text: mail.text,
        ...(mail.messageId ? { messageId: mail.messageId } : {}),
      };
      // Written under another name and renamed: the outbox viewer lists `*.json` while mails are
      // being sent, and a rename is atomic, so it never reads half an entry.
      const entryFile = path.join(options.outboxDir, `${base}.json`);
      await writeFile(`${entryFile}.part`, JSON.stringify(entry, null, 2));
      await rename(`${entryFile}.part`, entryFile);
    },
  };
}

/** Newest first. */
export async function readOutbox(outboxDir: string): Promise<OutboxEntry[]> {
  let files: string[];
  try {
    files = await readdir(outboxDir);
  } catch {
    return [];
  }
  const entries = await Promise.all(
    files
      .filter((file) => file.endsWith('.json'))
      .map(async (file) => JSON.parse(await readFile(path.join(outboxDir, file), 'utf8')) as OutboxEntry),
  );
  return entries.sort((a, b) => b.file.localeCompare(a.file));
}
