/**
 * The outbound guard (docs/going-live.md "Account events and webhooks", "Outbound requests"), attacked the
 * way the penetration test did: a receiver listens on every local address of this machine, and
 * requests name it in every notation. None reaches it, not even with a TCP connection, and the
 * error says why. A name that resolves to a private address is refused the same way, a redirect
 * is never followed, and the time-out covers resolving and connecting too.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NonPublicAddressError,
  publicRequest,
  type PublicRequestOptions,
} from '../../../server/http/publicRequest';

interface Outcome {
  status?: number;
  location?: string;
  code?: string;
  message?: string;
  permanent?: boolean;
}

let server: Server;
let port: number;
let connections = 0;
const requests: string[] = [];

function send(url: string, options: Partial<PublicRequestOptions> = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    const request = publicRequest(
      new URL(url),
      { method: 'POST', timeoutMs: 2_000, ...options },
      (response) => {
        response.resume();
        resolve({ status: response.statusCode, location: response.headers.location });
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      resolve({
        code: error.code,
        message: error.message,
        permanent: error instanceof NonPublicAddressError ? error.permanent : undefined,
      }),
    );
    request.end('{"id":"evt"}');
  });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    req.resume();
    req.on('end', () => {
      if (req.url === '/redirect')
        res.writeHead(302, { location: `http://127.0.0.2:${port}/internal` }).end();
      else if (req.url === '/slow') setTimeout(() => res.writeHead(204).end(), 1_000);
      else res.writeHead(204).end();
    });
  });
  server.on('connection', () => connections++);
  // Every local address at once: '::' takes IPv4 too (127.0.0.2, 0.0.0.0, ::ffff:…) where IPv6 exists.
  await new Promise<void>((resolve) =>
    server
      .once('error', () => server.listen(0, '0.0.0.0', resolve))
      .listen({ port: 0, host: '::', ipv6Only: false }, resolve),
  );
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
});

describe('requests to a URL a tenant file or an operator names', () => {
  it('never reach this machine through an IP literal, in any notation, over https or http', async () => {
    const literals: Record<string, string> = {
      '127.0.0.2': '127.0.0.2 is a loopback address (127.0.0.0/8)',
      '127.0.0.1': '127.0.0.1 is a loopback address (127.0.0.0/8)',
      '0.0.0.0': '0.0.0.0 is an unspecified ("this network") address (0.0.0.0/8)',
      '127.1': '127.0.0.1 is a loopback address (127.0.0.0/8)',
      '0x7f.1': '127.0.0.1 is a loopback address (127.0.0.0/8)',
      '2130706433': '127.0.0.1 is a loopback address (127.0.0.0/8)',
      '0177.0.0.1': '127.0.0.1 is a loopback address (127.0.0.0/8)',
      '[::1]': '::1 is the loopback address (::1/128)',
      '[::]': ':: is the unspecified address (::/128)',
      '[::ffff:127.0.0.1]':
        '::ffff:7f00:1 is an IPv4-mapped address (::ffff:0:0/96) of 127.0.0.1, a loopback address (127.0.0.0/8)',
      '[::ffff:7f00:1]':
        '::ffff:7f00:1 is an IPv4-mapped address (::ffff:0:0/96) of 127.0.0.1, a loopback address (127.0.0.0/8)',
      '[::127.0.0.1]': '::7f00:1 is an IPv4-compatible address of 127.0.0.1 (::/96, deprecated)',
      '[64:ff9b::127.0.0.1]':
        '64:ff9b::7f00:1 is a NAT64 address (64:ff9b::/96) of 127.0.0.1, a loopback address (127.0.0.0/8)',
      '[2002:7f00:1::1]':
        '2002:7f00:1::1 is a 6to4 address (2002::/16) of 127.0.0.1, a loopback address (127.0.0.0/8)',
      '[fd00::2]': 'fd00::2 is a unique local (private) address (fc00::/7)',
      '[fe80::1]': 'fe80::1 is a link-local address (fe80::/10)',
      '169.254.169.254':
        '169.254.169.254 is a link-local address, where cloud metadata services answer (169.254.0.0/16)',
      '10.0.0.1': '10.0.0.1 is a private address (10.0.0.0/8)',
      localhost: 'localhost is a name of this machine (localhost)',
      'crm.localhost': 'crm.localhost is a name of this machine (localhost)',
    };
    for (const [host, why] of Object.entries(literals)) {
      for (const scheme of ['https', 'http']) {
        const url = `${scheme}://${host}:${port}/hook`;
        expect(await send(url), url).toEqual({
          code: 'ENONPUBLICADDRESS',
          message: `${why}: requests go to public addresses only`,
          permanent: true,
        });
      }
    }
    expect(connections).toBe(0);
    expect(requests).toEqual([]);
  });

  it('refuses a name that resolves to private addresses only, and says what it resolved to', async () => {
    const rebound = await send(`https://crm.rebound.example:${port}/hook`, {
      resolve: async () => [
        { address: '127.0.0.1', family: 4 },
        { address: '::ffff:169.254.169.254', family: 6 },
      ],
    });
    expect(rebound).toEqual({
      code: 'ENONPUBLICADDRESS',
      message:
        'crm.rebound.example resolves to no public address (127.0.0.1 is a loopback address (127.0.0.0/8); ::ffff:169.254.169.254 is an IPv4-mapped address (::ffff:0:0/96) of 169.254.169.254, a link-local address, where cloud metadata services answer (169.254.0.0/16)): requests go to public addresses only',
      // DNS can be re-pointed: the caller may ask again later.
      permanent: false,
    });
    expect(connections).toBe(0);
  });

  it('does not follow a redirect: the 3xx is the answer, and its target gets nothing', async () => {
    const outcome = await send(`http://127.0.0.1:${port}/redirect`, { allowPrivate: true });
    expect(outcome).toEqual({ status: 302, location: `http://127.0.0.2:${port}/internal` });
    expect(requests).toEqual(['/redirect']);
  });

  it('times out while resolving or connecting as well as while waiting for the answer', async () => {
    const started = Date.now();
    expect(
      await send('https://crm.slow-dns.example/hook', {
        timeoutMs: 150,
        resolve: () => new Promise(() => {}),
      }),
    ).toEqual({ code: 'EOUTBOUNDTIMEOUT', message: 'no answer within 150 ms' });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await send(`http://127.0.0.1:${port}/slow`, { timeoutMs: 150, allowPrivate: true })).toEqual({
      code: 'EOUTBOUNDTIMEOUT',
      message: 'no answer within 150 ms',
    });
  });

  it('reaches a receiver on this machine only when the calling code says so (tests)', async () => {
    requests.length = 0;
    expect(await send(`http://127.0.0.2:${port}/allowed`, { allowPrivate: true })).toEqual({
      status: 204,
      location: undefined,
    });
    expect(
      await send(`http://crm.test.example:${port}/allowed-by-name`, {
        allowPrivate: true,
        resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      }),
    ).toEqual({ status: 204, location: undefined });
    // A name with an IPv6 and an IPv4 address: tried side by side, as Node does with its own lookup.
    expect(
      await send(`http://crm.dual.example:${port}/dual-stack`, {
        allowPrivate: true,
        resolve: async () => [
          { address: '::1', family: 6 },
          { address: '127.0.0.1', family: 4 },
        ],
      }),
    ).toEqual({ status: 204, location: undefined });
    expect(requests).toEqual(['/allowed', '/allowed-by-name', '/dual-stack']);
  });

  it("reaches only this machine, not the private network around it, in 'loopback' mode (a development server's sign-on provider)", async () => {
    requests.length = 0;
    const loopback = { allowPrivate: 'loopback' } as const;
    expect(await send(`http://127.0.0.2:${port}/loopback-literal`, loopback)).toMatchObject({ status: 204 });
    expect(await send(`http://localhost:${port}/loopback-name`, loopback)).toMatchObject({ status: 204 });
    expect(
      await send(`http://idp.dev.example:${port}/loopback-resolved`, {
        ...loopback,
        resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      }),
    ).toMatchObject({ status: 204 });
    // The private network, the cloud's metadata address and names resolving to them stay refused.
    for (const literal of ['10.0.0.5', '192.168.1.10', '169.254.169.254', '[fd00::1]'])
      expect(await send(`http://${literal}:${port}/private`, loopback), literal).toMatchObject({
        code: 'ENONPUBLICADDRESS',
        permanent: true,
      });
    expect(
      await send(`http://idp.lan.example:${port}/private-resolved`, {
        ...loopback,
        resolve: async () => [{ address: '10.1.2.3', family: 4 }],
      }),
    ).toMatchObject({ code: 'ENONPUBLICADDRESS', message: expect.stringContaining('10.1.2.3') });
    expect(requests).toEqual(['/loopback-literal', '/loopback-name', '/loopback-resolved']);
  });
});
