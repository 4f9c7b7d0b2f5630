import type { OptionsFilter } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import type { PickerQuery } from '../api/lists';
import { SEARCH_DEBOUNCE_MS } from '../lib/list-state';

/** Two picker keys that differ in the typed text only (it is their last part). */
const sameListKey = (a: QueryKey, b: QueryKey) =>
  JSON.stringify(a.slice(0, -1)) === JSON.stringify(b.slice(0, -1));

/** The server has matched the typed text already: the select shows what it answered. */
export const serverFiltered: OptionsFilter = ({ options }) => options;

/**
 * The options of ServerSelect and ServerMultiSelect: what is typed (`search`, less what `ignore`
 * says is no search) goes to the server as `q` 300 ms after the last keystroke, and nothing is
 * asked for until the list is first opened (`open`).
 */
export function useServerOptions(options: PickerQuery, ignore?: (search: string) => boolean) {
  const [search, setSearch] = useState('');
  const typed = ignore?.(search) ? '' : search.trim();
  const [q] = useDebouncedValue(typed, SEARCH_DEBOUNCE_MS);
  const [opened, setOpened] = useState(false);
  const query = options(q);
  const matches = useQuery({
    ...query,
    enabled: opened && query.enabled !== false,
    // While the text changes, the last matches stay; another parent's (a module picker's after
    // another scenario) never show.
    placeholderData: (previous, previousQuery) =>
      previousQuery && sameListKey(previousQuery.queryKey, query.queryKey)
        ? keepPreviousData(previous)
        : undefined,
  });
  return { search, setSearch, matches, open: () => setOpened(true) };
}
