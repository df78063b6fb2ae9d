import type { RequestHandler } from 'express';
import { PLAIN_PAGE_POLICY } from '../http/securityHeaders';
import type { TenantDirectory } from '../tenancy/tenantResolver';

const escape = (value: string) =>
  value.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * The root of a shared host: links to every tenant's portal (how `npm start` shows all demo tenants).
 * Mounted only with the development pages or the outbox viewer (server/app.ts), never by a plain
 * `portal serve`.
 */
export function tenantIndexPage(
  directory: TenantDirectory,
  options: { outbox: boolean; preview: boolean },
): RequestHandler {
  return (_req, res) => {
    const items = directory
      .all()
      .map(
        (tenant) =>
          `<li><a href="/t/${escape(tenant.id)}/">${escape(tenant.name)}</a> <code>/t/${escape(tenant.id)}/</code></li>`,
      )
      .join('\n');
    res.type('html').set('Content-Security-Policy', PLAIN_PAGE_POLICY)
      .send(`<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Portals</title></head>
<body style="font-family: system-ui, sans-serif; margin: 2rem"><h1>Portals on this server</h1><ul>${items}</ul>
<p>${[
      options.outbox ? '<a href="/outbox">Outbox</a> (e-mails sent by the portals)' : '',
      options.preview ? '<a href="/preview">QA preview</a>' : '',
    ]
      .filter(Boolean)
      .join(' · ')}</p></body></html>`);
  };
}
