import { QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError } from '../lib/api-error';

function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Client errors (404, 403, validation) will not fix themselves by retrying.
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status < 500) && failureCount < 2,
        refetchOnWindowFocus: true,
        staleTime: 2000,
      },
    },
  });
}

/**
 * The cache a signed-in layout made in a render React has not committed yet, and whose account.
 * When something suspends on a first visit, React throws that render away with its state and
 * renders the layout afresh; the list request a screen sent meanwhile went into this cache, so the
 * next render takes it over instead of starting empty and asking again.
 */
let uncommitted: { userId: string; client: QueryClient } | undefined;

/**
 * The signed-in layout's query cache: one per sign-in, gone with the layout on sign-out. A render
 * React discarded hands its cache on only to the same account's next render.
 */
export function useSignedInQueryClient(userId: string): QueryClient {
  const [client] = useState(() => {
    if (uncommitted?.userId === userId) return uncommitted.client;
    const created = createQueryClient();
    uncommitted = { userId, client: created };
    return created;
  });
  useEffect(() => {
    if (uncommitted?.client === client) uncommitted = undefined;
  }, [client]);
  return client;
}
