/**
 * The outbox of an integration test file: a fresh folder and the file transport that writes each
 * mail there (server/mail/mailer.ts), read back after the mail queue is drained; and the sign-in
 * by a mailed login link that most API tests start with.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { Database } from '../../server/db/database';
import { createMailer, readOutbox, type Mailer, type OutboxEntry } from '../../server/mail/mailer';
import { drainMailQueue } from '../../server/mail/mailSender';
import { browserLikeClient } from './apiClient';
import { getTestDatabase } from './database';

export interface TestOutbox {
  /** The folder: per mail one `.eml` (the message as sent) and one `.json` (an OutboxEntry). */
  dir: string;
  /** The transport to give createApp (and drainMailQueue). */
  mailer: Mailer;
  /**
   * Sends what is queued (the background sender's work, done here deterministically), then the
   * mails to `to` (without it, every mail), oldest first; with `tenantId`, only that tenant's.
   */
  mails(to?: string, tenantId?: string): Promise<OutboxEntry[]>;
  /** A mail as it was sent: headers, parts and attachments. */
  eml(mail: Pick<OutboxEntry, 'file'>): string;
}

/**
 * A new outbox in a folder named `<prefix>…` under the system's temporary folder. Its mails leave
 * the queue of `database`, the test database of the file unless the file opens another one.
 */
export function createTestOutbox(
  prefix: string,
  database: () => Database | Promise<Database> = getTestDatabase,
): TestOutbox {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const mailer = createMailer({ outboxDir: dir });
  return {
    dir,
    mailer,
    async mails(to, tenantId) {
      await drainMailQueue(await database(), mailer);
      // readOutbox lists the newest first.
      return (await readOutbox(dir))
        .reverse()
        .filter(
          (mail) =>
            (to === undefined || mail.to === to) && (tenantId === undefined || mail.tenantId === tenantId),
        );
    },
    eml: (mail) => readFileSync(path.join(dir, mail.file), 'utf8'),
  };
}

/** The first link in a mail's text. */
export function firstLink(text: string): URL {
  const match = /https?:\/\/\S+/.exec(text);
  if (!match) throw new Error(`no link in the mail: ${text}`);
  return new URL(match[0]);
}

/** The subject of the sign-in mail, in either language. */
const LOGIN_LINK = /Anmeldelink|login link/;

export interface MagicLinkSignIn {
  baseUrl: string;
  tenantId: string;
  email: string;
  /** What the client asks first, for the XSRF cookie, as loading the page would. */
  firstPath?: string;
  /** Headers of the request for the link: `accept-language` picks the mail's language. */
  headers?: Record<string, string>;
  /**
   * Also check that the request mailed the address exactly one mail (counted in every tenant and
   * of every subject), and that it is the login link.
   */
  oneMail?: boolean;
}

export interface SignedIn {
  client: ReturnType<typeof browserLikeClient>;
  /** The mail with the login link. */
  mail: OutboxEntry;
  link: URL;
  /** The link's token (`p`). */
  token: string;
  /** The answer of POST /login/token (accessToken, user, loginSource, …). */
  login: any;
}

/**
 * Signs in as a subscriber does with a login link: asks for the link (answered 202), opens the
 * one this request mailed to the address in this tenant (answered 200) and keeps the session's
 * token in the client.
 */
export async function signInByMagicLink(
  outbox: TestOutbox,
  { baseUrl, tenantId, email, firstPath = '/subscriptions', headers, oneMail = false }: MagicLinkSignIn,
): Promise<SignedIn> {
  const client = browserLikeClient(baseUrl, `/t/${tenantId}/api`);
  await client.get(firstPath);
  // Only a mail this request sent counts: an earlier login link to the address would sign in too.
  const before = new Set((await outbox.mails(email)).map((m) => m.file));
  expect((await client.post('/login/magic-link', { email }, headers)).status).toBe(202);
  const mails = (await outbox.mails(email)).filter((m) => !before.has(m.file));
  const mail = mails.filter((m) => m.tenantId === tenantId && LOGIN_LINK.test(m.subject)).at(-1);
  expect(mail, `a new login link to ${email}`).toBeDefined();
  if (oneMail) expect(mails).toEqual([mail]);
  const link = firstLink(mail!.text);
  const token = link.searchParams.get('p')!;
  const login = await client.post('/login/token', { token });
  expect(login.status).toBe(200);
  client.setAccessToken(login.body.accessToken);
  return { client, mail: mail!, link, token, login: login.body };
}
