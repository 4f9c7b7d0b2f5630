import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from './client';
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
});
