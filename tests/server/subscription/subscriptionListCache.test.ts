import { describe, expect, it } from 'vitest';
import { createSubscriptionListCache } from '../../../server/subscription/subscriptionListCache';

const answer = (text: string) => ({ body: Buffer.from(text), etag: `W/"${text}"`, encoded: {} });
const key = (userId: string, dataVersion = '1:2026-11-23', locale = 'de-DE') => ({
  tenantId: 'verlag',
  userId,
  locale,
  dataVersion,
});

describe('the subscription list cache', () => {
  it('gives an answer back only under the data version it was made under', () => {
    const cache = createSubscriptionListCache();
    cache.set(key('anna'), answer('[1]'));
    expect(cache.get(key('anna'))?.body.toString()).toBe('[1]');
    expect(cache.get(key('anna', '2:2026-11-23'))).toBeUndefined();
    // The next day's next issue differs: the day is part of the version.
    expect(cache.get(key('anna', '1:2026-11-24'))).toBeUndefined();
  });

  it('keeps users, tenants and languages apart', () => {
    const cache = createSubscriptionListCache();
    cache.set(key('anna'), answer('[1]'));
    expect(cache.get(key('bert'))).toBeUndefined();
    expect(cache.get(key('anna', '1:2026-11-23', 'en-GB'))).toBeUndefined();
    expect(cache.get({ ...key('anna'), tenantId: 'nachbar' })).toBeUndefined();
  });

  it("replaces a user's older answer and forgets the least recently used beyond its limit", () => {
    const cache = createSubscriptionListCache(2);
    cache.set(key('anna'), answer('[1]'));
    cache.set(key('anna', '2:2026-11-23'), answer('[2]'));
    expect(cache.get(key('anna'))).toBeUndefined();
    cache.set(key('bert'), answer('[b]'));
    expect(cache.get(key('anna', '2:2026-11-23'))?.body.toString()).toBe('[2]'); // anna used last
    cache.set(key('carl'), answer('[c]'));
    expect(cache.get(key('bert'))).toBeUndefined();
    expect(cache.get(key('anna', '2:2026-11-23'))).toBeDefined();
    expect(cache.get(key('carl'))).toBeDefined();
  });

  it('keeps at most its byte budget, forgetting the least recently used, and never keeps an answer over a quarter of it', () => {
    const cache = createSubscriptionListCache(100, 40);
    cache.set(key('anna'), answer('x'.repeat(8)));
    cache.set(key('bert'), answer('y'.repeat(8)));
    cache.set(key('carl'), answer('z'.repeat(11)));
    expect(cache.get(key('carl'))).toBeUndefined();
    cache.set(key('dora'), answer('d'.repeat(10)));
    cache.set(key('emil'), answer('e'.repeat(10)));
    cache.set(key('fina'), answer('f'.repeat(10)));
    // 8 + 8 + 10 + 10 + 10 > 40: anna, the least recently used, went.
    expect(cache.get(key('anna'))).toBeUndefined();
    expect(cache.get(key('bert'))).toBeDefined();
    expect(cache.get(key('fina'))).toBeDefined();
  });
});
