import type { AddressInfo } from 'node:net';
import { request, type Server } from 'node:http';
import type { Express } from 'express';

/**
 * A small HTTP client for API tests against a real listening app: it keeps the XSRF cookie the
 * server issues and echoes it on unsafe requests, as the browser client does.
 */
export async function listen(app: Express): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export function browserLikeClient(baseUrl: string, prefix: string, options: { host?: string } = {}) {
  let xsrf: string | undefined;
  let accessToken: string | undefined;

  async function call<T>(
    method: string,
    path: string,
    body?: unknown,
    extra: Record<string, string> = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { accept: 'application/json', ...extra };
    if (options.host) headers.host = options.host;
    if (xsrf) headers.cookie = `XSRF-TOKEN=${xsrf}`;
    if (xsrf && method !== 'GET') headers['x-xsrf-token'] = xsrf;
    if (accessToken) headers['x-auth-token'] = accessToken;
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    // node:http rather than fetch: fetch does not let a test choose the Host header.
    const payload =
      typeof body === 'string' || Buffer.isBuffer(body)
        ? body
        : body === undefined
          ? undefined
          : JSON.stringify(body);
    const response = await new Promise<{ status: number; headers: Headers; text: string }>(
      (resolve, reject) => {
        const req = request(`${baseUrl}${prefix}${path}`, { method, headers }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => {
            const responseHeaders = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              if (value !== undefined)
                responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
            }
            resolve({ status: res.statusCode ?? 0, headers: responseHeaders, text });
          });
        });
        req.on('error', reject);
        req.end(payload);
      },
    );
    const cookie = response.headers.get('set-cookie');
    const match = cookie && /XSRF-TOKEN=([^;]+)/.exec(cookie);
    if (match) xsrf = match[1];
    const text = response.text;
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON (an HTML page): keep the text
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  return {
    get: <T = any>(path: string, extra?: Record<string, string>) => call<T>('GET', path, undefined, extra),
    post: <T = any>(path: string, body?: unknown, extra?: Record<string, string>) =>
      call<T>('POST', path, body ?? {}, extra),
    delete: <T = any>(path: string, extra?: Record<string, string>) =>
      call<T>('DELETE', path, undefined, extra),
    setAccessToken: (token: string | undefined) => void (accessToken = token),
    get accessToken() {
      return accessToken;
    },
    dropXsrf: () => void (xsrf = undefined),
  };
}
