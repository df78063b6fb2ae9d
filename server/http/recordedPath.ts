/**
 * What a log line, an audit row or a trace keeps of a request's address (docs/going-live.md
 * "Operations"): the path without its query (a sign-in, opt-in or payment link's token), with a
 * download key (`/files/<key>`, a secret for its lifetime) and an e-mail address (a licence's record
 * key names its user's: `<subscription>~<order number>~<e-mail>`) each left out as `…`, and an
 * operator API key pasted into the path by mistake (`pk_<tenant>_<secret>`, operatorKeys.ts) as `pk_…`.
 */
export function recordedPath(url: string): string {
  return url
    .split('?')[0]
    .replace(/\/files\/[^/]+/, '/files/…')
    .replace(/[^/~]*(?:@|%40)[^/~]*/gi, '…')
    .replace(/pk_[A-Za-z0-9-]+_[A-Za-z0-9_-]{20,}/g, 'pk_…');
}

/**
 * A query as a trace keeps it: the names, each value left out (`token=…`), or undefined for none.
 * Which of a request's parameters is a secret is the route's to know; none is needed to read a trace.
 */
export function recordedQuery(url: string): string | undefined {
  const at = url.indexOf('?');
  if (at < 0 || at === url.length - 1) return undefined;
  return [...new URLSearchParams(url.slice(at + 1)).keys()].map((name) => `${name}=…`).join('&');
}
