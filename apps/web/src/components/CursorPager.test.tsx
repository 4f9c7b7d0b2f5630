import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { CursorPager } from './CursorPager';

function pages(overrides: Partial<Parameters<typeof CursorPager>[0]['pages']> = {}) {
  return {
    atNewest: false,
    hasNewer: true,
    showNewest: vi.fn(),
    showNewer: vi.fn(),
    showOlder: vi.fn(),
    ...overrides,
  };
}

describe('the pager of a log paged by cursor', () => {
  beforeAll(() => i18n.changeLanguage('en'));

  it('is a named navigation that moves newest, newer and older', async () => {
    const user = userEvent.setup();
    const state = pages();
    renderWithProviders(<CursorPager pages={state} nextCursor="c2" label="Pages of the log" />);
    expect(screen.getByRole('navigation', { name: 'Pages of the log' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Older' }));
    expect(state.showOlder).toHaveBeenCalledWith('c2');
    await user.click(screen.getByRole('button', { name: 'Newer' }));
    expect(state.showNewer).toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Newest' }));
    expect(state.showNewest).toHaveBeenCalled();
  });

  it('on the newest page of the last one, offers no way it cannot go', () => {
    renderWithProviders(
      <CursorPager
        pages={pages({ atNewest: true, hasNewer: false })}
        nextCursor={null}
        label="Pages"
      />,
    );
    expect(screen.getByRole('button', { name: 'Newest' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Newer' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Older' })).toBeDisabled();
  });
});
