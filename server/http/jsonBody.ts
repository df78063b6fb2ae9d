import { isUtf8 } from 'node:buffer';
import express, { type RequestHandler, type Response } from 'express';
import { duplicateJsonKey } from './duplicateJsonKey';
import { HttpError } from './errors';

/**
 * The JSON parser of /api and the operator API (4 MB), with the refusals server/http/errors.ts
 * answers for body-parser:
 * - a body in another media type (a form, text, none named) is 415 `unsupported_media_type`: read
 *   as no body, it would be judged as an empty object ("is required", "must be object"), which
 *   names the wrong fault;
 * - a body in another charset than UTF-8 is 415 `unsupported_media_type` "Send the body in UTF-8.";
 * - a body sent as UTF-8 must be UTF-8: the parser would otherwise read each invalid byte as U+FFFD
 *   and hand a name with replacement marks on to the database, where the person typed something
 *   else; such a body is 400 `malformed_request` "The request body is not valid UTF-8.";
 * - a key named twice in one object is 400 `malformed_request`: JSON.parse would keep the last, and
 *   which of the two a reader before it saw (a proxy, a log, a signature) is anybody's guess.
 * `onBytes` sees the body as sent (the operator API hashes it for Idempotency-Key).
 */
export function jsonBody(onBytes?: (res: Response, bytes: Buffer) => void): RequestHandler {
  const parse = express.json({
    limit: '4mb',
    verify: (_req, res, bytes, encoding) => {
      // No other charset gets here (sentInOtherCharset); the decoding is body-parser's own.
      if (encoding.toLowerCase() !== 'utf-8') throw unsupportedCharset();
      if (!isUtf8(bytes)) {
        throw Object.assign(new Error('The request body is not valid UTF-8.'), {
          status: 400,
          expose: true,
          type: 'entity.verify.failed',
        });
      }
      const duplicate = duplicateJsonKey(bytes.toString('utf8'));
      if (duplicate !== undefined) {
        throw Object.assign(
          new Error(`The request body names the key ${JSON.stringify(duplicate)} twice in one object.`),
          { status: 400, expose: true, type: 'entity.verify.failed' },
        );
      }
      onBytes?.(res as Response, bytes);
    },
  });
  return (req, res, next) => {
    // A body is there when its length is announced and not zero, or it comes in chunks (RFC 9112 §6.3).
    const hasBody =
      req.headers['transfer-encoding'] !== undefined ||
      (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
    if (hasBody && !req.is('application/json'))
      throw new HttpError(415, 'unsupported_media_type', 'Send the body as application/json.');
    if (hasBody && sentInOtherCharset(req.rawHeaders)) throw unsupportedCharset();
    parse(req, res, next);
  };
}

/** body-parser's own error type for a charset it refuses: errors.ts words it "Send the body in UTF-8.". */
const unsupportedCharset = () =>
  Object.assign(new Error('unsupported charset'), { status: 415, type: 'charset.unsupported' });

/**
 * JSON between systems is UTF-8 (RFC 8259 §8.1), and the checks of this parser read UTF-8.
 * body-parser would decode any `utf-*` charset (UTF-16, UTF-32, UTF-7), and takes the first of two
 * Content-Type headers or charset parameters where a proxy or a log may take the last: bytes read
 * as one thing there and as another here. So a body names no charset but UTF-8, once, in one
 * Content-Type, or is refused before it is read.
 */
function sentInOtherCharset(rawHeaders: string[]): boolean {
  const types = rawHeaders.filter(
    (_, i) => i % 2 === 1 && rawHeaders[i - 1].toLowerCase() === 'content-type',
  );
  if (types.length !== 1) return types.length > 1;
  const parameters = types[0]
    .split(';')
    .slice(1)
    .map((parameter) => {
      const [name, value = ''] = parameter.split('=');
      return { name: name.trim().toLowerCase(), value: value.trim().replace(/^"|"$/g, '').toLowerCase() };
    });
  if (new Set(parameters.map((p) => p.name)).size !== parameters.length) return true;
  const charset = parameters.find((p) => p.name === 'charset')?.value;
  return charset !== undefined && charset !== '' && charset !== 'utf-8';
}
