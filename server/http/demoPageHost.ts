/**
 * Which Host the demo pages answer (docs/reference.md "API": the outbox viewer and the development pages).
 * /outbox lists every mail the server sent, sign-in links included, and /preview signs demo logins
 * in: a page of another site whose name an attacker made resolve to this machine (DNS rebinding)
 * must not read them. Its requests carry the attacker's name as Host, so these pages answer only a
 * loopback name (`localhost`, `*.localhost`, 127.0.0.0/8, `[::1]`) or the server's own public name
 * (PORTAL_PUBLIC_URL, for a test server reached through DNS under `portal serve --outbox-viewer`,
 * where the outbox shows a tenant's mails only to one of its operator keys), and 421 to any other.
 * A tenant's own host never reaches them: its portal answers every path there (a tenant's name
 * under `.localhost` on a development server is a loopback name like any other).
 *
 * A Host header is whatever a client writes, so a loopback name is believed only from the machine
 * itself, as the studio believes it (server/studio/studioGuard.ts): the connection's own peer is a
 * loopback address and no proxy header says it stands in for another client (a proxy on the same
 * machine that sends none, nginx's default, is the client then: run none before a development
 * server). Else a client on
 * another machine of a development server bound to a public interface (`--host`) would write
 * `Host: localhost` and read every sign-in link in the outbox. The public name is the one operators
 * open these pages under from elsewhere on purpose (`portal serve --outbox-viewer` on a test server).
 *
 * A change (the preview's sign-in, which hands out a login link) is taken only from the pages'
 * own origin or from a client that names none (the `shots` command), as the studio takes its
 * changes: a page of another site may not ask for one through the visitor's browser.
 */
import type { RequestHandler } from 'express';
import { HttpError } from './errors';
import {
  isLoopbackAddress,
  isLoopbackHostName,
  parseHostHeader,
  proxyHeadersOf,
} from '../studio/studioGuard';

/**
 * How a request passed demoPageHostOnly, in `res.locals.demoPageReachedAs`: from this machine, or
 * from anywhere at PORTAL_PUBLIC_URL, where the outbox asks for an operator key
 * (server/mail/outboxPage.ts).
 */
export type DemoPageReach = 'loopback' | 'public';

export function demoPageHostOnly(
  publicUrl: string | undefined = process.env.PORTAL_PUBLIC_URL,
): RequestHandler {
  let publicHost: string | undefined;
  try {
    publicHost = publicUrl ? new URL(publicUrl).hostname.toLowerCase() : undefined;
  } catch {
    publicHost = undefined;
  }
  return (req, res, next) => {
    refuseCrossOriginChange(req);
    const host = parseHostHeader(req.headers.host ?? '');
    const name = host?.hostname.toLowerCase();
    // A loopback name first: PORTAL_PUBLIC_URL may be one (http://localhost:3000), and must not
    // let a client elsewhere in by writing it.
    if (name && isLoopbackHostName(name)) {
      if (isLoopbackAddress(req.socket.remoteAddress) && proxyHeadersOf(req).length === 0) {
        res.locals.demoPageReachedAs = 'loopback' satisfies DemoPageReach;
        return next();
      }
      throw new HttpError(
        403,
        'demo_page_local_only',
        'The demo pages answer a loopback address only on the machine they run on, never through a proxy: open them there (or through an SSH tunnel), or under PORTAL_PUBLIC_URL.',
      );
    }
    if (name && name === publicHost) {
      res.locals.demoPageReachedAs = 'public' satisfies DemoPageReach;
      return next();
    }
    throw new HttpError(
      421,
      'demo_page_host_unknown',
      `The demo pages answer only at a loopback address or at PORTAL_PUBLIC_URL; this request was addressed to "${String(req.headers.host ?? '').slice(0, 100)}".`,
    );
  };
}

function refuseCrossOriginChange(req: Parameters<RequestHandler>[0]): void {
  const origin = req.headers.origin;
  if (origin === undefined || ['GET', 'HEAD', 'OPTIONS'].includes(req.method ?? 'GET')) return;
  let originHost: string | undefined;
  try {
    originHost = new URL(origin).host.toLowerCase();
  } catch {
    originHost = undefined; // `null` (a sandboxed frame, a file) or not a URL: no origin of ours
  }
  if (originHost !== undefined && originHost === String(req.headers.host ?? '').toLowerCase()) return;
  throw new HttpError(
    403,
    'demo_page_cross_origin',
    `The demo pages accept changes only from their own pages, not from ${String(origin).slice(0, 100)}.`,
  );
}
