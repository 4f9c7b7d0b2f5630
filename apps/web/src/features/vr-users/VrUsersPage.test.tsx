import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { VrUser } from '@vrtc/contract';
import i18n from 'i18next';
import { notifications } from '@mantine/notifications';
import { useLocation } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listAnswer } from '../../test/lists';
import { mockFetch, renderWithProviders } from '../../test/render';
import { VrUsersPage } from './VrUsersPage';

const UI_TIMEOUT = 30_000;

/** Trainee 01 … Trainee 12: Trainee N has N sessions and was created on day N of May. */
const trainees: VrUser[] = Array.from({ length: 12 }, (_, index) => {
  const n = index + 1;
  return {
    id: `00000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`,
    name: `Trainee ${String(n).padStart(2, '0')}`,
    notes: n === 7 ? 'Night shift' : null,
    external_id: n === 7 ? 'emp-0007' : null,
    session_count: n,
    completed_count: 0,
    last_session_at: null,
    created_at: `2026-05-${String(n).padStart(2, '0')}T10:00:00.000Z`,
  };
});

function fakeServer() {
  return mockFetch({
    'GET /v1/vr-users': ({ url }) =>
      listAnswer('vr_users', trainees, url, { search: ['name', 'notes'], defaultSort: 'name' }),
  });
}

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.search}</output>;
}

function renderPage(route = '/vr-users') {
  return renderWithProviders(
    <>
      <VrUsersPage />
      <Where />
    </>,
    { route },
  );
}

/** The names in the table, top to bottom. */
const names = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]!.textContent);

/** The list requests made, as their query parameters. */
const listRequests = (calls: Array<{ method: string; url: string }>) =>
  calls
    .filter((call) => call.method === 'GET' && call.url.startsWith('/v1/vr-users?'))
    .map((call) => Object.fromEntries(new URL(call.url, 'http://localhost').searchParams));

describe('VR users table, paged, sorted and searched on the server', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });
  afterEach(() => notifications.clean());

  it(
    'asks the server for the next page and for a sort, and keeps both in the URL',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = fakeServer();
      renderPage();

      await screen.findByText('Trainee 10', {}, { timeout: 5000 });
      expect(listRequests(calls)).toEqual([
        { limit: '10', offset: '0', sort: 'name', order: 'asc' },
      ]);
      expect(names()).toHaveLength(10);
      expect(screen.getByText('12 rows')).toBeInTheDocument();
      expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Next' }));
      await screen.findByText('Trainee 12');
      expect(names()).toEqual(['Trainee 11', 'Trainee 12']);
      expect(listRequests(calls).at(-1)).toEqual({
        limit: '10',
        offset: '10',
        sort: 'name',
        order: 'asc',
      });
      expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
      expect(screen.getByTestId('location')).toHaveTextContent('?page=2');

      // A figure sorts from the largest first; a new sort starts again on page 1.
      await user.click(screen.getByRole('button', { name: 'Sessions' }));
      await waitFor(() => expect(names()[0]).toBe('Trainee 12'));
      expect(listRequests(calls).at(-1)).toEqual({
        limit: '10',
        offset: '0',
        sort: 'session_count',
        order: 'desc',
      });
      expect(names()).toHaveLength(10);
      expect(screen.getByRole('columnheader', { name: /Sessions/ })).toHaveAttribute(
        'aria-sort',
        'descending',
      );
      expect(screen.getByTestId('location')).toHaveTextContent('?sort=session_count&order=desc');

      await user.click(screen.getByRole('button', { name: 'Sessions' }));
      await waitFor(() => expect(names()[0]).toBe('Trainee 01'));
      expect(listRequests(calls).at(-1)).toMatchObject({ sort: 'session_count', order: 'asc' });
    },
    UI_TIMEOUT,
  );

  it(
    'sends the search as q once the typing stops, and starts again on page 1',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = fakeServer();
      renderPage('/vr-users?page=2');
      await screen.findByText('Trainee 12', {}, { timeout: 5000 });

      await user.type(screen.getByRole('textbox', { name: 'Search VR users' }), 'trainee 1');
      await waitFor(() => expect(names()).toEqual(['Trainee 10', 'Trainee 11', 'Trainee 12']));
      // One request for the whole word, none per keystroke.
      const searches = listRequests(calls).filter((query) => 'q' in query);
      expect(searches).toEqual([
        { limit: '10', offset: '0', sort: 'name', order: 'asc', q: 'trainee 1' },
      ]);
      expect(screen.getByText('3 rows')).toBeInTheDocument();
      expect(screen.getByTestId('location')).toHaveTextContent('?q=trainee+1');

      // Notes are searched too.
      await user.clear(screen.getByRole('textbox', { name: 'Search VR users' }));
      await user.type(screen.getByRole('textbox', { name: 'Search VR users' }), 'NIGHT');
      await waitFor(() => expect(names()).toEqual(['Trainee 07']));

      await user.clear(screen.getByRole('textbox', { name: 'Search VR users' }));
      await user.type(screen.getByRole('textbox', { name: 'Search VR users' }), 'nobody');
      expect(await screen.findByText('No VR users match the search')).toBeInTheDocument();
    },
    UI_TIMEOUT,
  );

  it(
    'opens on the page, sort and search a link carries',
    async () => {
      const calls = fakeServer();
      renderPage('/vr-users?page=2&sort=created_at&order=desc&q=trainee');
      await screen.findByText('Trainee 01', {}, { timeout: 5000 });
      expect(listRequests(calls)).toEqual([
        { limit: '10', offset: '10', sort: 'created_at', order: 'desc', q: 'trainee' },
      ]);
      expect(names()).toEqual(['Trainee 02', 'Trainee 01']);
      expect(screen.getByRole('textbox', { name: 'Search VR users' })).toHaveValue('trainee');
      expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
      expect(screen.getByRole('columnheader', { name: /Created/ })).toHaveAttribute(
        'aria-sort',
        'descending',
      );
    },
    UI_TIMEOUT,
  );

  it('moves to the last page that exists when a link points past the end', async () => {
    const calls = fakeServer();
    renderPage('/vr-users?page=5');
    await screen.findByText('Trainee 12', {}, { timeout: 5000 });
    expect(listRequests(calls).map((query) => query.offset)).toEqual(['40', '10']);
    expect(screen.getByTestId('location')).toHaveTextContent('?page=2');
  });
});
