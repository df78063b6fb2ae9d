/**
 * Who may talk to the studio (docs/operators.md "Operators: the studio"): it writes tenant files and opens
 * demo users' sessions without a link, so it is a tool of the machine it runs on. A request passes
 * only when all of these hold:
 *
 *  - the connection comes from a loopback address (the socket's own peer, never `req.ip`: that is
 *    what TRUST_PROXY lets a header choose);
 *  - no proxy header is present (X-Forwarded-For, Forwarded, X-Real-IP, X-Forwarded-Host), whatever
 *    TRUST_PROXY says: a reverse proxy on the same host connects from loopback, so with such a
 *    header the request may come from anywhere the proxy listens;
 *  - the Host header names a loopback host with this server's own port: `localhost`, a name under
 *    `.localhost` (RFC 6761 §6.3: loopback, resolved by browsers without asking DNS, so no
 *    attacker's name can be one), an address in 127.0.0.0/8 or `[::1]`. A page of another site
 *    whose name was made to resolve to 127.0.0.1 (DNS rebinding) sends its own name here;
 *  - an unsafe request that names its origin (`Origin`, sent by browsers) comes from the studio's
 *    own origin, so a page of another site cannot post to it.
 *
 * A foreign Host answers 421 (the request reached a server it was not meant for), the rest 403,
 * each with a JSON error that says how to open the studio instead.
 */
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { HttpError } from '../http/errors';

/** Headers a proxy adds; any of them means the socket's peer is not the client. */
const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'x-forwarded-host'] as const;

/** The proxy headers a request carries (none: the socket's peer is the client). */
export function proxyHeadersOf(req: IncomingMessage): string[] {
  return PROXY_HEADERS.filter((name) => req.headers[name] !== undefined);
}

const IPV4_LOOPBACK = /^127(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** A loopback peer address as Node reports it: 127.0.0.0/8, ::1, or IPv4-mapped 127.x. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const bare = address.toLowerCase().replace(/^::ffff:/, '');
  return IPV4_LOOPBACK.test(bare) || bare === '::1' || bare === '0:0:0:0:0:0:0:1';
}

/** A host name that always means this machine: `localhost`, `*.localhost`, 127.0.0.0/8, `[::1]`. */
export function isLoopbackHostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return /^[a-z0-9.-]+$/.test(name);
  return IPV4_LOOPBACK.test(name) || name === '[::1]';
}

/** Splits a Host header into name and port (default 80); undefined when it is not one. */
export function parseHostHeader(host: string): { hostname: string; port: number } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(host.trim());
  if (!match) return undefined;
  const port = match[2] === undefined ? 80 : Number(match[2]);
  return port > 0 && port < 65536 ? { hostname: match[1], port } : undefined;
}

export type StudioRefusal =
  | { status: 403; code: 'studio_local_only' | 'studio_forwarded' | 'studio_cross_origin'; message: string }
  | { status: 421; code: 'studio_host_not_local'; message: string };

/** Why the studio refuses this request, or undefined when it may answer. */
export function studioRefusal(req: IncomingMessage): StudioRefusal | undefined {
  const port = req.socket.localPort;
  const open = `http://127.0.0.1:${port ?? '<port>'}/studio`;
  if (!isLoopbackAddress(req.socket.remoteAddress))
    return {
      status: 403,
      code: 'studio_local_only',
      message: `The studio answers only on the machine it runs on: open ${open} there (or through an SSH tunnel).`,
    };
  const forwarded = proxyHeadersOf(req);
  if (forwarded.length)
    return {
      status: 403,
      code: 'studio_forwarded',
      message: `The studio answers no request that came through a proxy (this one has ${forwarded.join(', ')}): open ${open} on the machine itself.`,
    };
  const hostHeader = req.headers.host ?? '';
  const host = parseHostHeader(hostHeader);
  if (!host || !isLoopbackHostName(host.hostname) || host.port !== port)
    return {
      status: 421,
      code: 'studio_host_not_local',
      message: `The studio answers only at a loopback address with its own port, such as ${open}; this request was addressed to "${hostHeader.slice(0, 100)}".`,
    };
  const origin = req.headers.origin;
  const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(req.method ?? 'GET');
  if (unsafe && origin !== undefined && origin.toLowerCase() !== `http://${hostHeader.toLowerCase()}`)
    return {
      status: 403,
      code: 'studio_cross_origin',
      message: `The studio accepts changes only from its own page (${open}), not from ${String(origin).slice(0, 100)}.`,
    };
  return undefined;
}

/** The guard in front of everything under /studio (server/app.ts) and inside the studio's router. */
export const studioLocalOnly: RequestHandler = (req, _res, next) => {
  const refusal = studioRefusal(req);
  next(refusal ? new HttpError(refusal.status, refusal.code, refusal.message) : undefined);
};
