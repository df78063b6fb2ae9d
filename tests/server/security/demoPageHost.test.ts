/**
 * Who the demo pages (/outbox, /preview and its sign-in, the tenant list) answer
 * (server/http/demoPageHost.ts), on requests as Node hands them over, including the one the
 * integration tests cannot make: a client on another machine that writes a loopback Host.
 */
import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { demoPageHostOnly } from '../../../server/http/demoPageHost';
import { HttpError } from '../../../server/http/errors';

/** A request to `host` from `peer` (null: a socket that no longer knows its peer). */
function request(
  host: string,
  peer: string | null = '127.0.0.1',
  headers: Record<string, string> = {},
  method = 'GET',
) {
  return {
    method,
    headers: { host, ...headers },
    socket: { remoteAddress: peer ?? undefined },
  } as unknown as Request;
}

/** What the guard does with a request: 'next', or the refusal's status and code. */
function outcome(guard: ReturnType<typeof demoPageHostOnly>, req: Request): string {
  try {
    let passed = false;
    guard(req, { locals: {} } as never, () => (passed = true));
    return passed ? 'next' : 'nothing';
  } catch (error) {
    if (error instanceof HttpError) return `${error.status} ${error.code}`;
    throw error;
  }
}

describe('the demo pages’ guard', () => {
  const guard = demoPageHostOnly('https://qa.portal.example');

  it('answers a browser on the machine itself at any loopback name', () => {
    for (const host of ['127.0.0.1:4400', 'localhost:4400', 'portal.localhost:4400', '[::1]:4400'])
      for (const peer of ['127.0.0.1', '::1', '::ffff:127.0.0.1'])
        expect(outcome(guard, request(host, peer)), `${host} from ${peer}`).toBe('next');
  });

  it('refuses a client on another machine that writes a loopback Host', () => {
    for (const peer of ['192.0.2.10', '::ffff:192.0.2.10', '2001:db8::1', null])
      expect(outcome(guard, request('localhost:4400', peer)), String(peer)).toBe('403 demo_page_local_only');
  });

  it('refuses a loopback Host that came through a proxy', () => {
    const proxied: Array<Record<string, string>> = [
      { 'x-forwarded-for': '203.0.113.7' },
      { 'x-forwarded-for': '127.0.0.1' },
      { forwarded: 'for=127.0.0.1' },
      { 'x-real-ip': '127.0.0.1' },
      { 'x-forwarded-host': 'localhost' },
    ];
    for (const headers of proxied)
      expect(outcome(guard, request('localhost:4400', '127.0.0.1', headers)), JSON.stringify(headers)).toBe(
        '403 demo_page_local_only',
      );
  });

  it('answers its public name from anywhere, as an operator opened it on a test server', () => {
    expect(outcome(guard, request('qa.portal.example', '192.0.2.10'))).toBe('next');
    expect(
      outcome(guard, request('qa.portal.example', '127.0.0.1', { 'x-forwarded-for': '203.0.113.7' })),
    ).toBe('next');
  });

  it('believes a PORTAL_PUBLIC_URL that is a loopback name only from the machine itself', () => {
    const local = demoPageHostOnly('http://localhost:3000');
    expect(outcome(local, request('localhost:3000', '203.0.113.5'))).toBe('403 demo_page_local_only');
    expect(outcome(local, request('localhost:3000', '127.0.0.1'))).toBe('next');
  });

  it('answers 421 to any other name, from wherever it comes', () => {
    for (const host of ['evil.example:4400', '127.0.0.1.evil.example', '192.0.2.1:4400'])
      expect(outcome(guard, request(host)), host).toBe('421 demo_page_host_unknown');
  });

  it('takes a change (the preview’s sign-in) only from its own pages or from a client that names no origin', () => {
    const post = (origin?: string) =>
      outcome(guard, request('localhost:4400', '127.0.0.1', origin === undefined ? {} : { origin }, 'POST'));
    expect(post()).toBe('next');
    expect(post('http://localhost:4400')).toBe('next');
    for (const origin of [
      'http://evil.example',
      'null',
      'http://localhost:4401',
      'http://127.0.0.1:4400',
      'not a url',
    ])
      expect(post(origin), origin).toBe('403 demo_page_cross_origin');
    // A read changes nothing: only the Host rule above judges it.
    expect(outcome(guard, request('localhost:4400', '127.0.0.1', { origin: 'http://evil.example' }))).toBe(
      'next',
    );
  });
});
