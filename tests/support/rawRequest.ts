import { request } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as they came over the wire, still compressed if the server compressed them. */
  body: Buffer;
}

/**
 * A GET that leaves the answer as sent: node:http adds no Accept-Encoding of its own and decodes
 * nothing (fetch would ask for gzip and hide what the server chose), so a test can tell what was
 * negotiated.
 */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return rawRequest(url, { headers });
}

/** Any request as rawGet sends it, with the headers given (a Host of its own, say) and a body. */
export function rawRequest(
  url: string,
  {
    method = 'GET',
    headers = {},
    body,
  }: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    })
      .on('error', reject)
      .end(body);
  });
}
