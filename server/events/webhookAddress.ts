/**
 * Where a webhook may go (issue 8 review: no server-side request forgery through a tenant file).
 * An endpoint's host is resolved when the request is made and the connection goes to the address
 * that was checked: private, loopback, link-local and other non-public addresses are refused, so a
 * public-looking name re-pointed at an internal service gets nothing. Two exceptions: a receiver on
 * this machine named literally (`http://localhost`, `127.0.0.1`, `[::1]`: the validator allows
 * those for demos and tests), and PORTAL_WEBHOOK_ALLOW_PRIVATE=true for an operator whose CRM sits
 * in a private network.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return isPublicAddress(mapped);
  const family = isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const LOCAL_RECEIVER_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** A `lookup` for http(s).request that refuses non-public addresses unless the endpoint may use them. */
export function webhookLookup(url: URL, env: NodeJS.ProcessEnv = process.env): LookupFunction {
  const anyAddress =
    env.PORTAL_WEBHOOK_ALLOW_PRIVATE === 'true' ||
    (url.protocol === 'http:' && LOCAL_RECEIVER_HOSTS.has(url.hostname));
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    dnsLookup(hostname, { family, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, options.all ? [] : '', 0);
      const allowed = anyAddress
        ? addresses
        : addresses.filter((candidate) => isPublicAddress(candidate.address));
      if (allowed.length === 0) {
        const refused = Object.assign(
          new Error(
            `${hostname} resolves to no public address (${addresses.map((a) => a.address).join(', ')}); set PORTAL_WEBHOOK_ALLOW_PRIVATE=true for a receiver in a private network`,
          ),
          { code: 'EWEBHOOKADDRESS' },
        );
        return callback(refused, options.all ? [] : '', 0);
      }
      if (options.all) return callback(null, allowed);
      return callback(null, allowed[0].address, allowed[0].family);
    });
  };
}

/** The endpoint for logs and listings: its query string may carry a token, so it is left out. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`;
  } catch {
    return url.replace(/\?.*$/, '?…');
  }
}
