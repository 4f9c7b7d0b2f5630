import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { routes } from '@vrtc/contract';
import { useState } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { api } from '../api/client';
import { mockFetch, renderWithProviders } from '../test/render';
import { RequireAdmin, RequireAuth, PublicOnly } from './guards';
import { useAuth } from './AuthProvider';
import { readStoredUser, STORAGE_KEY, writeStoredUser } from './storage';

const admin = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'admin@example.com',
  role: 'admin' as const,
  organization_id: '00000000-0000-4000-8000-000000000002',
  organization_name: 'Platform',
};
const client = { ...admin, email: 'staff@example.com', role: 'client' as const };

/** The address the router is at, for tests of where a guard sends the user. */
function Where() {
  const location = useLocation();
  return <output aria-label="where">{`${location.pathname}${location.search}`}</output>;
}

function App() {
  return (
    <Routes>
      <Route
        path="/login"
        element={
          <PublicOnly>
            <p>login page</p>
            <Where />
          </PublicOnly>
        }
      />
      <Route
        path="/devices"
        element={
          <RequireAuth enrolNow={null}>
            <p>devices page</p>
            <Where />
          </RequireAuth>
        }
      />
      <Route
        path="/vr-users"
        element={
          <RequireAuth enrolNow={null}>
            <p>vr users page</p>
          </RequireAuth>
        }
      />
      <Route
        path="/admin"
        element={
          <RequireAuth enrolNow={null}>
            <RequireAdmin notAllowed={<p>not allowed page</p>} />
          </RequireAuth>
        }
      >
        <Route path="organizations" element={<p>organizations page</p>} />
      </Route>
    </Routes>
  );
}

const signedOut = { status: 401, body: { error: 'unauthorized', message: 'x' } };

/** How each request after this call is sent (its headers and credentials), in order. */
function recordRequestInits(): RequestInit[] {
  const inits: RequestInit[] = [];
  const answer = globalThis.fetch;
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    inits.push(init ?? {});
    return answer(input, init);
  }) as typeof globalThis.fetch;
  return inits;
}

describe('route guards', () => {
  it('learns a signed-out start from the session check, with no refused request and no /v1/me', async () => {
    const calls = mockFetch({ 'GET /v1/auth/session': { signed_in: false, account: null } });
    renderWithProviders(<App />, { route: '/login' });
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual(['GET /v1/auth/session']);
  });

  it('sends a visitor the server does not know (no sign-in cookie) to /login', async () => {
    mockFetch({ 'GET /v1/me': signedOut });
    renderWithProviders(<App />, { route: '/vr-users' });
    expect(await screen.findByText('login page')).toBeInTheDocument();
  });

  it('shows a spinner while the sign-in is checked, then the page', async () => {
    mockFetch({ 'GET /v1/me': client });
    renderWithProviders(<App />, { route: '/vr-users' });
    expect(screen.getByTestId('auth-spinner')).toBeInTheDocument();
    expect(await screen.findByText('vr users page')).toBeInTheDocument();
  });

  it('asks the server, not storage: a signed-in browser with nothing stored is let in', async () => {
    const calls = mockFetch({ 'GET /v1/me': client });
    const inits = recordRequestInits();
    renderWithProviders(<App />, { route: '/vr-users' });
    expect(await screen.findByText('vr users page')).toBeInTheDocument();
    expect(calls[0]).toMatchObject({ method: 'GET', url: '/v1/auth/session' });
    expect(inits[0]).toMatchObject({ credentials: 'same-origin' });
    expect(readStoredUser()).toEqual(client);
  });

  it('a stored user alone signs no one in: a 401 from the profile check clears it', async () => {
    writeStoredUser(client);
    mockFetch({ 'GET /v1/me': signedOut });
    renderWithProviders(<App />, { route: '/vr-users' });
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEY)).toBeNull();
  });

  it('sends a signed-in user away from /login', async () => {
    mockFetch({ 'GET /v1/me': client });
    renderWithProviders(<App />, { route: '/login' });
    expect(await screen.findByText('vr users page')).toBeInTheDocument();
  });

  it('names the page asked for in /login, and a signed-in /login goes there', async () => {
    mockFetch({ 'GET /v1/me': signedOut });
    const first = renderWithProviders(<App />, { route: '/devices?q=quest&page=2' });
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'where' })).toHaveTextContent(
      '/login?next=%2Fdevices%3Fq%3Dquest%26page%3D2',
    );
    first.unmount();

    mockFetch({ 'GET /v1/me': client });
    renderWithProviders(<App />, { route: '/login?next=%2Fdevices%3Fq%3Dquest%26page%3D2' });
    expect(await screen.findByText('devices page')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'where' })).toHaveTextContent(
      '/devices?q=quest&page=2',
    );
  });

  it.each(['//evil.example/devices', 'https://evil.example/devices', '/\\evil.example'])(
    'refuses a next= that leaves the console (%s): home instead',
    async (next) => {
      mockFetch({ 'GET /v1/me': client });
      renderWithProviders(<App />, { route: `/login?next=${encodeURIComponent(next)}` });
      expect(await screen.findByText('vr users page')).toBeInTheDocument();
    },
  );

  it('tells a non-admin an admin route is not for them, and lets an admin in', async () => {
    // The stored role decides nothing: the server's profile does.
    writeStoredUser(admin);
    mockFetch({ 'GET /v1/me': client });
    const first = renderWithProviders(<App />, { route: '/admin/organizations' });
    expect(await screen.findByText('not allowed page')).toBeInTheDocument();
    expect(screen.queryByText('organizations page')).not.toBeInTheDocument();
    first.unmount();

    mockFetch({ 'GET /v1/me': admin });
    renderWithProviders(<App />, { route: '/admin/organizations' });
    expect(await screen.findByText('organizations page')).toBeInTheDocument();
  });

  it('clears the login and goes to /login on any 401', async () => {
    mockFetch({
      'GET /v1/me': client,
      'GET /v1/devices': { status: 401, body: { error: 'unauthorized', message: 'expired' } },
    });
    renderWithProviders(<App />, { route: '/vr-users' });
    expect(await screen.findByText('vr users page')).toBeInTheDocument();
    await expect(api.call(routes.listDevices)).rejects.toMatchObject({ status: 401 });
    expect(await screen.findByText('login page')).toBeInTheDocument();
    await waitFor(() => expect(readStoredUser()).toBeUndefined());
  });
});

