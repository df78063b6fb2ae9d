import type { Request, RequestHandler, Response } from 'express';
import type { DemoPageReach } from '../http/demoPageHost';
import { HttpError } from '../http/errors';
import { PLAIN_PAGE_POLICY } from '../http/securityHeaders';
import {
  checkOperatorKey,
  logUseWhenAnswered,
  OPERATOR_AUTH_FAILURE_LIMIT,
  type OperatorAuthDeps,
} from '../operator/keys/operatorAuth';
import { readOutbox } from './mailer';

const BASIC = /^Basic[ ]+([A-Za-z0-9+/=]{1,1400})[ ]*$/i;

function signInAsked(res: Response): HttpError {
  res.setHeader('WWW-Authenticate', 'Basic realm="outbox", charset="UTF-8"');
  return new HttpError(
    401,
    'outbox_key_required',
    "At this address the outbox shows a tenant's e-mails to one of its operator keys: sign in with the tenant id as user name and a key with the read scope as password (portal keys create <tenant> --scope read), or open it on the server's machine.",
  );
}

/** The tenant whose operator key the request's Basic credentials carry, with the `read` scope. */
async function tenantOfOperator(deps: OperatorAuthDeps, req: Request, res: Response): Promise<string> {
  // No credentials yet (a browser's first visit) is the question, not a wrong key: not counted.
  if (req.get('authorization') === undefined) throw signInAsked(res);
  const encoded = BASIC.exec(req.get('authorization') ?? '')?.[1];
  const decoded = encoded ? Buffer.from(encoded, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const tenantId = colon > 0 ? decoded.slice(0, colon) : '';
  const secret = colon > 0 ? decoded.slice(colon + 1) : undefined;
  const key = await checkOperatorKey(
    deps,
    req.ip,
    tenantId,
    secret || undefined,
    OPERATOR_AUTH_FAILURE_LIMIT,
    () => signInAsked(res),
  );
  // In the key's audit trail like any call with it, the refused one included.
  logUseWhenAnswered(deps, req.method, req.path, req.ip ?? 'unknown', key, res);
  if (!key.scopes.includes('read'))
    throw new HttpError(403, 'insufficient_scope', 'The outbox needs a key with the scope "read".', {
      scope: 'read',
    });
  return key.tenantId;
}

const escape = (value: string) =>
  value.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
const linkify = (text: string) => escape(text).replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>');

/**
 * /outbox: the e-mails written to the file outbox, newest first, with their links clickable, so a
 * demo user can open a magic link. Mounted by the development servers and by `portal serve
 * --outbox-viewer` only (server/app.ts outboxViewerDir), behind demoPageHostOnly.
 *
 * Its sign-in links sign anyone in who reads them, and a test server may hold imported people. So
 * from this machine it shows every mail, but at PORTAL_PUBLIC_URL (reached from anywhere) only a
 * tenant's, to HTTP Basic credentials of that tenant's id and one of its operator keys with the
 * `read` scope, checked as the operator API checks keys, with the same budget of failures.
 */
export function outboxPage(outboxDir: string, deps: OperatorAuthDeps): RequestHandler {
  return async (req, res) => {
    // The key first: no mail is read for a visitor who has none.
    const tenantId =
      (res.locals.demoPageReachedAs as DemoPageReach | undefined) === 'loopback'
        ? undefined
        : await tenantOfOperator(deps, req, res);
    let entries = await readOutbox(outboxDir);
    if (tenantId !== undefined) entries = entries.filter((entry) => entry.tenantId === tenantId);
    if (req.accepts(['html', 'json']) === 'json') {
      res.json(entries);
      return;
    }
    const items = entries
      .map(
        (entry) => `<article style="border:1px solid #ccc;border-radius:6px;padding:1rem;margin:1rem 0">
<p><strong>${escape(entry.subject)}</strong><br>To: ${escape(entry.to)} · Tenant: ${escape(entry.tenantId)} · ${escape(entry.date)}</p>
<pre style="white-space:pre-wrap">${linkify(entry.text)}</pre></article>`,
      )
      .join('\n');
    res.type('html').set('Content-Security-Policy', PLAIN_PAGE_POLICY)
      .send(`<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Outbox</title></head>
<body style="font-family: system-ui, sans-serif; margin: 2rem; max-width: 60rem"><h1>Outbox</h1><p>${entries.length} e-mail(s). Newest first.</p>${items || '<p>No e-mails yet.</p>'}</body></html>`);
  };
}
