import { describe, expect, it } from 'vitest';
import {
  createTable,
  type ColumnDef,
  type RowSelectionState,
  type SortingState,
} from './table-model';

interface Person {
  id: string;
  name: string;
  age: number;
  busy: boolean;
}

const people: Person[] = [
  { id: 'a', name: 'Anna', age: 30, busy: false },
  { id: 'b', name: 'Boris', age: 41, busy: true },
];

const columns: ColumnDef<Person>[] = [
  { accessorKey: 'name', header: 'Name' },
  { accessorKey: 'age', header: 'Age' },
  { id: 'since', accessorFn: (person) => `${person.age} years`, sortDescFirst: true },
  { id: 'actions', header: 'Actions', cell: () => null },
];

/** The table after `clicks` clicks on one header, each applied as DataTable applies them. */
function sortAfterClicks(columnId: string, clicks: number) {
  let sorting: SortingState = [];
  for (let click = 0; click < clicks; click++) {
    const table = createTable({
      data: people,
      columns,
      getRowId: (person) => person.id,
      state: { sorting, rowSelection: {} },
      onSortingChange: (updater) => {
        sorting = typeof updater === 'function' ? updater(sorting) : updater;
      },
      enableRowSelection: false,
      onRowSelectionChange: () => undefined,
    });
    const header = table.getHeaderGroups()[0]!.headers.find((h) => h.column.id === columnId)!;
    header.column.getToggleSortingHandler()();
  }
  return sorting;
}

describe('the table model (as TanStack Table 8 behaves)', () => {
  it('sorts text ascending first, figures descending first, and a third click clears', () => {
    expect([1, 2, 3].map((clicks) => sortAfterClicks('name', clicks))).toEqual([
      [{ id: 'name', desc: false }],
      [{ id: 'name', desc: true }],
      [],
    ]);
    expect([1, 2, 3].map((clicks) => sortAfterClicks('age', clicks))).toEqual([
      [{ id: 'age', desc: true }],
      [{ id: 'age', desc: false }],
      [],
    ]);
    // A column may say it starts descending, whatever its values.
    expect(sortAfterClicks('since', 1)).toEqual([{ id: 'since', desc: true }]);
  });

  it('gives ids and values by accessor, and sorts only columns that have a value', () => {
    const table = createTable({
      data: people,
      columns,
      getRowId: (person) => person.id,
      state: { sorting: [{ id: 'age', desc: true }], rowSelection: {} },
      onSortingChange: () => undefined,
      enableRowSelection: false,
      onRowSelectionChange: () => undefined,
    });
    const headers = table.getHeaderGroups()[0]!.headers;
    expect(headers.map((header) => header.column.id)).toEqual(['name', 'age', 'since', 'actions']);
    expect(headers.map((header) => header.column.getCanSort())).toEqual([true, true, true, false]);
    expect(headers.map((header) => header.column.getIsSorted())).toEqual([
      false,
      'desc',
      false,
      false,
    ]);
    const [first] = table.getRowModel().rows;
    expect(first!.getVisibleCells().map((cell) => [cell.id, cell.getValue()])).toEqual([
      ['a_name', 'Anna'],
      ['a_age', 30],
      ['a_since', '30 years'],
      ['a_actions', undefined],
    ]);
  });

  it('selects within the page only the rows that may be selected', () => {
    let selected: RowSelectionState = {};
    const build = () =>
      createTable({
        data: people,
        columns,
        getRowId: (person) => person.id,
        state: { sorting: [], rowSelection: selected },
        onSortingChange: () => undefined,
        enableRowSelection: (row) => !row.original.busy,
        onRowSelectionChange: (updater) => {
          selected = typeof updater === 'function' ? updater(selected) : updater;
        },
      });
    const event = (checked: boolean) =>
      ({ target: { checked } }) as unknown as Parameters<
        ReturnType<ReturnType<typeof build>['getToggleAllPageRowsSelectedHandler']>
      >[0];
    build().getToggleAllPageRowsSelectedHandler()(event(true));
    expect(selected).toEqual({ a: true });
    expect(build().getIsAllPageRowsSelected()).toBe(true);
    expect(build().getIsSomePageRowsSelected()).toBe(false);
    build().getRowModel().rows[0]!.getToggleSelectedHandler()(event(false));
    expect(selected).toEqual({});
    expect(build().getIsAllPageRowsSelected()).toBe(false);
  });
});
