import {
  useQueryClient,
  type QueryFunction,
  type QueryKey,
  type UseQueryOptions,
} from '@tanstack/react-query';
import { useState } from 'react';

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
  const [sentInRender] = useState(() => {
    if (queryClient.getQueryState(options.queryKey)) return false;
    void queryClient.prefetchQuery({
      queryKey: options.queryKey,
      queryFn: options.queryFn as QueryFunction,
    });
    return true;
  });
  return sentInRender;
}
