import { createTheme, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { AuthProvider } from '../auth/AuthProvider';
import { checkFakeAnswer } from './contract-check';
import '../i18n';

// Expand/collapse animations only delay what a test can see; jsdom has nothing to animate.
const testTheme = createTheme({
  components: {
    Accordion: { defaultProps: { transitionDuration: 0 } },
    Collapse: { defaultProps: { transitionDuration: 0 } },
  },
});

/** Renders UI with every provider of the signed-in app, at the given route. */
export function renderWithProviders(ui: ReactElement, { route = '/' }: { route?: string } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MantineProvider theme={testTheme}>
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          <Notifications />
          <AuthProvider>
            <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
          </AuthProvider>
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

/** What a route handler of mockFetch is given. */
export interface FakeRequest {
  method: string;
  url: URL;
  body?: unknown;
}

/** A fixed answer (JSON, status 200 unless shaped `{ status, body }`), or a handler computing one. */
export type FakeRoute =
  | ((request: FakeRequest) => unknown)
  | Record<string, unknown>
  | unknown[]
  | string
  | number
  | boolean
  | null;

/**
 * A fetch stand-in answering by "METHOD path" (the path without its query): a fixed JSON body, a
 * `{ status, body }`, or a function of the request that returns (or promises) either, or a whole
 * Response. Its JSON successes are checked against the contract (installFakeFetch).
 */
export function mockFetch(routes: Record<string, FakeRoute>) {
  const calls: Array<{ method: string; url: string; body?: unknown }> = [];
  const fetchMock = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, url, body });
    const key = `${method} ${url.split('?')[0]}`;
    // Looked up at each call: a test may change its routes' answers as it goes.
    const route = key in routes ? routes[key] : sessionProbeOf(routes, key);
    if (!(key in routes) && route === undefined)
      return new Response(JSON.stringify({ error: 'not_found', message: key }), { status: 404 });
    const answer: unknown = await (typeof route === 'function'
      ? (route as (request: FakeRequest) => unknown)({
          method,
          url: new URL(url, 'http://localhost'),
          body,
        })
      : route);
    if (answer instanceof Response) return answer;
    const isShaped =
      typeof answer === 'object' && answer !== null && 'status' in answer && 'body' in answer;
    const shaped = answer as { status: number; body: unknown };
    return new Response(JSON.stringify(isShaped ? shaped.body : answer), {
      status: isShaped ? shaped.status : 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  installFakeFetch(fetchMock);
  return calls;
}

const SESSION_PROBE = 'GET /v1/auth/session';

/**
 * The console's sign-in check (GET /v1/auth/session) answered as the server answers it from what
 * a test says GET /v1/me answers: the account signed in, or (a refusal) signed out. A test that
 * names the check itself keeps its own answer.
 */
function sessionProbeOf(routes: Record<string, FakeRoute>, key: string): FakeRoute | undefined {
  const me = routes['GET /v1/me'];
  if (key !== SESSION_PROBE || me === undefined) return undefined;
  return (request: FakeRequest) => {
    const answer: unknown =
      typeof me === 'function' ? (me as (request: FakeRequest) => unknown)(request) : me;
    const shaped =
      typeof answer === 'object' && answer !== null && 'status' in answer && 'body' in answer
        ? (answer as { status: number; body: unknown })
        : undefined;
    if (shaped && shaped.status >= 400) return { signed_in: false, account: null };
    return { signed_in: true, account: shaped ? shaped.body : answer };
  };
}

/**
 * Installs a fetch stand-in (mockFetch's, or a test's own fake server). Every JSON success it
 * answers must be what the contract says the route answers (test/contract-check.ts): a fake that
 * is not fails the test, naming the fields.
 */
export function installFakeFetch(
  handler: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>,
) {
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await handler(input, init);
    if (response.ok && response.headers.get('content-type')?.includes('application/json')) {
      const { pathname } = new URL(String(input), 'http://localhost');
      const body: unknown = await response.clone().json();
      checkFakeAnswer(init?.method ?? 'GET', pathname, response.status, body);
    }
    return response;
  }) as typeof fetch;
}

/** A client's staff member as `GET /v1/me` answers, for tests that need someone signed in. */
export const staffAccount = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'staff@example.com',
  role: 'client' as const,
  organization_id: '00000000-0000-4000-8000-000000000002',
  organization_name: 'Demo',
};
