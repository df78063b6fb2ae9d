/**
 * Which Host the demo pages answer (docs/reference.md "API": the outbox viewer and the development pages).
 * /outbox lists every mail the server sent, sign-in links included, and /preview signs demo logins
 * in: a page of another site whose name an attacker made resolve to this machine (DNS rebinding)
 * must not read them. Its requests carry the attacker's name as Host, so these pages answer only a
 * loopback name (`localhost`, `*.localhost`, 127.0.0.0/8, `[::1]`) or the server's own public name
 * (PORTAL_PUBLIC_URL, for a test server reached through DNS under `portal serve --outbox-viewer`),
 * and 421 to any other. A tenant's own host never reaches them: its portal answers every path there.
 */
import type { RequestHandler } from 'express';
import { HttpError } from './errors';
import { isLoopbackHostName, parseHostHeader } from '../studio/studioGuard';

export function demoPageHostOnly(
  publicUrl: string | undefined = process.env.PORTAL_PUBLIC_URL,
): RequestHandler {
  let publicHost: string | undefined;
  try {
    publicHost = publicUrl ? new URL(publicUrl).hostname.toLowerCase() : undefined;
  } catch {
    publicHost = undefined;
  }
  return (req, _res, next) => {
    const host = parseHostHeader(req.headers.host ?? '');
    const name = host?.hostname.toLowerCase();
    if (name && (isLoopbackHostName(name) || name === publicHost)) return next();
    throw new HttpError(
      421,
      'demo_page_host_unknown',
      `The demo pages answer only at a loopback address or at PORTAL_PUBLIC_URL; this request was addressed to "${String(req.headers.host ?? '').slice(0, 100)}".`,
    );
  };
}
