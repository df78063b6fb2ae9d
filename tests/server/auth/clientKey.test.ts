import { describe, expect, it } from 'vitest';
import { clientKey } from '../../../server/auth/rateLimit';

describe('the client a per-client limit counts', () => {
  it('counts an IPv4 client by its address, also when it arrives IPv4-mapped', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts every address of one IPv6 /64 as one client, however it is written', () => {
    const key = clientKey('2001:db8:abcd:12:1:2:3:4');
    expect(key).toBe('2001:db8:abcd:12::/64');
    expect(clientKey('2001:db8:abcd:12:ffff::1')).toBe(key);
    expect(clientKey('2001:0DB8:ABCD:0012::9')).toBe(key);
    expect(clientKey('2001:db8:abcd:13::1')).not.toBe(key);
  });
});
