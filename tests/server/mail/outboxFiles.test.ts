import { mkdtemp, readdir, rm } from 'node:fs/promises';
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
});
