import { Suspense } from 'react';
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders, staffAccount as staff } from '../test/render';
import { useSessionHistory } from './sessions';
import { useVrUserList } from './vr-users';

/** A part of the page that is not ready yet: the page is rendered but never committed. */
function NotReady(): never {
  throw new Promise(() => undefined);
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
