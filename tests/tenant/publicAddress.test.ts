/**
 * Which addresses count as public (docs/going-live.md "Account events and webhooks", "Outbound requests"):
 * the rules the validator and the server's outbound guard share, in every notation an attacker may
 * write an address in, since each one names the same machine.
 */
import { describe, expect, it } from 'vitest';
import {
  isLoopbackAddress,
  nonPublicAddress,
  nonPublicHost,
  parseIPv4,
  parseIPv6,
} from '../../tenant/publicAddress';

describe('public addresses', () => {
  it('lets public IPv4 and IPv6 addresses through, including public ones inside NAT64, 6to4 and IPv4-mapped forms', () => {
    for (const address of [
      '93.184.216.34',
      '8.8.8.8',
      '100.128.0.1',
      '172.32.0.1',
      '2606:4700::1111',
      '2a00:1450:4001:80b::200e',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
    ])
      expect(nonPublicAddress(address), address).toBeUndefined();
  });

  it('refuses every non-public IPv4 range, naming it', () => {
    expect(
      Object.fromEntries(
        [
          '0.0.0.0',
          '0.1.2.3',
          '10.1.2.3',
          '100.64.0.1',
          '100.127.255.255',
          '127.0.0.1',
          '127.0.0.2',
          '169.254.169.254',
          '172.16.0.1',
          '172.31.255.255',
          '192.0.0.8',
          '192.0.2.1',
          '192.168.1.1',
          '198.18.0.1',
          '198.19.255.255',
          '198.51.100.7',
          '203.0.113.9',
          '224.0.0.1',
          '239.255.255.250',
          '240.0.0.1',
          '255.255.255.255',
        ].map((address) => [address, nonPublicAddress(address)]),
      ),
    ).toEqual({
      '0.0.0.0': 'an unspecified ("this network") address (0.0.0.0/8)',
      '0.1.2.3': 'an unspecified ("this network") address (0.0.0.0/8)',
      '10.1.2.3': 'a private address (10.0.0.0/8)',
      '100.64.0.1': 'a carrier-grade NAT address (100.64.0.0/10)',
      '100.127.255.255': 'a carrier-grade NAT address (100.64.0.0/10)',
      '127.0.0.1': 'a loopback address (127.0.0.0/8)',
      '127.0.0.2': 'a loopback address (127.0.0.0/8)',
      '169.254.169.254': 'a link-local address, where cloud metadata services answer (169.254.0.0/16)',
      '172.16.0.1': 'a private address (172.16.0.0/12)',
      '172.31.255.255': 'a private address (172.16.0.0/12)',
      '192.0.0.8': 'an IETF protocol assignment (192.0.0.0/24)',
      '192.0.2.1': 'a documentation address (192.0.2.0/24)',
      '192.168.1.1': 'a private address (192.168.0.0/16)',
      '198.18.0.1': 'a benchmarking address (198.18.0.0/15)',
      '198.19.255.255': 'a benchmarking address (198.18.0.0/15)',
      '198.51.100.7': 'a documentation address (198.51.100.0/24)',
      '203.0.113.9': 'a documentation address (203.0.113.0/24)',
      '224.0.0.1': 'a multicast address (224.0.0.0/4)',
      '239.255.255.250': 'a multicast address (224.0.0.0/4)',
      '240.0.0.1': 'a reserved address (240.0.0.0/4)',
      '255.255.255.255': 'the broadcast address (255.255.255.255/32)',
    });
  });

  it('refuses every non-public IPv6 range, and judges an embedded IPv4 address by itself', () => {
    expect(
      Object.fromEntries(
        [
          '::',
          '::1',
          '::ffff:127.0.0.1',
          '::ffff:7f00:1',
          '::ffff:a9fe:a9fe',
          '::7f00:1',
          '::8.8.8.8',
          '64:ff9b::10.0.0.1',
          '64:ff9b::7f00:1',
          '64:ff9b:1::1',
          '2002:c0a8:101::1',
          '2002:7f00:1::',
          '100::1',
          '2001:0:4136:e378::1',
          '2001:db8::1',
          '3fff::1',
          'fc00::1',
          'fd00::1',
          'fe80::1',
          'fe80::1%eth0',
          'fec0::1',
          'ff02::1',
          '1::',
        ].map((address) => [address, nonPublicAddress(address)]),
      ),
    ).toEqual({
      '::': 'the unspecified address (::/128)',
      '::1': 'the loopback address (::1/128)',
      '::ffff:127.0.0.1':
        'an IPv4-mapped address (::ffff:0:0/96) of 127.0.0.1, a loopback address (127.0.0.0/8)',
      '::ffff:7f00:1':
        'an IPv4-mapped address (::ffff:0:0/96) of 127.0.0.1, a loopback address (127.0.0.0/8)',
      '::ffff:a9fe:a9fe':
        'an IPv4-mapped address (::ffff:0:0/96) of 169.254.169.254, a link-local address, where cloud metadata services answer (169.254.0.0/16)',
      '::7f00:1': 'an IPv4-compatible address of 127.0.0.1 (::/96, deprecated)',
      '::8.8.8.8': 'an IPv4-compatible address of 8.8.8.8 (::/96, deprecated)',
      '64:ff9b::10.0.0.1': 'a NAT64 address (64:ff9b::/96) of 10.0.0.1, a private address (10.0.0.0/8)',
      '64:ff9b::7f00:1': 'a NAT64 address (64:ff9b::/96) of 127.0.0.1, a loopback address (127.0.0.0/8)',
      '64:ff9b:1::1': 'a local-use NAT64 address (64:ff9b:1::/48)',
      '2002:c0a8:101::1': 'a 6to4 address (2002::/16) of 192.168.1.1, a private address (192.168.0.0/16)',
      '2002:7f00:1::': 'a 6to4 address (2002::/16) of 127.0.0.1, a loopback address (127.0.0.0/8)',
      '100::1': 'a discard-only address (100::/64)',
      '2001:0:4136:e378::1': 'an IETF protocol assignment such as Teredo or benchmarking (2001::/23)',
      '2001:db8::1': 'a documentation address (2001:db8::/32)',
      '3fff::1': 'a documentation address (3fff::/20)',
      'fc00::1': 'a unique local (private) address (fc00::/7)',
      'fd00::1': 'a unique local (private) address (fc00::/7)',
      'fe80::1': 'a link-local address (fe80::/10)',
      'fe80::1%eth0': 'a link-local address (fe80::/10)',
      'fec0::1': 'a site-local address (fec0::/10)',
      'ff02::1': 'a multicast address (ff00::/8)',
      '1::': 'not a global unicast address (outside 2000::/3)',
    });
  });

  it('reads an IPv4 address in every notation a URL parser or a resolver accepts', () => {
    for (const notation of [
      '127.0.0.1',
      '127.1',
      '127.0.1',
      '0x7f.1',
      '0x7F.0.0.1',
      '2130706433',
      '0177.0.0.1',
      '017700000001',
      '0x7f000001',
      '127.0.0.1.',
    ])
      expect(parseIPv4(notation), notation).toEqual([127, 0, 0, 1]);
    expect(parseIPv4('0')).toEqual([0, 0, 0, 0]);
    expect(parseIPv4('169.254.43518')).toEqual([169, 254, 169, 254]);
    for (const name of [
      'crm.example.com',
      '1.2.3.4.5',
      '256.0.0.1',
      '4294967296',
      '09.1.1.1',
      '1.2.3.example',
      '',
    ])
      expect(parseIPv4(name), name).toBeUndefined();
  });

  it('reads IPv6 addresses with brackets, zones and an IPv4 tail, and nothing that is not one', () => {
    expect(parseIPv6('[::ffff:127.0.0.1]')).toEqual(parseIPv6('::ffff:7f00:1'));
    expect(parseIPv6('fe80::1%25eth0')).toEqual(parseIPv6('fe80::1'));
    expect(parseIPv6('1:2:3:4:5:6:7:8')).toHaveLength(16);
    for (const text of ['1:2:3:4:5:6:7:8:9', '1::2::3', '12345::', '::1.2.3', 'crm.example', '1:2:3:4:5:6:7'])
      expect(parseIPv6(text), text).toBeUndefined();
    // Something that is no address at all is never taken for a public one.
    expect(nonPublicAddress('crm.example.com')).toBe('not an IP address');
  });

  it("judges a URL's host: literals in any notation and localhost names refused, other names left to resolution", () => {
    const host = (url: string) => nonPublicHost(new URL(url).hostname);
    expect(host('https://127.1:5371/hook')).toBe('127.0.0.1 is a loopback address (127.0.0.0/8)');
    expect(host('https://0x7f.1/hook')).toBe('127.0.0.1 is a loopback address (127.0.0.0/8)');
    expect(host('https://2130706433/hook')).toBe('127.0.0.1 is a loopback address (127.0.0.0/8)');
    expect(host('https://0177.0.0.1/hook')).toBe('127.0.0.1 is a loopback address (127.0.0.0/8)');
    expect(host('https://[::ffff:127.0.0.1]/hook')).toBe(
      '::ffff:7f00:1 is an IPv4-mapped address (::ffff:0:0/96) of 127.0.0.1, a loopback address (127.0.0.0/8)',
    );
    expect(host('https://0.0.0.0:5371/hook')).toBe(
      '0.0.0.0 is an unspecified ("this network") address (0.0.0.0/8)',
    );
    expect(host('https://[::]/hook')).toBe(':: is the unspecified address (::/128)');
    expect(host('https://LOCALHOST./hook')).toBe('localhost is a name of this machine (localhost)');
    expect(host('https://crm.localhost/hook')).toBe('crm.localhost is a name of this machine (localhost)');
    // Not parsed by a URL: the rules read the notation themselves.
    expect(nonPublicHost('0x7f.1')).toBe('0x7f.1 is a loopback address (127.0.0.0/8)');
    expect(nonPublicHost('crm.example.com')).toBeUndefined();
    expect(nonPublicHost('localhost.example.com')).toBeUndefined();
    expect(nonPublicHost('[2606:4700::1111]')).toBeUndefined();
    expect(nonPublicHost('93.184.216.34')).toBeUndefined();
  });
});

describe('loopback addresses', () => {
  it.each(['127.0.0.1', '127.5.6.7', '0x7f.1', '::1', '[::1]', '::ffff:127.0.0.1'])(
    '%s is this machine',
    (address) => expect(isLoopbackAddress(address)).toBe(true),
  );
  it.each([
    '10.0.0.5',
    '192.168.1.1',
    '169.254.169.254',
    'fd00::1',
    '::',
    '0.0.0.0',
    '::ffff:10.0.0.1',
    'localhost',
  ])('%s is not', (address) => expect(isLoopbackAddress(address)).toBe(false));
});
