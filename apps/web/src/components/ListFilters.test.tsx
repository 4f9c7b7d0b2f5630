import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { ListFilters } from './ListFilters';
import { PHONE_QUERY } from './phone-layout';

function asPhone() {
  const laptop = window.matchMedia;
  window.matchMedia = ((query: string) => ({
    ...laptop(query),
    matches: query === PHONE_QUERY,
    media: query,
  })) as typeof window.matchMedia;
  return () => {
    window.matchMedia = laptop;
  };
}

const filters = (
  <label>
    Status
    <input />
  </label>
);

describe("a list's filters", () => {
  beforeAll(() => i18n.changeLanguage('en'));

  it('stand in place on a laptop', () => {
    renderWithProviders(<ListFilters active={1}>{filters}</ListFilters>);
    expect(screen.getByRole('textbox', { name: 'Status' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Filters/ })).not.toBeInTheDocument();
  });

  it('open in a sheet from a button on a phone, by keyboard, and close with Escape', async () => {
    const restore = asPhone();
    try {
      const user = userEvent.setup();
      renderWithProviders(<ListFilters active={2}>{filters}</ListFilters>);
      expect(screen.queryByRole('textbox', { name: 'Status' })).not.toBeInTheDocument();
      const open = screen.getByRole('button', { name: 'Filters (2)' });
      expect(open).toHaveAttribute('aria-haspopup', 'dialog');
      open.focus();
      await user.keyboard('{Enter}');
      const sheet = await screen.findByRole('dialog', { name: 'Filters' });
      expect(within(sheet).getByRole('textbox', { name: 'Status' })).toBeInTheDocument();
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(screen.getByRole('button', { name: 'Filters (2)' })).toBeInTheDocument();
    } finally {
      restore();
    }
  });
});
