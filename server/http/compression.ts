import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import compression from 'compression';
import type { Request, RequestHandler } from 'express';
import Negotiator from 'negotiator';

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
  const compress = compression({
    threshold: DYNAMIC_COMPRESSION_THRESHOLD,
    filter: (req, res) =>
      !String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream') &&
      compression.filter(req, res),
  });
  // A client that accepts none of the middleware's encodings would get every answer as it is from
  // it too; it is left out of the middleware's wrapping of the response, which cost a sixth of the
  // server's time of a kept GET /subscriptions (docs/testing.md "Tests and measurements"). Its
  // answers still say that they vary with Accept-Encoding.
  return (req, res, next) => {
    if (negotiatedEncoding(req) !== 'identity') return compress(req, res, next);
    res.vary('Accept-Encoding');
    next();
  };
}

/** The encoding the `compression` middleware would choose for a request's answer (brotli before gzip). */
function negotiatedEncoding(req: Request): string {
  if (!req.headers['accept-encoding']) return 'identity';
  return (
    new Negotiator(req).encoding(['br', 'gzip', 'deflate', 'identity'], { preferred: ['br', 'gzip'] }) ??
    'identity'
  );
}

/** The encodings an answer kept in memory is kept in besides itself. */
export type KeptEncoding = 'br' | 'gzip';

/**
 * The encoding to send a kept answer in: what dynamicCompression would choose for it (brotli
 * before gzip at equal preference, as the middleware negotiates), or none (as it is; a rarer
 * encoding the client asks for is then still the middleware's to make).
 */
export function keptEncodingFor(req: Request, bytes: number): KeptEncoding | undefined {
  if (bytes < DYNAMIC_COMPRESSION_THRESHOLD || req.method === 'HEAD') return undefined;
  const chosen = negotiatedEncoding(req);
  return chosen === 'br' || chosen === 'gzip' ? chosen : undefined;
}

/** An answer compressed once to be kept, as dynamicCompression would compress it per request. */
export function compressToKeep(body: Buffer, encoding: KeptEncoding): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY } })
    : gzipSync(body);
}
