import type { Request, Response } from 'express';
import { badRequest } from '../http/errors';
import { tenantContext } from './tenantContext';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/i;

/**
 * The portal's own URL for links in e-mails and OAuth redirects. Never taken blindly from the
 * Host header (anyone can send any Host to the `/t/<id>/` prefix and have a victim's login link
 * point at their server):
 *  - a tenant resolved by its host: that host was checked against the tenant file, but its port
 *    was not (the tenant is found by the name alone), so a port is kept only when the server is
 *    reached at it: the one it listens on (reached directly, as in development), or one the
 *    operator lists in PORTAL_PUBLIC_PORTS (a proxy on a port of its own). A header cannot say
 *    so: proxies pass on an `X-Forwarded-Port` the client sent. Any other port would take a
 *    sign-in token to whatever listens on a port the sender chose;
 *  - the shared prefix: PORTAL_PUBLIC_URL when set (e.g. https://portal.example.com), else only a
 *    loopback host (development, tests), its port kept by the same rule: a loopback name is no
 *    proof of the port, and a link to 127.0.0.1:<any> opens whatever listens there on the
 *    victim's machine; anything else is refused.
 */
export function portalUrl(req: Request, res: Response): string {
  const { basePath } = tenantContext(res);
  const host = req.headers.host ?? '';
  if (basePath === '/') return `${req.protocol}://${hostWithOwnPort(host, ownPorts(req))}/`;
  const configured = process.env.PORTAL_PUBLIC_URL?.replace(/\/$/, '');
  if (configured) return `${configured}${basePath}`;
  if (LOOPBACK.test(host)) return `${req.protocol}://${hostWithOwnPort(host, ownPorts(req))}${basePath}`;
  throw badRequest('unknown_host', 'This server does not know its public address. Set PORTAL_PUBLIC_URL.');
}

/**
 * The host's name, with its port only when the server is reached at that port; without DNS's root
 * dot (`abo.example.de.` finds the tenant as `abo.example.de` does, and the links name the latter,
 * which the OAuth and payment providers were given).
 */
export function hostWithOwnPort(host: string, ownPorts: readonly number[]): string {
  const [, dotted, port] = /^(.*?)(?::(\d+))?$/.exec(host.toLowerCase())!;
  const name = dotted.replace(/\.$/, '');
  return port !== undefined && ownPorts.includes(Number(port)) ? `${name}:${port}` : name;
}

/** The ports the server is reached at: its own, and those PORTAL_PUBLIC_PORTS lists. */
function ownPorts(req: Request): number[] {
  const listed = (process.env.PORTAL_PUBLIC_PORTS ?? '')
    .split(',')
    .map((entry) => Number(entry.trim()))
    .filter((port) => Number.isInteger(port) && port > 0 && port < 65_536);
  return req.socket.localPort !== undefined ? [req.socket.localPort, ...listed] : listed;
}
