/**
 * Which addresses the server may send a request to when a tenant file or an operator names the URL
 * (docs/going-live.md "Account events and webhooks", "Outbound requests"): public ones only. Otherwise a
 * tenant file, or whoever edits one, could make the server POST to itself, to a database or admin page on
 * its network, or to the cloud's metadata service (169.254.169.254), and the signed answer's status
 * would even tell them whether something listens there (server-side request forgery).
 *
 * The tenant validator refuses such a host in the file (`portal validate`), and the server's guard
 * (server/http/publicRequest.ts) checks the literal of the URL, every address a name resolves to,
 * and the address the socket is connected to, with these same rules. No node:net here: the
 * validator runs in the studio too, and an address is read byte by byte, so every notation of the
 * same address (127.1, 0x7f.1, 2130706433, 0177.0.0.1, ::ffff:7f00:1, …) is judged alike.
 */

type Bytes = readonly number[];

interface Range {
  network: Bytes;
  prefix: number;
  what: string;
}

function v4(text: string, prefix: number, what: string): Range {
  return { network: text.split('.').map(Number), prefix, what: `${what} (${text}/${prefix})` };
}

function v6(text: string, prefix: number, what: string): Range {
  return { network: parseIPv6(text)!, prefix, what: `${what} (${text}/${prefix})` };
}

/** IPv4 addresses that are not on the public internet (IANA special-purpose registry, RFC 6890). */
const IPV4_NOT_PUBLIC: readonly Range[] = [
  v4('0.0.0.0', 8, 'an unspecified ("this network") address'),
  v4('10.0.0.0', 8, 'a private address'),
  v4('100.64.0.0', 10, 'a carrier-grade NAT address'),
  v4('127.0.0.0', 8, 'a loopback address'),
  v4('169.254.0.0', 16, 'a link-local address, where cloud metadata services answer'),
  v4('172.16.0.0', 12, 'a private address'),
  v4('192.0.0.0', 24, 'an IETF protocol assignment'),
  v4('192.0.2.0', 24, 'a documentation address'),
  v4('192.88.99.0', 24, 'a 6to4 relay address'),
  v4('192.168.0.0', 16, 'a private address'),
  v4('198.18.0.0', 15, 'a benchmarking address'),
  v4('198.51.100.0', 24, 'a documentation address'),
  v4('203.0.113.0', 24, 'a documentation address'),
  v4('224.0.0.0', 4, 'a multicast address'),
  v4('255.255.255.255', 32, 'the broadcast address'),
  v4('240.0.0.0', 4, 'a reserved address'),
];

/**
 * IPv6 addresses that are not public, besides those that embed an IPv4 address (judged by it
 * below) and everything outside 2000::/3, the global unicast space.
 */
const IPV6_NOT_PUBLIC: readonly Range[] = [
  v6('2001::', 23, 'an IETF protocol assignment such as Teredo or benchmarking'),
  v6('2001:db8::', 32, 'a documentation address'),
  v6('3fff::', 20, 'a documentation address'),
];

/** Outside 2000::/3: the names of the blocks an operator is likely to meet. */
const IPV6_OUTSIDE_GLOBAL: readonly Range[] = [
  v6('::', 128, 'the unspecified address'),
  v6('::1', 128, 'the loopback address'),
  v6('64:ff9b:1::', 48, 'a local-use NAT64 address'),
  v6('100::', 64, 'a discard-only address'),
  v6('fc00::', 7, 'a unique local (private) address'),
  v6('fe80::', 10, 'a link-local address'),
  v6('fec0::', 10, 'a site-local address'),
  v6('ff00::', 8, 'a multicast address'),
];

/** IPv6 blocks that carry an IPv4 address, and where: judged by that address. */
const IPV6_EMBEDDING_IPV4: ReadonlyArray<Range & { at: number }> = [
  { ...v6('::ffff:0:0', 96, 'an IPv4-mapped address'), at: 12 },
  { ...v6('64:ff9b::', 96, 'a NAT64 address'), at: 12 },
  { ...v6('2002::', 16, 'a 6to4 address'), at: 2 },
];

function inRange(bytes: Bytes, range: Range): boolean {
  if (bytes.length !== range.network.length) return false;
  for (let bit = 0; bit < range.prefix; bit += 8) {
    const mask = (0xff << (8 - Math.min(8, range.prefix - bit))) & 0xff;
    if ((bytes[bit / 8] & mask) !== (range.network[bit / 8] & mask)) return false;
  }
  return true;
}

/**
 * One part of an IPv4 address the way browsers and inet_aton read it (WHATWG URL "IPv4 number"):
 * decimal, octal with a leading 0, hexadecimal with 0x.
 */
function ipv4Number(part: string): number | undefined {
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (/^0[0-7]*$/.test(part)) return parseInt(part, 8);
  if (/^[1-9][0-9]*$/.test(part)) return Number(part);
  return undefined;
}

