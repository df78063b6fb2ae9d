import compression from 'compression';
import type { RequestHandler } from 'express';

/**
 * Below about one network packet a compressed answer arrives no sooner, and compressing it costs
 * the server time and the answer a header (docs/decisions.md "Compression: brotli quality 10 at
 * build time, 4 per request").
 */
export const DYNAMIC_COMPRESSION_THRESHOLD = 1024;

/**
 * brotli's quality for answers made per request, the middleware's own default (its types do not
 * name the option to set it): 4 compresses JSON better than gzip at about its speed; the highest
 * qualities are for files compressed once at build time (cli/build/compressAssets.ts).
 */
export const DYNAMIC_BROTLI_QUALITY = 4;

/**
 * Compresses answers made per request (the `/api` JSON, the tenant's index.html with its base
 * path filled in) with brotli or gzip, as the client accepts, above the threshold, with
 * `Vary: Accept-Encoding`. Types the `compressible` table marks as compressed already (the invoice
 * and issue PDFs) go out as they are; an event stream never is compressed, since the compressor
 * would hold back each event until its buffer fills.
 */
export function dynamicCompression(): RequestHandler {
  return compression({
    threshold: DYNAMIC_COMPRESSION_THRESHOLD,
    filter: (req, res) =>
      !String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream') &&
      compression.filter(req, res),
  });
}
