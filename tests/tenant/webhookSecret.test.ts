/**
 * Standard Webhooks secrets: `whsec_` + base64 of 24 to 64 random bytes, the decoded
 * bytes the HMAC key. Checked against the `standardwebhooks` package itself: a secret made here is
 * one it takes, and the portal's signature is the one it computes for the same key, id, time and body.
 */
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { webhookSignature, webhookSignatureHeaders } from '../../server/events/webhookSignature';
import { decodeWebhookSecret, generateWebhookSecret, webhookSecretProblem } from '../../tenant/webhookSecret';

const FORM = 'a Standard Webhooks secret is whsec_ followed by the base64 of 24 to 64 random bytes';
const key = (secret: string) => {
  const decoded = decodeWebhookSecret(secret);
  if ('problem' in decoded) throw new Error(decoded.problem);
  return decoded.key;
};

describe('webhook secrets', () => {
  it('makes a fresh whsec_ secret of 32 random bytes by default, or of the size asked', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(key(secret)).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
    expect(key(generateWebhookSecret(24))).toHaveLength(24);
    expect(key(generateWebhookSecret(64))).toHaveLength(64);
    expect(() => generateWebhookSecret(16)).toThrow('a webhook secret has 24 to 64 bytes, not 16');
  });

  it('decodes the bytes after whsec_ as the key', () => {
    const bytes = Uint8Array.from({ length: 24 }, (_, i) => i * 7);
    expect(key(`whsec_${Buffer.from(bytes).toString('base64')}`)).toEqual(bytes);
  });

  it('names what is wrong, without the value', () => {
    expect(webhookSecretProblem('test-secret-0123456789')).toBe(`it does not start with whsec_ (${FORM})`);
    expect(webhookSecretProblem('whsec_')).toBe(`what follows whsec_ is not base64 (${FORM})`);
    expect(webhookSecretProblem('whsec_not base64!')).toBe(`what follows whsec_ is not base64 (${FORM})`);
    // Unpadded or URL-safe base64 is not the canonical form the libraries decode.
    expect(webhookSecretProblem(`whsec_${'A'.repeat(43)}`)).toBe(
      `what follows whsec_ is not base64 (${FORM})`,
    );
    expect(webhookSecretProblem(`whsec_${'_'.repeat(44)}`)).toBe(
      `what follows whsec_ is not base64 (${FORM})`,
    );
    expect(webhookSecretProblem(`whsec_${Buffer.alloc(16).toString('base64')}`)).toBe(
      `it decodes to 16 bytes (${FORM})`,
    );
    expect(webhookSecretProblem(`whsec_${Buffer.alloc(65).toString('base64')}`)).toBe(
      `it decodes to 65 bytes (${FORM})`,
    );
    expect(webhookSecretProblem(generateWebhookSecret())).toBeUndefined();
  });
});

describe('webhook signatures', () => {
  it('is what the standardwebhooks package computes for the same secret, id, time and body', () => {
    const secret = generateWebhookSecret();
    const id = '5b0c1f0e-8d8a-4f7e-9a51-1c2d3e4f5a6b';
    const body = '{"id":"5b0c1f0e-8d8a-4f7e-9a51-1c2d3e4f5a6b","type":"invoice.requested"}';
    const seconds = 1_795_374_584;
    expect(webhookSignature([key(secret)], id, seconds, body)).toBe(
      new Webhook(secret).sign(id, new Date(seconds * 1000), body),
    );
  });

  it('puts one signature per key into the header, the first key first, and the id and time beside it', () => {
    const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const seconds = Math.floor(Date.now() / 1000);
    const headers = webhookSignatureHeaders([key(current), key(previous)], 'evt-1', seconds, '{}');
    expect(headers['webhook-id']).toBe('evt-1');
    expect(headers['webhook-timestamp']).toBe(String(seconds));
    expect(headers['webhook-signature']).toBe(
      `${new Webhook(current).sign('evt-1', new Date(seconds * 1000), '{}')} ${new Webhook(previous).sign('evt-1', new Date(seconds * 1000), '{}')}`,
    );
    expect(() => webhookSignature([], 'evt-1', seconds, '{}')).toThrow('at least one signing key');
  });
});