/**
 * An IPv4 address in any notation a URL parser or a resolver accepts: 127.0.0.1, 127.1, 0x7f.1,
 * 2130706433, 0177.0.0.1 (1 to 4 parts, the last one filling the remaining bytes). Undefined for
 * anything else, a host name included.
 */
export function parseIPv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length === 0 || parts.length > 4) return undefined;
  const numbers = parts.map(ipv4Number);
  if (numbers.some((n) => n === undefined || !Number.isSafeInteger(n))) return undefined;
  const last = numbers.pop()!;
  if (numbers.some((n) => n! > 255) || last >= 256 ** (4 - numbers.length)) return undefined;
  const bytes = numbers as number[];
  for (let shift = 3 - bytes.length; shift >= 0; shift--) bytes.push(Math.floor(last / 256 ** shift) % 256);
  return bytes;
}

/** An IPv6 address (brackets and a zone such as %eth0 allowed, an IPv4 tail too) as 16 bytes. */
export function parseIPv6(text: string): number[] | undefined {
  let rest = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  rest = rest.replace(/%[^%]*$/, '');
  if (!rest.includes(':')) return undefined;
  const halves = rest.split('::');
  if (halves.length > 2) return undefined;
  const groups = (half: string): number[] | undefined => {
    if (half === '') return [];
    const out: number[] = [];
    const pieces = half.split(':');
    for (const [index, piece] of pieces.entries()) {
      if (index === pieces.length - 1 && piece.includes('.')) {
        if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(piece)) return undefined;
        const tail = piece.split('.').map(Number);
        if (tail.some((n) => n > 255)) return undefined;
        out.push(tail[0] * 256 + tail[1], tail[2] * 256 + tail[3]);
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) out.push(parseInt(piece, 16));
      else return undefined;
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  return [...head, ...new Array<number>(missing).fill(0), ...tail].flatMap((g) => [g >> 8, g & 0xff]);
}

/**
 * Why an IP address is not a public one, as words that follow its text ("a loopback address
 * (127.0.0.0/8)"), or undefined when it is public. Anything that is not an IP address at all is
 * refused too: a request only ever goes to an address this has judged.
 */
export function nonPublicAddress(address: string): string | undefined {
  const four = parseIPv4(address);
  if (four) return IPV4_NOT_PUBLIC.find((range) => inRange(four, range))?.what;
  const six = parseIPv6(address);
  if (!six) return 'not an IP address';
  for (const range of IPV6_EMBEDDING_IPV4) {
    if (!inRange(six, range)) continue;
    const embedded = six.slice(range.at, range.at + 4).join('.');
    const why = nonPublicAddress(embedded);
    return why && `${range.what} of ${embedded}, ${why}`;
  }
  // ::/96 (IPv4-compatible, deprecated by RFC 4291) holds :: and ::1 as well: never public.
  if (six.slice(0, 12).every((byte) => byte === 0)) {
    const named = IPV6_OUTSIDE_GLOBAL.find((range) => inRange(six, range));
    return named?.what ?? `an IPv4-compatible address of ${six.slice(12).join('.')} (::/96, deprecated)`;
  }
  if ((six[0] & 0xe0) !== 0x20)
    return (
      IPV6_OUTSIDE_GLOBAL.find((range) => inRange(six, range))?.what ??
      'not a global unicast address (outside 2000::/3)'
    );
  return IPV6_NOT_PUBLIC.find((range) => inRange(six, range))?.what;
}

/**
 * True for an address of this machine itself: 127.0.0.0/8, ::1, or 127.x inside an IPv4-mapped
 * IPv6 address. Not the private networks around it (10/8, 192.168/16, fc00::/7, 169.254/16).
 */
export function isLoopbackAddress(address: string): boolean {
  const four = parseIPv4(address);
  if (four) return four[0] === 127;
  const six = parseIPv6(address);
  if (!six) return false;
  const zeros = (n: number) => six.slice(0, n).every((byte) => byte === 0);
  if (zeros(15) && six[15] === 1) return true;
  return zeros(10) && six[10] === 0xff && six[11] === 0xff && six[12] === 127;
}

/** The host of a URL without the brackets around an IPv6 address. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** True for an IP address in any notation (a host that needs no resolving). */
export function isIpLiteral(hostname: string): boolean {
  return parseIPv4(bareHost(hostname)) !== undefined || parseIPv6(bareHost(hostname)) !== undefined;
}

/**
 * Why a URL's host is not public by itself, as a sentence ("127.0.0.2 is a loopback address
 * (127.0.0.0/8)"): an IP address in any notation that is not public, or `localhost` and its
 * subdomains, which always name this machine (RFC 6761). Undefined for a public address and for
 * any other name: what a name resolves to is judged when it is resolved, at every request.
 */
export function nonPublicHost(hostname: string): string | undefined {
  const host = bareHost(hostname).toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost'))
    return `${host} is a name of this machine (localhost)`;
  if (!isIpLiteral(host)) return undefined;
  const why = nonPublicAddress(host);
  return why && `${host} is ${why}`;
}
