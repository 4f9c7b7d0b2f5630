import { QueryClient, QueryClientProvider, useIsFetching } from '@tanstack/react-query';
import { Suspense, use } from 'react';
import { act, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderWithProviders, staffAccount as staff } from '../test/render';
import { useSessionHistory } from './sessions';
import { useVrUserList } from './vr-users';

/** A part of the page that is not ready yet: the page is rendered but never committed. */
function NotReady(): never {
  throw new Promise(() => undefined);
}

/** Outside the page, committed: how many requests are in flight. */
function InFlight() {
  return <p>in flight: {useIsFetching()}</p>;
}

/** A part of the page that is ready once `ready` is. */
function ReadyWhen({ ready }: { ready: Promise<void> }) {
  use(ready);
  return <p>ready</p>;
}

function VrUsers() {
  useVrUserList({ offset: 0, limit: 25, sort: 'name', order: 'asc' });
  return null;
}

function History() {
  useSessionHistory({ offset: 0, limit: 25 });
  return null;
}

describe("a list's first request", () => {
  it.each([
    ['VR users', <VrUsers key="list" />, '/v1/vr-users?offset=0&limit=25&sort=name&order=asc'],
    ['History', <History key="list" />, '/v1/sessions?offset=0&limit=25'],
  ])('%s: sent while the page renders, before it is committed', async (_, list, url) => {
    const calls = mockFetch({
      'GET /v1/me': staff,
      'GET /v1/vr-users': { vr_users: [], total: 0, limit: 25, offset: 0 },
      'GET /v1/sessions': { sessions: [], total: 0, limit: 25, offset: 0 },
    });
    renderWithProviders(
      <Suspense fallback={null}>
        {list}
        <NotReady />
      </Suspense>,
    );
    await waitFor(() => expect(calls.map((call) => call.url)).toContain(url));
  });
});

describe("a list's first request, when React throws the first render away", () => {
  afterEach(() => vi.useRealTimers());

  // On a computer twelve times slower, a part of the page was ready only after the list's answer
  // had gone stale: the page rendered afresh (new state) asked for the list a second time.
  it('is not sent again when the page is rendered afresh after the answer went stale', async () => {
    const calls = mockFetch({
      'GET /v1/me': staff,
      'GET /v1/vr-users': { vr_users: [], total: 0, limit: 25, offset: 0 },
    });
    let resolve = () => {};
    const ready = new Promise<void>((done) => (resolve = done));
    const view = renderWithProviders(
      <>
        <InFlight />
        <Suspense fallback={null}>
          <VrUsers />
          <ReadyWhen ready={ready} />
        </Suspense>
      </>,
    );
    const lists = () => calls.filter((call) => call.url.startsWith('/v1/vr-users'));
    await waitFor(() => expect(lists()).toHaveLength(1));
    // The answer is in, and stale at once (this cache's stale time is 0); then the page is ready.
    await view.findByText('in flight: 0');
    await act(async () => resolve());
    await view.findByText('ready');
    expect(lists()).toHaveLength(1);
  });

  it('is sent again when the user went elsewhere meanwhile and comes back later', async () => {
    const calls = mockFetch({
      'GET /v1/vr-users': { vr_users: [], total: 0, limit: 25, offset: 0 },
    });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const lists = () => calls.filter((call) => call.url.startsWith('/v1/vr-users'));
    const left = render(
      <QueryClientProvider client={queryClient}>
        <InFlight />
        <Suspense fallback={null}>
          <VrUsers />
          <NotReady />
        </Suspense>
      </QueryClientProvider>,
    );
    await left.findByText('in flight: 0');
    left.unmount(); // gone elsewhere before the page ever showed
    expect(lists()).toHaveLength(1);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60_000 });
    const back = render(
      <QueryClientProvider client={queryClient}>
        <VrUsers />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(lists()).toHaveLength(2));
    back.unmount();
  });
});
