import { useMediaQuery } from '@mantine/hooks';

/**
 * Below 600 px (a phone, 360–414 px wide) lists are cards and their filters sit in a sheet: a
 * table of several columns does not fit without the page or the table scrolling sideways.
 */
export const PHONE_QUERY = '(max-width: 37.4375em)';

/**
 * Whether the window is phone-sized (or narrower than `query`), known at the first render so a
 * phone never shows the table for a frame before its cards.
 */
export function usePhoneLayout(query: string = PHONE_QUERY): boolean {
  const initial = typeof window !== 'undefined' && window.matchMedia(query).matches;
  return useMediaQuery(query, initial, { getInitialValueInEffect: false }) ?? initial;
}
