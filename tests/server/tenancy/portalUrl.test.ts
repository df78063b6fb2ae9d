/**
 * The portal's own URL in e-mailed links (server/tenancy/portalUrl.ts): a tenant found by its host
 * keeps the request's port only when it is the port this server listens on.
 */
import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { hostWithOwnPort, portalUrl } from '../../../server/tenancy/portalUrl';

const request = (host: string, localPort: number) =>
  ({ headers: { host }, protocol: 'https', socket: { localPort } }) as unknown as Request;
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

  it('writes the name in lower case, as the tenant file has it', () => {
    expect(hostWithOwnPort('ABO.Acme.Example:443', 443)).toBe('abo.acme.example:443');
    expect(hostWithOwnPort('ABO.Acme.Example', 443)).toBe('abo.acme.example');
  });
});
