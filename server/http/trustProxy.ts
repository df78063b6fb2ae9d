/**
 * Which proxies may tell the client's address. The per-client sign-in limits
 * key on `req.ip`; when X-Forwarded-For is believed from a peer that is not a proxy of the operator
 * (it was believed from any loopback client), every client picks its own address and the limits
 * count nothing. So nothing is trusted unless the operator says so in `TRUST_PROXY`, with the
 * values of Express's "trust proxy" setting:
 *   unset, "", "false"   trust no proxy: req.ip is the peer's address (the default, also on loopback)
 *   "1", "2", …          trust that many hops in front of the server (e.g. one load balancer)
 *   "loopback", "10.0.0.0/8", "uniquelocal, 192.0.2.7"   trust peers with these addresses or subnets
 *   "true"               trust every hop (only behind a proxy that overwrites X-Forwarded-For)
 */
import { isIP } from 'node:net';
import type { RequestHandler } from 'express';

export type TrustProxySetting = false | true | number | string[];

/** Reads TRUST_PROXY; throws, naming the variable and the accepted forms, when it cannot be used. */
export function parseTrustProxy(raw: string | undefined): TrustProxySetting {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const wrong = entries.filter((entry) => !isTrustEntry(entry));
  if (wrong.length) {
    throw new Error(
      `TRUST_PROXY="${value}": ${wrong.map((entry) => `"${entry}"`).join(', ')} is not an address, subnet or name. ` +
        'Use a hop count (1), addresses or subnets (10.0.0.0/8, loopback, linklocal, uniquelocal), true, or leave it unset to trust no proxy.',
    );
  }
  return entries;
}

/** The entries Express's trust-proxy setting (proxy-addr) understands: names, addresses, subnets. */
function isTrustEntry(entry: string): boolean {
  if (entry === 'loopback' || entry === 'linklocal' || entry === 'uniquelocal') return true;
  const [address, range, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length) return false;
  if (range === undefined) return true;
  if (/^\d+$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(range) === 4; // netmask form, 10.0.0.0/255.0.0.0
}

export function trustProxyFromEnv(env: NodeJS.ProcessEnv = process.env): TrustProxySetting {
  return parseTrustProxy(env.TRUST_PROXY);
}

/**
 * A trusted proxy passes on what the client put in X-Forwarded-For to the left of its own entry;
 * when the address Express picks from it is not an IP address (a 6,000-character header, `unknown`),
 * the peer's own address stands in, so per-client rate-limit keys stay short and meaningful.
 */
export const boundClientAddress: RequestHandler = (req, _res, next) => {
  const ip = req.ip;
  if (ip !== undefined && isIP(ip) === 0) {
    const peer = req.socket.remoteAddress ?? 'unknown';
    Object.defineProperty(req, 'ip', { value: peer, configurable: true, enumerable: true });
    Object.defineProperty(req, 'ips', { value: [], configurable: true, enumerable: true });
  }
  next();
};
