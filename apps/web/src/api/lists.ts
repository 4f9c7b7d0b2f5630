import {
  useQueryClient,
  type Query,
  type QueryFunction,
  type QueryKey,
  type UseQueryOptions,
} from '@tanstack/react-query';
import { useEffect, useState } from 'react';

/** How many matches a searchable select asks the server for at a time. */
export const PICKER_LIMIT = 20;

/** One choice of a searchable select (Mantine's ComboboxItem). */
export interface PickerOption {
  value: string;
  label: string;
}

/**
 * The query that answers the options matching the typed text `q` (the first PICKER_LIMIT); its
 * key ends with `q`.
 */
export type PickerQuery = (q: string) => Omit<
  UseQueryOptions<PickerOption[], Error, PickerOption[], QueryKey>,
  'enabled'
> & {
  enabled?: boolean;
};

/**
 * List requests sent in a render React has not committed yet, and when. On a first visit React may
 * throw that render away (a part of the page still loading) and render the screen afresh, with
 * new state; the fresh render takes the request over instead of asking again, even when the answer
 * came back longer ago than the stale time (a computer twelve times slower). A render thrown away
 * because the user went elsewhere is not taken over when they come back later.
 */
const sentUncommitted = new WeakMap<Query, number>();
const TAKE_OVER_WITHIN_MS = 30_000;

/**
 * Sends a screen's first list request as the screen first renders (as `usePrefetchQuery` does)
 * rather than once the whole signed-in layout above it is committed: on a first visit the layout's
 * commit and its effects come first, and the list's answer is what the first rows wait for.
 * Returns whether it was sent so: the screen's `useQuery` then takes `refetchOnMount: false`, so an
 * answer that came back before the screen was committed is not asked for again. Later requests
 * (another page, a filter) go as before.
 */
export function useListRequestInRender(options: {
  queryKey: QueryKey;
  queryFn?: unknown;
}): boolean {
  const queryClient = useQueryClient();
  const [request] = useState(() => {
    const cache = queryClient.getQueryCache();
    const known = cache.find({ queryKey: options.queryKey, exact: true });
    if (known) {
      const sentAt = sentUncommitted.get(known);
      return {
        query: known,
        sentInRender: sentAt !== undefined && Date.now() - sentAt < TAKE_OVER_WITHIN_MS,
      };
    }
    void queryClient.prefetchQuery({
      queryKey: options.queryKey,
      queryFn: options.queryFn as QueryFunction,
    });
    const query = cache.find({ queryKey: options.queryKey, exact: true });
    if (query) sentUncommitted.set(query, Date.now());
    return { query, sentInRender: true };
  });
  useEffect(() => {
    if (request.query) sentUncommitted.delete(request.query);
  }, [request.query]);
  return request.sentInRender;
}
