/**
 * `portal webhooks secret`: a Standard Webhooks secret on stdout, alone, so
 * `export PORTAL_WEBHOOK_SECRET_ACME=$(portal webhooks secret)` works; the `standardwebhooks`
 * package takes it as it is. `portal webhooks enable` against a database is
 * tests/cli/webhooksCommand.int.test.ts.
 */
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProgram } from '../../cli/program';
import { decodeWebhookSecret } from '../../tenant/webhookSecret';

let stdout: string[];
let stderr: string[];

beforeEach(() => {
  stdout = [];
  stderr = [];
  vi.spyOn(console, 'log').mockImplementation((...parts) => void stdout.push(parts.join(' ')));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (stderr.push(String(chunk)), true));
});
afterEach(() => vi.restoreAllMocks());

const portal = (...args: string[]) => createProgram().parseAsync(['node', 'portal', 'webhooks', ...args]);

describe('portal webhooks secret', () => {
  it('prints one fresh whsec_ secret of 32 random bytes, which the standardwebhooks package takes', async () => {
    await portal('secret');
    await portal('secret');
    expect(stdout).toHaveLength(2);
    const [secret, other] = stdout;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(other).not.toBe(secret);
    expect(decodeWebhookSecret(secret)).toEqual({ key: expect.any(Uint8Array) });
    const webhook = new Webhook(secret);
    const headers = {
      'webhook-id': 'evt-1',
      'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
      'webhook-signature': webhook.sign('evt-1', new Date(), '{"ok":true}'),
    };
    expect(webhook.verify('{"ok":true}', headers)).toEqual({ ok: true });
  });

  it('takes --bytes from 24 to 64 and refuses other sizes', async () => {
    await portal('secret', '--bytes', '48');
    expect(stdout[0]).toMatch(/^whsec_[A-Za-z0-9+/]{64}$/);
    await expect(portal('secret', '--bytes', '16')).rejects.toMatchObject({
      code: 'commander.invalidArgument',
    });
    expect(stderr.join('')).toContain(
      "option '--bytes <n>' argument '16' is invalid. write a whole number from 24 to 64",
    );
  });
});
