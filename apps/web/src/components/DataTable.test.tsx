import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { useState } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SortOrder, TableState } from '../lib/list-state';
import { renderWithProviders } from '../test/render';
import { ACTIONS_COLUMN_ID, DataTable } from './DataTable';
import { PHONE_QUERY } from './phone-layout';

interface Row {
  id: string;
  name: string;
}

/** A table whose sort is held here, shown as text beside it. */
function Sorted() {
  const [sort, setSortState] = useState<{ sort?: string; order: SortOrder }>({ order: 'asc' });
  const state: TableState = {
    pageIndex: 0,
    pageSize: 10,
    setPage: () => {},
    sortFields: ['name'],
    sort: sort.sort,
    order: sort.order,
    setSort: (field, order) => setSortState({ sort: field, order }),
  };
  return (
    <>
      <DataTable<Row>
        rows={[{ id: '1', name: 'Anna' }]}
        total={1}
        getRowId={(row) => row.id}
        columns={[
          { accessorKey: 'name', header: 'Name' },
          { id: 'note', header: 'Note', cell: () => '—' },
        ]}
        state={state}
      />
      <output data-testid="sort">{`${sort.sort ?? 'default'} ${sort.order}`}</output>
    </>
  );
}

describe('a table header', () => {
  beforeAll(() => i18n.changeLanguage('en'));

  it('sorts from anywhere in its cell, and from the keyboard, once per click', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Sorted />);
    const header = screen.getByRole('columnheader', { name: /Name/ });
    // The cell itself, not its text or its button.
    await user.click(header);
    expect(screen.getByTestId('sort')).toHaveTextContent('name asc');
    expect(header).toHaveAttribute('aria-sort', 'ascending');
    await user.click(within(header).getByText('Name'));
    expect(screen.getByTestId('sort')).toHaveTextContent('name desc');
    expect(header).toHaveAttribute('aria-sort', 'descending');

    within(header).getByRole('button', { name: 'Name' }).focus();
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('sort')).toHaveTextContent('default');
    expect(header).not.toHaveAttribute('aria-sort');
    await user.keyboard(' ');
    expect(screen.getByTestId('sort')).toHaveTextContent('name asc');

    // A column that does not sort has no button and does nothing.
    const note = screen.getByRole('columnheader', { name: 'Note' });
    expect(within(note).queryByRole('button')).not.toBeInTheDocument();
    await user.click(note);
    expect(screen.getByTestId('sort')).toHaveTextContent('name asc');
  });
});

/** The window as a phone (every query of the phone layout matches) for one test. */
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

interface Person {
  id: string;
  name: string;
  status: string;
  city: string;
  secret: string;
}

function People({ onOpen }: { onOpen?: (row: Person) => void }) {
  const state: TableState = {
    pageIndex: 0,
    pageSize: 10,
    setPage: () => {},
    sortFields: [],
    sort: undefined,
    order: 'asc',
    setSort: () => {},
  };
  return (
    <DataTable<Person>
      rows={[
        { id: '1', name: 'Anna', status: 'online', city: 'Kazan', secret: 'x1' },
        { id: '2', name: 'Boris', status: 'offline', city: 'Omsk', secret: 'x2' },
      ]}
      total={2}
      getRowId={(row) => row.id}
      label="People"
      onRowClick={onOpen}
      columns={[
        { accessorKey: 'name', header: 'Name' },
        { accessorKey: 'secret', header: 'Secret' },
        { accessorKey: 'city', header: 'City', meta: { card: 'fact' } },
        { accessorKey: 'status', header: 'Status' },
        {
          id: ACTIONS_COLUMN_ID,
          header: 'Actions',
          cell: ({ row }) => <button type="button">Edit {row.original.name}</button>,
        },
      ]}
      state={state}
    />
  );
}

describe('a list on a phone', () => {
  beforeAll(() => i18n.changeLanguage('en'));

  it('is a table on a laptop', () => {
    renderWithProviders(<People />);
    expect(screen.getByRole('table')).toBeInTheDocument();
    expect(screen.queryByTestId('list-cards')).not.toBeInTheDocument();
  });

  it('is a list of cards below 600 px: the name, the status, the facts asked for, the action', async () => {
    const restore = asPhone();
    try {
      const opened: string[] = [];
      renderWithProviders(<People onOpen={(row) => opened.push(row.name)} />);
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
      const list = screen.getByRole('list', { name: 'People' });
      const cards = within(list).getAllByRole('listitem');
      expect(cards).toHaveLength(2);
      const anna = within(cards[0]!);
      expect(cards[0]!.querySelector('[data-card="title"]')).toHaveTextContent('Anna');
      expect(cards[0]!.querySelector('[data-card="status"]')).toHaveTextContent('online');
      // A fact under its column's name; a column not asked for stays off the card.
      expect(anna.getByText('City')).toBeInTheDocument();
      expect(anna.getByText('Kazan')).toBeInTheDocument();
      expect(anna.queryByText('x1')).not.toBeInTheDocument();
      expect(anna.getByRole('button', { name: 'Edit Anna' })).toBeInTheDocument();
      await userEvent.click(cards[1]!);
      expect(opened).toEqual(['Boris']);
    } finally {
      restore();
    }
  });
});
