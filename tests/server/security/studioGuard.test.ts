/**
 * The studio's guard (server/studio/studioGuard.ts) on requests as Node hands them over, including
 * the one the integration tests cannot make: a client on another machine.
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  isLoopbackAddress,
  isLoopbackHostName,
  parseHostHeader,
  studioRefusal,
} from '../../../server/studio/studioGuard';

function request(
  options: { peer?: string; port?: number; method?: string; headers?: Record<string, string> } = {},
): IncomingMessage {
  return {
    method: options.method ?? 'GET',
    headers: { host: `127.0.0.1:${options.port ?? 4400}`, ...options.headers },
    socket: {
      remoteAddress: 'peer' in options ? options.peer : '127.0.0.1',
      localPort: options.port ?? 4400,
    },
  } as unknown as IncomingMessage;
}

describe('the studio guard', () => {
  it('lets a browser on the machine itself in, at any loopback name with the server port', () => {
    for (const host of [
      '127.0.0.1:4400',
      '127.1.2.3:4400',
      'localhost:4400',
      'LOCALHOST:4400',
      'studio.localhost:4400',
      '[::1]:4400',
    ])
      expect(studioRefusal(request({ headers: { host } })), host).toBeUndefined();
    expect(studioRefusal(request({ peer: '::1' }))).toBeUndefined();
    expect(studioRefusal(request({ peer: '::ffff:127.0.0.1' }))).toBeUndefined();
    expect(
      studioRefusal(
        request({ method: 'POST', headers: { origin: 'http://localhost:4400', host: 'localhost:4400' } }),
      ),
    ).toBeUndefined();
  });

  it('refuses a client on another machine, even with a loopback Host', () => {
    for (const peer of ['192.0.2.10', '::ffff:192.0.2.10', '2001:db8::1', '10.0.0.1', undefined])
      expect(studioRefusal(request({ peer: peer as string }))).toMatchObject({
        status: 403,
        code: 'studio_local_only',
      });
  });

  it('refuses a request that came through a proxy, whatever it says about the client', () => {
    const proxied: Array<Record<string, string>> = [
      { 'x-forwarded-for': '203.0.113.7' },
      { 'x-forwarded-for': '127.0.0.1' },
      { forwarded: 'for=127.0.0.1' },
      { 'x-real-ip': '127.0.0.1' },
      { 'x-forwarded-host': 'localhost:4400' },
    ];
    for (const headers of proxied)
      expect(studioRefusal(request({ headers })), JSON.stringify(headers)).toMatchObject({
        status: 403,
        code: 'studio_forwarded',
      });
  });

  it('answers 421 to a Host that is not a loopback name with the server port (DNS rebinding)', () => {
    for (const host of [
      'evil.example:4400',
      'localhost.evil.example:4400',
      '127.0.0.1.nip.io:4400',
      '0.0.0.0:4400',
      '192.168.1.5:4400',
      '[::2]:4400',
      'localhost:4401',
      'localhost',
      'localhost:99999',
      'local host:4400',
    ])
      expect(studioRefusal(request({ headers: { host } })), host).toMatchObject({
        status: 421,
        code: 'studio_host_not_local',
      });
  });

  it('refuses a change sent by a page of another origin', () => {
    for (const origin of ['http://evil.example', 'null', 'http://127.0.0.1:3000', 'https://127.0.0.1:4400'])
      expect(studioRefusal(request({ method: 'POST', headers: { origin } })), origin).toMatchObject({
        status: 403,
        code: 'studio_cross_origin',
      });
  });

  it('reads addresses and Host headers', () => {
    expect(isLoopbackAddress('127.255.255.254')).toBe(true);
    expect(isLoopbackAddress('128.0.0.1')).toBe(false);
    expect(isLoopbackAddress('127.0.0.256')).toBe(false);
    expect(isLoopbackHostName('a.b.localhost')).toBe(true);
    expect(isLoopbackHostName('localhost.')).toBe(true);
    expect(isLoopbackHostName('notlocalhost')).toBe(false);
    expect(parseHostHeader('[::1]:8080')).toEqual({ hostname: '[::1]', port: 8080 });
    expect(parseHostHeader('localhost')).toEqual({ hostname: 'localhost', port: 80 });
    expect(parseHostHeader('a:b:c')).toBeUndefined();
  });
});
