import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/api-error';

export function createQueryClient() {
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
