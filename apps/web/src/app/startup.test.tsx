import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PublicOnly, RequireAuth } from '../auth/guards';
import { mockFetch, renderWithProviders, staffAccount as staff } from '../test/render';
import { startEarly } from './startup';

describe('before the first render', () => {
  it('the sign-in check is sent at once, and the provider takes its answer instead of asking again', async () => {
    const calls = mockFetch({ 'GET /v1/me': staff });
    startEarly('/devices?page=2');
    expect(calls).toEqual([{ method: 'GET', url: '/v1/auth/session', body: undefined }]);

    renderWithProviders(
      <RequireAuth enrolNow={null}>
        <p>devices page</p>
      </RequireAuth>,
      { route: '/devices?page=2' },
    );
    expect(await screen.findByText('devices page')).toBeInTheDocument();
    expect(calls).toEqual([{ method: 'GET', url: '/v1/auth/session', body: undefined }]);
  });

  it("starts loading a signed-in page's code with the check; on /login only the check", async () => {
    const calls = mockFetch({
      'GET /v1/me': { status: 401, body: { error: 'unauthorized', message: 'x' } },
    });
    const preloaded: string[] = [];
    startEarly('/sessions?tab=history', (path) => preloaded.push(path));
    startEarly('/login?next=%2Fdevices', (path) => preloaded.push(path));
    startEarly('/', (path) => preloaded.push(path));
    startEarly('/verify/AbC', (path) => preloaded.push(path));
    startEarly('/certificates/AbC', (path) => preloaded.push(path));
    expect(preloaded).toEqual(['/sessions?tab=history', '/']);
    // One check at a time: the provider, not yet mounted, has not taken the first.
    expect(calls.map((call) => call.url)).toEqual(['/v1/auth/session']);
    // The provider takes that check (and its 401): it is left to no later test.
    renderWithProviders(
      <PublicOnly>
        <p>login page</p>
      </PublicOnly>,
      { route: '/login' },
    );
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(calls.map((call) => call.url)).toEqual(['/v1/auth/session']);
  });
});
