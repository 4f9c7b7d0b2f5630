import type { QueryClient } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { Suspense, use } from 'react';
import { describe, expect, it } from 'vitest';
import { useSignedInQueryClient } from './query-client';

/** A signed-in layout whose page below it waits for `ready` (its code, say) on a first visit. */
function Layout({
  userId,
  ready,
  seen,
}: {
  userId: string;
  ready: Promise<void>;
  seen: QueryClient[];
}) {
  seen.push(useSignedInQueryClient(userId));
  return <Page ready={ready} />;
}

function Page({ ready }: { ready: Promise<void> }) {
  use(ready);
  return <p>page</p>;
}

async function signedIn(userId: string, ready: Promise<void>, seen: QueryClient[]) {
  let view: ReturnType<typeof render> | undefined;
  await act(async () => {
    view = render(
      <Suspense fallback={<p>loading</p>}>
        <Layout userId={userId} ready={ready} seen={seen} />
      </Suspense>,
    );
  });
  return view!;
}

function later() {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe("the signed-in layout's query cache", () => {
  it('survives a first render React throws away, so what a screen asked for is not asked again', async () => {
    const seen: QueryClient[] = [];
    const page = later();
    const view = await signedIn('user-1', page.promise, seen);
    await act(async () => page.resolve());
    await view.findByText('page');
    expect(seen.length).toBeGreaterThan(1); // rendered afresh after the wait
    expect(new Set(seen).size).toBe(1);
    view.unmount();
  });

  it("is never handed from one account's discarded render to another account", async () => {
    const first: QueryClient[] = [];
    const stuck = await signedIn('user-1', new Promise<void>(() => undefined), first);
    stuck.unmount(); // signed out before the page ever showed
    const second: QueryClient[] = [];
    const view = await signedIn('user-2', Promise.resolve(), second);
    await view.findByText('page');
    expect(second.every((client) => !first.includes(client))).toBe(true);
    view.unmount();
  });

  it('is new after signing out and in again, even as the same account', async () => {
    const before: QueryClient[] = [];
    const first = await signedIn('user-1', Promise.resolve(), before);
    await first.findByText('page');
    first.unmount();
    const after: QueryClient[] = [];
    const again = await signedIn('user-1', Promise.resolve(), after);
    await again.findByText('page');
    expect(after.every((client) => !before.includes(client))).toBe(true);
    again.unmount();
  });
});
