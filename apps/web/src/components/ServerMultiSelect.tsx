import { MultiSelect, type ComboboxItem, type MultiSelectProps } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PickerOption, PickerQuery } from '../api/lists';
import { serverFiltered, useServerOptions } from './use-server-options';

export interface ServerMultiSelectProps extends Omit<
  MultiSelectProps,
  'data' | 'value' | 'onChange' | 'searchable' | 'searchValue' | 'onSearchChange' | 'filter'
> {
  value: string[];
  onChange: (values: string[]) => void;
  /** The options matching the typed text, asked of the server (a few at a time). */
  options: PickerQuery;
}

/**
 * ServerSelect's many-values twin: what the user types goes to the server as `q` (300 ms after
 * the last keystroke) and the first matches are offered; the chosen values keep their names
 * whatever the current matches are. Nothing is fetched before the list is first opened.
 */
export function ServerMultiSelect({
  value,
  onChange,
  options,
  nothingFoundMessage,
  ...props
}: ServerMultiSelectProps) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<Record<string, string>>({});
  const { search, setSearch, matches, open } = useServerOptions(options);

  // The matches, and every chosen value (its pill needs its name) that is not among them.
  const data = useMemo<PickerOption[]>(() => {
    const found = matches.data ?? [];
    const missing = value
      .filter((id) => !found.some((option) => option.value === id) && picked[id] !== undefined)
      .map((id) => ({ value: id, label: picked[id]! }));
    return [...found, ...missing];
  }, [matches.data, value, picked]);

  return (
    <MultiSelect
      {...props}
      searchable
      data={data}
      value={value}
      onChange={(next: string[]) => {
        const labels: Record<string, string> = {};
        for (const id of next) {
          const option: ComboboxItem | undefined = data.find((item) => item.value === id);
          labels[id] = option?.label ?? picked[id] ?? id;
        }
        setPicked(labels);
        onChange(next);
      }}
      searchValue={search}
      onSearchChange={setSearch}
      filter={serverFiltered}
      onDropdownOpen={() => {
        open();
        props.onDropdownOpen?.();
      }}
      nothingFoundMessage={matches.isFetching ? t('common:loading') : nothingFoundMessage}
    />
  );
}
