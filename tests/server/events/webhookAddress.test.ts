import { describe, expect, it } from 'vitest';
import { isPublicAddress, redactedUrl, webhookLookup } from '../../../server/events/webhookAddress';

const resolve = (url: string, env: NodeJS.ProcessEnv = {}) =>
  new Promise<{ error?: string; address?: string }>((done) => {
    const target = new URL(url);
    webhookLookup(target, env)(target.hostname, {}, (error, address) =>
      done(error ? { error: error.message } : { address: String(address) }),
    );
  });

describe('where a webhook may go', () => {
  it('tells public from private, loopback, link-local and unique-local addresses', () => {
    expect(isPublicAddress('93.184.216.34')).toBe(true);
    expect(isPublicAddress('2606:4700::1111')).toBe(true);
    for (const address of [
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '127.0.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('refuses an https endpoint whose name resolves to a private address (the cloud metadata service, say)', async () => {
    expect((await resolve('https://localhost/hook')).error).toMatch(/no public address/);
    expect((await resolve('https://127.0.0.1/hook')).error).toMatch(/no public address/);
  });

  it('lets a literal local receiver over http through, and any address when the operator allows private ones', async () => {
    expect((await resolve('http://127.0.0.1:4000/hook')).address).toBe('127.0.0.1');
    expect((await resolve('https://127.0.0.1/hook', { PORTAL_WEBHOOK_ALLOW_PRIVATE: 'true' })).address).toBe(
      '127.0.0.1',
    );
  });

  it('leaves the query string (it may carry a token) out of logs and listings', () => {
    expect(redactedUrl('https://crm.example/in?token=geheim')).toBe('https://crm.example/in?…');
    expect(redactedUrl('https://crm.example/in')).toBe('https://crm.example/in');
  });
});
