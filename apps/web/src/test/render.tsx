import { createTheme, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { AuthProvider } from '../auth/AuthProvider';
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

/** A fetch stand-in answering by "METHOD path" with JSON bodies (status 200 unless given). */
export function mockFetch(routes: Record<string, unknown | { status: number; body: unknown }>) {
  const calls: Array<{ method: string; url: string; body?: unknown }> = [];
  const fetchMock = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const key = `${method} ${url.split('?')[0]}`;
    if (!(key in routes))
      return new Response(JSON.stringify({ error: 'not_found', message: key }), { status: 404 });
    const answer = routes[key] as { status?: number; body?: unknown };
    const isShaped =
      typeof answer === 'object' && answer !== null && 'status' in answer && 'body' in answer;
    return new Response(JSON.stringify(isShaped ? answer.body : answer), {
      status: isShaped ? answer.status : 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  globalThis.fetch = fetchMock as typeof fetch;
  return calls;
}
