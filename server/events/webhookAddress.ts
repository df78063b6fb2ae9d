/**
 * How a webhook endpoint is shown in logs and listings. Where a webhook may go is decided by the
 * outbound guard (server/http/publicRequest.ts, docs/going-live.md "Account events and webhooks", "Outbound
 * requests"), for webhooks and every other request to a URL a tenant file or an operator names.
 */

/** The endpoint for logs and listings: its query string may carry a token, so it is left out. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`;
  } catch {
    return url.replace(/\?.*$/, '?…');
  }
}
