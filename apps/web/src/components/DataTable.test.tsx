import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { useState } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SortOrder, TableState } from '../lib/list-state';
import { renderWithProviders } from '../test/render';
import { DataTable } from './DataTable';

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
