import type { Request, Response } from 'express';
import { badRequest } from '../http/errors';
import { tenantContext } from './tenantContext';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/i;

/**
 * The portal's own URL for links in e-mails and OAuth redirects. Never taken blindly from the
 * Host header (anyone can send any Host to the `/t/<id>/` prefix and have a victim's login link
 * point at their server):
 *  - a tenant resolved by its host: that host was checked against the tenant file, but its port
 *    was not (the tenant is found by the name alone), so a port is kept only when it is the one
 *    this server listens on (a development server reached directly); otherwise the link would
 *    take a sign-in token to whatever listens on a port the sender chose;
 *  - the shared prefix: PORTAL_PUBLIC_URL when set (e.g. https://portal.example.com), else only a
 *    loopback host (development, tests); anything else is refused.
 */
export function portalUrl(req: Request, res: Response): string {
  const { basePath } = tenantContext(res);
  const host = req.headers.host ?? '';
  if (basePath === '/') return `${req.protocol}://${hostWithOwnPort(host, req.socket.localPort)}/`;
  const configured = process.env.PORTAL_PUBLIC_URL?.replace(/\/$/, '');
  if (configured) return `${configured}${basePath}`;
  if (LOOPBACK.test(host)) return `${req.protocol}://${host}${basePath}`;
  throw badRequest('unknown_host', 'This server does not know its public address. Set PORTAL_PUBLIC_URL.');
}

/** The host's name, with its port only when that is the port this server listens on. */
export function hostWithOwnPort(host: string, ownPort: number | undefined): string {
  const [, name, port] = /^(.*?)(?::(\d+))?$/.exec(host.toLowerCase())!;
  return port !== undefined && Number(port) === ownPort ? `${name}:${port}` : name;
}
