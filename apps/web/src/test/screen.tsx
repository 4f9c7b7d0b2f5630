import { waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { expect } from 'vitest';

/** What the screens' tests share besides rendering: their requests, the URL, a Mantine Select. */

/** The requests made to a path, as their query parameters. */
export const requestsTo = (calls: Array<{ method: string; url: string }>, path: string) =>
  calls
    .filter((call) => call.method === 'GET' && call.url.split('?')[0] === path)
    .map((call) => Object.fromEntries(new URL(call.url, 'http://localhost').searchParams));

/** The query string of the page's URL, rendered beside the screen so a test can read it. */
export function Where() {
  return <output data-testid="location">{useLocation().search}</output>;
}

/** Chooses an option of a Mantine Select (its list is the one the input controls). */
export async function pick(
  user: ReturnType<typeof userEvent.setup>,
  combobox: HTMLElement,
  option: string,
) {
  await user.click(combobox);
  await waitFor(() => expect(combobox).toHaveAttribute('aria-controls'));
  const listbox = document.getElementById(combobox.getAttribute('aria-controls')!)!;
  await user.click(within(listbox).getByRole('option', { name: option, hidden: true }));
}
