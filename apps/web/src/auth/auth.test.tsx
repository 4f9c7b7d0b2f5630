import { screen, waitFor } from '@testing-library/react';
import { routes } from '@vrtc/contract';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { api } from '../api/client';
import { mockFetch, renderWithProviders } from '../test/render';
import { RequireAdmin, RequireAuth, PublicOnly } from './guards';
import { readStoredLogin, STORAGE_KEY, writeStoredLogin } from './storage';

const admin = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'admin@example.com',
  role: 'admin' as const,
  organization_id: '00000000-0000-4000-8000-000000000002',
  organization_name: 'Platform',
};
const client = { ...admin, email: 'staff@example.com', role: 'client' as const };

function App() {
  return (
    <Routes>
      <Route
        path="/login"
        element={
          <PublicOnly>
            <p>login page</p>
          </PublicOnly>
        }
      />
      <Route
        path="/vr-users"
        element={
          <RequireAuth>
            <p>vr users page</p>
          </RequireAuth>
        }
      />
      <Route
        path="/admin"
        element={
          <RequireAuth>
            <RequireAdmin />
          </RequireAuth>
        }
      >
        <Route path="organizations" element={<p>organizations page</p>} />
      </Route>
    </Routes>
  );
}

describe('route guards', () => {
  it('sends a visitor without a stored login to /login', async () => {
    mockFetch({});
    renderWithProviders(<App />, { route: '/vr-users' });
    expect(await screen.findByText('login page')).toBeInTheDocument();
  });

  it('shows a spinner while the stored login is checked, then the page', async () => {
    writeStoredLogin({ token: 't', user: client });
    mockFetch({ 'GET /v1/me': client });
    renderWithProviders(<App />, { route: '/vr-users' });
    expect(screen.getByTestId('auth-spinner')).toBeInTheDocument();
    expect(await screen.findByText('vr users page')).toBeInTheDocument();
  });

  it('clears a stored login whose profile check fails', async () => {
    writeStoredLogin({ token: 'expired', user: client });
    mockFetch({ 'GET /v1/me': { status: 401, body: { error: 'unauthorized', message: 'x' } } });
    renderWithProviders(<App />, { route: '/vr-users' });
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEY)).toBeNull();
  });

  it('sends a signed-in user away from /login', async () => {
    writeStoredLogin({ token: 't', user: client });
    mockFetch({ 'GET /v1/me': client });
    renderWithProviders(<App />, { route: '/login' });
    expect(await screen.findByText('vr users page')).toBeInTheDocument();
  });

  it('sends a non-admin away from admin routes, and lets an admin in', async () => {
    writeStoredLogin({ token: 't', user: client });
    mockFetch({ 'GET /v1/me': client });
    const first = renderWithProviders(<App />, { route: '/admin/organizations' });
    expect(await screen.findByText('vr users page')).toBeInTheDocument();
    first.unmount();

    writeStoredLogin({ token: 't', user: admin });
    mockFetch({ 'GET /v1/me': admin });
    renderWithProviders(<App />, { route: '/admin/organizations' });
    expect(await screen.findByText('organizations page')).toBeInTheDocument();
  });

  it('clears the login and goes to /login on any 401', async () => {
    writeStoredLogin({ token: 't', user: client });
    mockFetch({
      'GET /v1/me': client,
      'GET /v1/devices': { status: 401, body: { error: 'unauthorized', message: 'expired' } },
    });
    renderWithProviders(<App />, { route: '/vr-users' });
    expect(await screen.findByText('vr users page')).toBeInTheDocument();
    await expect(api.call(routes.listDevices)).rejects.toMatchObject({ status: 401 });
    expect(await screen.findByText('login page')).toBeInTheDocument();
    await waitFor(() => expect(readStoredLogin()).toBeUndefined());
  });
});
