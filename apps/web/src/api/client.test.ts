import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, setUnauthorizedHandler } from './client';
import { routes } from './routes';

/**
 * The request builder never sends a request with an empty path parameter: `/v1/admin/scenarios//
 * access` can only fail (issue 27), so it is refused before anything goes out.
 */
describe('the API client', () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('refuses an empty path parameter without a request, and fills a given one', async () => {
    const fetch = vi.fn((_url: string) =>
      Promise.resolve(Response.json({ organizations: [], total: 0, limit: 20, offset: 0 })),
    );
    globalThis.fetch = fetch as unknown as typeof globalThis.fetch;
    await expect(api.call(routes.scenarioGrants, { params: { id: '' } })).rejects.toThrow(
      '/v1/admin/scenarios/:id/access needs the parameter id',
    );
    expect(fetch).not.toHaveBeenCalled();

    await api.call(routes.scenarioGrants, { params: { id: 'a b' }, query: { q: 'x' } });
    expect(fetch.mock.calls.map(([url]) => url)).toEqual(['/v1/admin/scenarios/a%20b/access?q=x']);
  });

  it('sends the body of a PATCH, as of a POST', async () => {
    const fetch = vi.fn((_url: string, _init: RequestInit) => Promise.resolve(Response.json({})));
    globalThis.fetch = fetch as unknown as typeof globalThis.fetch;
    await api.call(routes.updateIntegration, { params: { id: 'i1' }, body: { enabled: false } });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/v1/integrations/i1');
    expect(init.method).toBe('PATCH');
    expect(init.body).toBe('{"enabled":false}');
    expect(new Headers(init.headers).get('content-type')).toBe('application/json');
  });
});

/**
 * The console holds no token (decision 025): the browser sends its httpOnly sign-in cookie, so
 * no request carries an Authorization header and every one is sent with same-origin credentials.
 */
describe('the API client signs in with the cookie', () => {
  const realFetch = globalThis.fetch;
  const realXhr = globalThis.XMLHttpRequest;
  afterEach(() => {
    globalThis.fetch = realFetch;
    globalThis.XMLHttpRequest = realXhr;
    setUnauthorizedHandler(undefined);
  });

  it('sends calls and downloads with same-origin credentials and no Authorization header', async () => {
    localStorage.setItem('vr_user', JSON.stringify({ token: 'old-secret', user: {} }));
    const fetch = vi.fn((_url: string, _init: RequestInit) =>
      Promise.resolve(
        new Response('{"ok":true}', { headers: { 'content-type': 'application/json' } }),
      ),
    );
    globalThis.fetch = fetch as unknown as typeof globalThis.fetch;
    await api.call(routes.logout);
    await api.download(routes.exportStats, { query: {} });
    expect(fetch).toHaveBeenCalledTimes(2);
    for (const [, init] of fetch.mock.calls) {
      expect(init.credentials).toBe('same-origin');
      expect(new Headers(init.headers).get('authorization')).toBeNull();
    }
  });

  it('signs out on 401 unauthorized, not on a wrong password', async () => {
    const answer = (error: string) =>
      Promise.resolve(Response.json({ error, message: 'x' }, { status: 401 }));
    const signedOut = vi.fn();
    setUnauthorizedHandler(signedOut);
    globalThis.fetch = (() => answer('invalid_credentials')) as typeof globalThis.fetch;
    await expect(
      api.call(routes.login, { body: { email: 'a@example.com', password: 'wrong' } }),
    ).rejects.toMatchObject({ status: 401, code: 'invalid_credentials' });
    expect(signedOut).not.toHaveBeenCalled();
    globalThis.fetch = (() => answer('unauthorized')) as typeof globalThis.fetch;
    await expect(api.call(routes.me)).rejects.toMatchObject({ status: 401 });
    expect(signedOut).toHaveBeenCalledTimes(1);
  });

  it('uploads with credentials and no Authorization header, and signs out on its 401', async () => {
    const sent: FakeXhr[] = [];
    class FakeXhr {
      withCredentials = false;
      status = 0;
      responseText = '';
      readonly headers = new Map<string, string>();
      readonly upload: { onprogress: ((event: ProgressEvent) => void) | null } = {
        onprogress: null,
      };
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      onabort: (() => void) | null = null;
      open() {}
      setRequestHeader(name: string, value: string) {
        this.headers.set(name.toLowerCase(), value);
      }
      send() {
        sent.push(this);
        this.status = 401;
        this.responseText = JSON.stringify({ error: 'unauthorized', message: 'ended' });
        queueMicrotask(() => this.onload?.());
      }
      abort() {}
    }
    globalThis.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;
    const signedOut = vi.fn();
    setUnauthorizedHandler(signedOut);
    await expect(
      api.upload(routes.uploadBuild, new Blob(['PK']), {
        params: { platform: 'oculus' },
        query: { version: '1.0.0' },
        contentType: 'application/vnd.android.package-archive',
      }),
    ).rejects.toMatchObject({ status: 401 });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.withCredentials).toBe(true);
    expect(sent[0]!.headers.has('authorization')).toBe(false);
    expect(signedOut).toHaveBeenCalledTimes(1);
  });
});
