/**
 * The portal's own URL in e-mailed links (server/tenancy/portalUrl.ts): a tenant found by its host
 * keeps the request's port only when the server is reached at it: directly, or at a port the
 * operator lists (PORTAL_PUBLIC_PORTS).
 */
import express, { type Request, type Response } from 'express';
import { describe, expect, it, vi } from 'vitest';
import { hostWithOwnPort, portalUrl } from '../../../server/tenancy/portalUrl';

/** An app with Express's compiled TRUST_PROXY setting, as server/app.ts sets it. */
function appTrusting(trustProxy: string | false) {
  const app = express();
  app.set('trust proxy', trustProxy);
  return app;
}

const request = (
  host: string,
  localPort: number,
  extra: { app?: express.Express; remoteAddress?: string; forwardedPort?: string } = {},
) =>
  ({
    headers: { host, ...(extra.forwardedPort ? { 'x-forwarded-port': extra.forwardedPort } : {}) },
    protocol: 'https',
    socket: { localPort, remoteAddress: extra.remoteAddress ?? '203.0.113.9' },
    app: extra.app ?? appTrusting(false),
  }) as unknown as Request;
const hostResolved = {
  locals: { tenantContext: { basePath: '/', tenant: { id: 'acme' } } },
} as unknown as Response;

describe('the link of a tenant found by its host', () => {
  it("drops a port the sender chose, which would take the link's token elsewhere", () => {
    expect(portalUrl(request('abo.acme.example:31337', 3000), hostResolved)).toBe(
      'https://abo.acme.example/',
    );
    expect(portalUrl(request('abo.acme.example', 3000), hostResolved)).toBe('https://abo.acme.example/');
  });

  it('keeps the port of this server, reached directly (development)', () => {
    expect(portalUrl(request('abo.acme.localhost:4395', 4395), hostResolved)).toBe(
      'https://abo.acme.localhost:4395/',
    );
  });

  it('keeps a port the operator lists for a proxy of its own, never one a header names', () => {
    vi.stubEnv('PORTAL_PUBLIC_PORTS', '8443, 9443');
    try {
      expect(portalUrl(request('abo.acme.example:8443', 3000), hostResolved)).toBe(
        'https://abo.acme.example:8443/',
      );
      expect(portalUrl(request('abo.acme.example:31337', 3000), hostResolved)).toBe(
        'https://abo.acme.example/',
      );
      // Proxies pass on an X-Forwarded-Port the client sent: it names no port.
      const proxied = { app: appTrusting('loopback'), remoteAddress: '127.0.0.1', forwardedPort: '31337' };
      expect(portalUrl(request('abo.acme.example:31337', 3000, proxied), hostResolved)).toBe(
        'https://abo.acme.example/',
      );
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('writes the name in lower case, as the tenant file has it', () => {
    expect(hostWithOwnPort('ABO.Acme.Example:443', [443])).toBe('abo.acme.example:443');
    expect(hostWithOwnPort('ABO.Acme.Example', [443])).toBe('abo.acme.example');
    // DNS's root dot, which finds the tenant too, is no part of the links.
    expect(hostWithOwnPort('abo.acme.example.', [443])).toBe('abo.acme.example');
    expect(hostWithOwnPort('abo.acme.example.:443', [443])).toBe('abo.acme.example:443');
  });
});

describe('the link of a tenant under the shared prefix, without PORTAL_PUBLIC_URL', () => {
  const prefixed = {
    locals: { tenantContext: { basePath: '/t/acme/', tenant: { id: 'acme' } } },
  } as unknown as Response;

  it('keeps a loopback host at the port this server is reached at', () => {
    expect(portalUrl(request('127.0.0.1:4395', 4395), prefixed)).toBe('https://127.0.0.1:4395/t/acme/');
    expect(portalUrl(request('[::1]:4395', 4395), prefixed)).toBe('https://[::1]:4395/t/acme/');
  });

  it("drops a port the sender chose: a link to 127.0.0.1:<any> opens whatever listens there on the victim's machine", () => {
    expect(portalUrl(request('127.0.0.1:9999', 4395), prefixed)).toBe('https://127.0.0.1/t/acme/');
    expect(portalUrl(request('localhost:9999', 4395), prefixed)).toBe('https://localhost/t/acme/');
  });

  it('refuses any other host', () => {
    expect(() => portalUrl(request('evil.example:4395', 4395), prefixed)).toThrow(/PORTAL_PUBLIC_URL/);
  });
});
