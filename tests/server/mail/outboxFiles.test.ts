import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMailer, readOutbox } from '../../../server/mail/mailer';

describe('the outbox folder', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('is read whole while mails are being written: every entry listed parses, none is half', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'outbox-'));
    const mailer = createMailer({ outboxDir: dir });
    const text = 'x'.repeat(1_200_000); // Node writes a file in 512 KiB pieces: several here
    let sending = true;
    const sends = Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        mailer.send({
          tenantId: 'demo',
          from: 'portal@example.org',
          to: `reader${index}@example.org`,
          subject: 'Subject',
          text,
        }),
      ),
    ).finally(() => {
      sending = false;
    });
    let reads = 0;
    while (sending) {
      const entries = await readOutbox(dir);
      for (const entry of entries) expect(entry.text).toHaveLength(text.length);
      reads += 1;
    }
    await sends;
    expect(reads).toBeGreaterThan(0);
    expect(await readOutbox(dir)).toHaveLength(5);
    expect((await readdir(dir)).filter((file) => file.endsWith('.part'))).toEqual([]);
  });

  it('sends a subject that holds an encoded word as typed, never for a mail program to decode', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'outbox-'));
    const mailer = createMailer({ outboxDir: dir });
    const decodeSubject = async (subject: string) => {
      await mailer.send({
        tenantId: 'demo',
        from: 'portal@example.org',
        to: 'r@example.org',
        subject,
        text: 'x',
      });
      const [entry] = await readOutbox(dir!);
      const eml = await readFile(path.join(dir!, entry.file), 'utf8');
      await rm(path.join(dir!, entry.file));
      await rm(path.join(dir!, entry.file.replace(/\.eml$/, '.json')));
      const header = /^Subject: (.*(?:\n [^\n]*)*)/m.exec(eml)![1];
      // RFC 2047: the encoded words of an unfolded header, each decoded, the space between them dropped.
      return header
        .replace(/\n /g, ' ')
        .replace(/\?= =\?/g, '?==?')
        .replace(/=\?UTF-8\?B\?([A-Za-z0-9+/=]*)\?=/gi, (_m, b64: string) =>
          Buffer.from(b64, 'base64').toString('utf8'),
        );
    };
    // A sender name typed as an encoded word, which would read "Bcc: x@y.z hat Ihnen …".
    const typed = '=?utf-8?b?QmNjOiB4QHkueg==?= hat Ihnen eine E-Card geschickt';
    expect(await decodeSubject(typed)).toBe(typed);
    expect(await decodeSubject('Your cancellation')).toBe('Your cancellation');
  });
});
