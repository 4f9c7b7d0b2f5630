import { Select, type ComboboxItem, type SelectProps } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PickerOption, PickerQuery } from '../api/lists';
import { serverFiltered, useServerOptions } from './use-server-options';

export interface ServerSelectProps extends Omit<
  SelectProps,
  'data' | 'value' | 'onChange' | 'searchable' | 'searchValue' | 'onSearchChange' | 'filter'
> {
  value: string | null;
  onChange: (value: string | null, option: PickerOption | null) => void;
  /** The options matching the typed text, asked of the server (a few at a time). */
  options: PickerQuery;
  /** The name of `value` when the options may not hold it (a value from the URL or a record). */
  valueLabel?: string;
}

/**
 * A searchable select over a list too long to load: what the user types goes to the server as
 * `q` (300 ms after the last keystroke) and the first matches are offered. The chosen value keeps
 * its name whatever the current matches are. Nothing is fetched before the list is first opened.
 */
export function ServerSelect({
  value,
  onChange,
  options,
  valueLabel,
  nothingFoundMessage,
  ...props
}: ServerSelectProps) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<PickerOption | null>(null);
  const selected = useMemo<PickerOption | null>(() => {
    if (value === null) return null;
    if (picked?.value === value) return picked;
    return valueLabel !== undefined ? { value, label: valueLabel } : null;
  }, [value, picked, valueLabel]);
  // The box shows the chosen name: that is no search, every option is offered.
  const { search, setSearch, matches, open } = useServerOptions(
    options,
    (typed) => selected !== null && typed === selected.label,
  );

  const data = useMemo(() => {
    const found = matches.data ?? [];
    return selected && !found.some((option) => option.value === selected.value)
      ? [selected, ...found]
      : found;
  }, [matches.data, selected]);

  return (
    <Select
      {...props}
      searchable
      data={data}
      value={value}
      onChange={(next: string | null, option: ComboboxItem | null) => {
        const chosen = next !== null && option ? { value: next, label: option.label } : null;
        setPicked(chosen);
        onChange(next, chosen);
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
