// @vitest-environment jsdom
/**
 * The API client of portal-core.md §7: files come through getBlob with the session header, and a 401
 * there logs the user out like on any other call (§2).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient } from '../../engine/core/apiClient';
import { AUTH_HEADER } from '../../engine/domain/httpHeaders';

afterEach(() => vi.unstubAllGlobals());

function client(fetchImpl: (url: string, init: RequestInit) => Promise<Response>) {
  const fetchMock = vi.fn(fetchImpl);
  vi.stubGlobal('fetch', fetchMock);
  const onUnauthorized = vi.fn();
  const api = createApiClient({ basePath: '/t/acme/', getAccessToken: () => 'token-1', onUnauthorized });
  return { api, fetchMock, onUnauthorized };
}

describe('api client getBlob', () => {
  it('fetches a file under the API base with the session header', async () => {
    const { api, fetchMock } = client(
      async () => new Response('%PDF-1.4', { status: 200, headers: { 'content-type': 'application/pdf' } }),
    );
    const blob = await api.getBlob('/subscriptions/1/invoices/2/download');
    expect(await blob.text()).toBe('%PDF-1.4');
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/t/acme/api/subscriptions/1/invoices/2/download');
    expect((init.headers as Record<string, string>)[AUTH_HEADER]).toBe('token-1');
  });

  it('logs out on a 401 and throws the server error as ApiError', async () => {
    const { api, onUnauthorized } = client(
      async () =>
        new Response(
          JSON.stringify({ error: { code: 'session_expired', message: 'Please log in again.' } }),
          { status: 401 },
        ),
    );
    const failure = await api.getBlob('/pending-orders/7/file').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 401, code: 'session_expired' });
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('throws an ApiError with the status when the error is not JSON', async () => {
    const { api, onUnauthorized } = client(
      async () => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    );
    await expect(api.getBlob('/pending-orders/7/file')).rejects.toMatchObject({
      status: 502,
      code: 'http_error',
    });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});

describe('api client getFile', () => {
  it('fetches a download URL of the API with the session header and reads the file name', async () => {
    const { api, fetchMock } = client(
      async () =>
        new Response('%PDF-1.4', {
          status: 200,
          headers: {
            'content-type': 'application/pdf',
            'content-disposition': 'inline; filename="TWM-2026-03.pdf"',
          },
        }),
    );
    const file = await api.getFile('/t/acme/api/files/key-123');
    expect(await file.blob.text()).toBe('%PDF-1.4');
    expect(file.fileName).toBe('TWM-2026-03.pdf');
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/t/acme/api/files/key-123');
    expect((init.headers as Record<string, string>)[AUTH_HEADER]).toBe('token-1');
  });
});

describe('api client: the screen language on every request, files included', () => {
  it('sends the current locale as Accept-Language on downloads, so documents come in the language the subscriber reads', async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response('%PDF-1.4', {
          status: 200,
          headers: { 'content-disposition': 'inline; filename="x.pdf"' },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    let locale = 'en-GB';
    const api = createApiClient({
      basePath: '/t/acme/',
      getAccessToken: () => 'token-1',
      onUnauthorized: vi.fn(),
      getLocale: () => locale,
    });
    await api.getFile('/t/acme/api/files/key-1');
    locale = 'de-DE';
    await api.getBlob('/subscriptions/1/invoices/2/download');
    const headers = fetchMock.mock.calls.map(
      (call) =>
        ((call as unknown as [string, RequestInit])[1].headers as Record<string, string>)['accept-language'],
    );
    expect(headers).toEqual(['en-GB', 'de-DE']);
  });
});

describe('api client: sign-in calls and calls without a body (portal-core.md §2, §7)', () => {
  const refused = async () =>
    new Response(JSON.stringify({ error: { code: 'invalid_token', message: 'The link has expired.' } }), {
      status: 401,
    });

  it('does not log a signed-in visitor out when a sign-in is refused (a spent link opened while signed in)', async () => {
    const { api, onUnauthorized } = client(refused);
    for (const path of ['/login', '/login/token', '/login/oauth?code=x&state=y'])
      await expect(
        api.post(path, path === '/login/oauth?code=x&state=y' ? undefined : {}),
      ).rejects.toMatchObject({
        status: 401,
        code: 'invalid_token',
      });
    expect(onUnauthorized).not.toHaveBeenCalled();
    // Any other call's 401 still ends the session, a path that only starts like a sign-in's included.
    await api.get('/login-history').catch(() => undefined);
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('sends no body and no content type with a call that has none, and JSON with one that has', async () => {
    const { api, fetchMock } = client(async () => new Response(null, { status: 204 }));
    await api.post('/logout');
    await api.post('/subscriptions', { orderNumber: '1234567890' });
    const [[, bare], [, withBody]] = fetchMock.mock.calls;
    expect(bare.body).toBeUndefined();
    expect((bare.headers as Record<string, string>)['content-type']).toBeUndefined();
    expect(withBody.body).toBe('{"orderNumber":"1234567890"}');
    expect((withBody.headers as Record<string, string>)['content-type']).toBe('application/json');
  });
});
