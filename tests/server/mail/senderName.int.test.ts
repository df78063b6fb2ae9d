/**
 * Each mail goes out under its publisher's name (docs/reference.md MAIL_FROM): the sender's
 * display name is the tenant's, its address the portal's, whichever mail of whichever feature it
 * is, since the mail sender sets it when it sends.
 */
import { describe, expect, it } from 'vitest';
import { enqueueMail } from '../../../server/store/mailQueueStore';
import { drainMailQueue } from '../../../server/mail/mailSender';
import { mailFromOfEnv, PORTAL_MAIL_FROM, senderAs } from '../../../server/mail/mailer';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { createTestOutbox } from '../../support/outbox';

const outbox = createTestOutbox('portal-sender-name-');

describe('the sender of a mail', () => {
  it("is the tenant's name at the portal's address, encoded where it is not ASCII", async () => {
    const db = await getTestDatabase();
    const named = uniqueTenantId('sender-named');
    const unnamed = uniqueTenantId('sender-unnamed');
    for (const tenantId of [named, unnamed])
      await enqueueMail(db, {
        tenantId,
        to: `reader@${tenantId}.example`,
        from: 'Kundenportal <no-reply@portal.example>',
        subject: 'Hallo',
        text: 'Text',
      });
    const names: Record<string, string> = { [named]: 'Der „Süd“ Bote "Extra"' };
    await drainMailQueue(db, outbox.mailer, { senderName: (tenantId) => names[tenantId] });
    const [mail] = (await outbox.mails(`reader@${named}.example`)).slice(-1);
    // The header unfolded (a long one continues on lines that start with a space).
    const from = /^From: (.*)$/m.exec(outbox.eml(mail).replace(/\r?\n[ \t]+/g, ' '))![1];
    // RFC 2047 encoded words: the name decodes back to the tenant's.
    expect(from).toMatch(/^=\?UTF-8\?[QB]\?.*\?= <no-reply@portal\.example>$/);
    const decoded = from
      .replace(/ <no-reply@portal\.example>$/, '')
      // Whitespace between two encoded words is not part of the text (RFC 2047 §6.2).
      .replace(/\?=\s+=\?/g, '?==?')
      .replace(/=\?UTF-8\?B\?([^?]*)\?=/g, (_m, b64: string) => Buffer.from(b64, 'base64').toString('utf8'))
      .replace(/=\?UTF-8\?Q\?([^?]*)\?=/g, (_m, q: string) =>
        Buffer.from(
          q
            .replace(/_/g, ' ')
            .replace(/=([0-9A-F]{2})/g, (_x, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
      );
    expect(decoded).toBe('Der „Süd“ Bote "Extra"');
    // A tenant without a name keeps the queued sender.
    const [plain] = (await outbox.mails(`reader@${unnamed}.example`)).slice(-1);
    expect(outbox.eml(plain)).toMatch(/^From: Kundenportal <no-reply@portal\.example>$/m);
  });

  it('takes MAIL_FROM as an address or a name with one, and refuses anything else naming the variable', () => {
    expect(mailFromOfEnv(undefined)).toBe(PORTAL_MAIL_FROM);
    expect(mailFromOfEnv(' ')).toBe(PORTAL_MAIL_FROM);
    expect(mailFromOfEnv('no-reply@mail.publisher.example')).toBe('no-reply@mail.publisher.example');
    expect(mailFromOfEnv('Portal <no-reply@mail.publisher.example>')).toBe(
      'Portal <no-reply@mail.publisher.example>',
    );
    expect(() => mailFromOfEnv('Portal')).toThrow(/MAIL_FROM must be an e-mail address/);
    expect(() => mailFromOfEnv('a@b')).toThrow(/MAIL_FROM/);
    expect(senderAs('no-reply@mail.publisher.example', 'The Northern Review')).toBe(
      '"The Northern Review" <no-reply@mail.publisher.example>',
    );
    expect(senderAs('Portal <no-reply@mail.publisher.example>', 'A\r\nBcc: x@y.example')).toBe(
      '"A Bcc: x@y.example" <no-reply@mail.publisher.example>',
    );
    expect(senderAs('Portal <no-reply@mail.publisher.example>', undefined)).toBe(
      'Portal <no-reply@mail.publisher.example>',
    );
  });
});