/** Signs in and out through the auth layer, as the login page and the user menu do. */
function SignInAndOut() {
  const { state, login, logout } = useAuth();
  const [refused, setRefused] = useState(false);
  return (
    <>
      <p>{state.status}</p>
      {refused && <p>refused</p>}
      <button onClick={() => login(client.email, 'password123').catch(() => setRefused(true))}>
        sign in
      </button>
      <button onClick={() => void logout()}>sign out</button>
    </>
  );
}

describe('the sign-in keeps no secret where script can read it', () => {
  const TOKEN = 'secret-token-from-the-login-answer-0123456789';

  it('stores only the user after sign-in, sends no Authorization header, and sign-out clears it', async () => {
    const calls = mockFetch({
      'GET /v1/me': signedOut,
      'POST /v1/auth/login': {
        ...client,
        token: TOKEN,
        expires_at: '2026-06-01T10:00:00.000Z',
      },
      'POST /v1/auth/logout': { ok: true },
    });
    const inits = recordRequestInits();
    renderWithProviders(<SignInAndOut />);
    expect(await screen.findByText('signed-out')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'sign in' }));
    expect(await screen.findByText('signed-in')).toBeInTheDocument();
    const stored = localStorage.getItem(STORAGE_KEY) ?? '';
    expect(JSON.parse(stored)).toEqual({ user: client });
    for (let i = 0; i < localStorage.length; i++) {
      expect(localStorage.getItem(localStorage.key(i)!)).not.toContain(TOKEN);
    }

    await userEvent.click(screen.getByRole('button', { name: 'sign out' }));
    expect(await screen.findByText('signed-out')).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEY)).toBeNull();
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      'GET /v1/auth/session',
      'POST /v1/auth/login',
      'POST /v1/auth/logout',
    ]);
    expect(inits).toHaveLength(3);
    for (const init of inits) {
      expect(new Headers(init.headers).get('authorization')).toBeNull();
      expect(init.credentials).toBe('same-origin');
    }
  });

  it('signs in from an answer without a token, as the server gives a browser page', async () => {
    mockFetch({
      'GET /v1/me': signedOut,
      'POST /v1/auth/login': { ...client, expires_at: '2026-06-01T10:00:00.000Z' },
    });
    renderWithProviders(<SignInAndOut />);
    expect(await screen.findByText('signed-out')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'sign in' }));
    expect(await screen.findByText('signed-in')).toBeInTheDocument();
    expect(readStoredUser()).toEqual(client);
  });

  it('drops a token an earlier version stored', async () => {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ token: 'old-secret-token', user: client }));
    mockFetch({ 'GET /v1/me': client });
    renderWithProviders(<App />, { route: '/vr-users' });
    expect(await screen.findByText('vr users page')).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEY)).not.toContain('old-secret-token');
    expect(readStoredUser()).toEqual(client);
  });

  it('a wrong password at sign-in does not count as a sign-in that ended', async () => {
    const calls = mockFetch({
      'GET /v1/me': client,
      'POST /v1/auth/login': {
        status: 401,
        body: { error: 'invalid_credentials', message: 'Invalid email or password' },
      },
    });
    renderWithProviders(<SignInAndOut />);
    expect(await screen.findByText('signed-in')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'sign in' }));
    expect(await screen.findByText('refused')).toBeInTheDocument();
    expect(calls).toHaveLength(2);
    expect(screen.getByText('signed-in')).toBeInTheDocument();
  });
});
