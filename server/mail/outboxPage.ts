import type { RequestHandler } from 'express';
import { PLAIN_PAGE_POLICY } from '../http/securityHeaders';
import { readOutbox } from './mailer';

const escape = (value: string) =>
  value.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
const linkify = (text: string) => escape(text).replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>');

/**
 * /outbox: the e-mails written to the file outbox, newest first, with their links clickable, so a
 * demo user can open a magic link. Mounted by the development servers and by `portal serve
 * --outbox-viewer` only (server/app.ts outboxViewerDir).
 */
export function outboxPage(outboxDir: string): RequestHandler {
  return async (req, res) => {
    const entries = await readOutbox(outboxDir);
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
