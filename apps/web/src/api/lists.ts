import type { QueryKey, UseQueryOptions } from '@tanstack/react-query';

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
