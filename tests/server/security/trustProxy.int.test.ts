/**
 * X-Forwarded-For was once believed from any loopback client, so a local client chose
 * its own address for the per-client limits, and a 6,000-character header answered 500. Now no proxy
 * is trusted unless TRUST_PROXY (the `trustProxy` option) says so, and an address that is not one
 * never reaches a rate-limit key.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../../../server/http/trustProxy';
import { startSecurityFixture, type SecurityFixture } from './securityFixture';

let f: SecurityFixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

/**
 * Three failed link attempts of one account (not found: failed proofs count), each claiming another
 * client address.
 */
async function linkAttempts(
  fixture: SecurityFixture,
  forwardedFor: (i: number) => string,
): Promise<number[]> {
  const [tenant] = fixture.tenants;
  const user = await fixture.session(tenant, fixture.logins.find((l) => l.tenantId === tenant.id)!.email);
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) {
    const answer = await fixture.call({
      method: 'POST',
      path: `${fixture.api(tenant)}/subscriptions`,
      token: user.token,
      body: { bpNumber: '9999999999', zipcode: '12345', lastName: 'Nobody' },
      headers: { 'x-forwarded-for': forwardedFor(i) },
    });
    statuses.push(answer.status);
  }
  return statuses;
}

const limits = { windowSeconds: 900, perAddress: 100, perClient: 2 };

describe('TRUST_PROXY', () => {
  it('trusts no X-Forwarded-For by default, not even from loopback: the third attempt of one client is 429', async () => {
    f = await startSecurityFixture({ signInLimits: limits, trustProxy: parseTrustProxy(undefined) });
    const statuses = await linkAttempts(f, (i) => `203.0.113.${i + 1}`);
    expect(statuses[2]).toBe(429);
  });

  it('believes the configured proxies: clients behind a trusted loopback proxy count apart', async () => {
    f = await startSecurityFixture({ signInLimits: limits, trustProxy: parseTrustProxy('loopback') });
    const statuses = await linkAttempts(f, (i) => `203.0.113.${i + 1}`);
    expect(statuses).not.toContain(429);
  });

  it('answers a 6,000-character X-Forwarded-For without a 5xx, trusted or not', async () => {
    for (const setting of [undefined, 'loopback', 'true']) {
      f = await startSecurityFixture({ signInLimits: limits, trustProxy: parseTrustProxy(setting) });
      const statuses = await linkAttempts(f, () => 'a'.repeat(6_000));
      expect(
        statuses.every((status) => status < 500),
        `${setting}: ${statuses}`,
      ).toBe(true);
      // The garbage address counts as the peer itself: one client, limited.
      expect(statuses[2]).toBe(429);
      await f.close();
      f = undefined;
    }
  });

  it('reads the forms of Express trust proxy and refuses anything else naming the variable', () => {
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('loopback, 10.0.0.0/8, 192.0.2.7, fd00::/8')).toEqual([
      'loopback',
      '10.0.0.0/8',
      '192.0.2.7',
      'fd00::/8',
    ]);
    expect(() => parseTrustProxy('everything')).toThrow(/TRUST_PROXY="everything".*not an address/);
    expect(() => parseTrustProxy('10.0.0.0/99')).toThrow(/TRUST_PROXY/);
  });
});
