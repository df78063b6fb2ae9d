/**
 * The API client of portal-core.md §7: base path `<portal base>api`, the `x-auth-token` header
 * when logged in, the XSRF header read from the XSRF cookie on unsafe requests, and any 401
 * (except on login calls) logs the user out. No HTTP timeout (§9). Files the API serves to the
 * signed-in user only (invoice PDFs, pending-order files) come through `getBlob`, so they share the
 * headers, the 401 log-out and the ApiError of every other call; so do the files behind download
 * keys (`getFile`), which the server serves only to the session that asked for the key.
 */
import type { ErrorBody } from '../../schemas/generated/error-body';
import { ApiError } from '../domain/apiError';
import { AUTH_HEADER, XSRF_COOKIE, XSRF_HEADER } from '../domain/httpHeaders';

/** schemas/api/error-body.schema.json: the one error answer of /api. */
export type ApiErrorBody = ErrorBody;

export { ApiError };

export interface ApiClientOptions {
  basePath: string;
  getAccessToken: () => string | undefined;
  onUnauthorized: () => void;
  /** The screen's language: sent as Accept-Language, so texts and e-mails the server writes match it. */
  getLocale?: () => string | undefined;
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** A cookie of the portal's origin (the XSRF cookie the server issues). */
export function readCookie(name: string): string | undefined {
  const match = document.cookie.split('; ').find((part) => part.startsWith(`${name}=`));
  return match ? decodeURIComponent(match.slice(name.length + 1)) : undefined;
}

/**
 * A 429 says when to try again (engine/domain/retryAfter.ts): the server puts the seconds into
 * `details.retryAfterSeconds`; a 429 from elsewhere (a proxy) may carry only the Retry-After header,
 * which is read here, as seconds or as a date.
 */
function withRetryAfter(response: Response, details: unknown): unknown {
  if (response.status !== 429) return details;
  const own =
    details && typeof details === 'object' && !Array.isArray(details)
      ? (details as Record<string, unknown>)
      : undefined;
  if (own && Number(own.retryAfterSeconds) > 0) return details;
  const header = response.headers.get('retry-after');
  if (!header) return details;
  const seconds = /^\d+$/.test(header.trim())
    ? Number(header)
    : Math.ceil((Date.parse(header) - Date.now()) / 1000);
  return Number.isFinite(seconds) && seconds > 0 ? { ...own, retryAfterSeconds: seconds } : details;
}

/** The sign-in calls (`/login`, `/login/token`, `/login/oauth`, …): their 401 is a refused sign-in. */
const isLoginCall = (path: string) => /^\/login(?:[/?]|$)/.test(path);

export function createApiClient(options: ApiClientOptions) {
  const apiBase = `${options.basePath.replace(/\/$/, '')}/api`;

  async function send(method: string, path: string, body: unknown, accept: string): Promise<Response> {
    const headers: Record<string, string> = { accept };
    const locale = options.getLocale?.();
    if (locale) headers['accept-language'] = locale;
    const token = options.getAccessToken();
    if (token) headers[AUTH_HEADER] = token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET' && method !== 'HEAD') {
      const xsrf = readCookie(XSRF_COOKIE);
      if (xsrf) headers[XSRF_HEADER] = xsrf;
    }
    const response = await fetch(`${apiBase}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
    // §2 "Any 401 response other than on login logs the user out", and only when a session was
    // sent: a refused sign-in (wrong password, a spent link opened while signed in) is the
    // sign-in form's error, not a timeout.
    if (response.status === 401 && token && !isLoginCall(path)) options.onUnauthorized();
    return response;
  }

  /** The ApiError of a failed answer: the server's error code and message when it sent JSON. */
  async function failure(response: Response): Promise<ApiError> {
    let error: ApiErrorBody['error'] | undefined;
    try {
      error = ((await response.json()) as ApiErrorBody | undefined)?.error;
    } catch {
      // Not JSON (a proxy's HTML error page): keep the status.
    }
    return new ApiError(
      response.status,
      error?.code ?? 'http_error',
      error?.message ?? response.statusText,
      withRetryAfter(response, error?.details),
    );
  }

  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await send(method, path, body, 'application/json');
    if (!response.ok) throw await failure(response);
    const text = await response.text();
    try {
      return (text ? JSON.parse(text) : undefined) as T;
    } catch {
      throw new ApiError(response.status, 'invalid_response', 'The server answered in an unexpected format.');
    }
  }

  async function getBlob(path: string): Promise<Blob> {
    const response = await send('GET', path, undefined, '*/*');
    if (!response.ok) throw await failure(response);
    return response.blob();
  }

  /**
   * A file behind a URL the API handed out (`/…/api/files/{key}` of a download response, §3), with
   * the file name of its Content-Disposition. The key works once and only with this session
   * (a bare link would serve anyone holding it), so it is fetched here.
   */
  async function getFile(url: string): Promise<{ blob: Blob; fileName?: string }> {
    const path = url.startsWith(`${apiBase}/`) ? url.slice(apiBase.length) : url;
    const response = await send('GET', path, undefined, '*/*');
    if (!response.ok) throw await failure(response);
    const disposition = response.headers.get('content-disposition') ?? '';
    const fileName = /filename="([^"]+)"/.exec(disposition)?.[1];
    return { blob: await response.blob(), fileName };
  }

  return {
    get: <T>(path: string) => request<T>('GET', path),
    // §7: a call without a body (log-out, an invoice request, the OAuth answer in its query) sends none.
    post: <T>(path: string, body?: unknown) => request<T>('POST', path, body),
    delete: <T = void>(path: string) => request<T>('DELETE', path),
    getBlob,
    getFile,
  };
}
