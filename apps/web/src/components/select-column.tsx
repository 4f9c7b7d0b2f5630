import { Checkbox } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { SELECT_COLUMN_ID } from './DataTable';
import type { ColumnDef } from './table-model';

/**
 * The checkboxes' column of a table whose rows can be selected (DataTable's `selection.column`).
 * Apart from DataTable, so that a list without selection loads no checkbox (issue #27).
 */
export function useSelectColumn<T>(): ColumnDef<T> {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      id: SELECT_COLUMN_ID,
      enableSorting: false,
      header: ({ table }) => (
        <Checkbox
          aria-label={t('common:selectAll')}
          checked={table.getIsAllPageRowsSelected()}
          indeterminate={table.getIsSomePageRowsSelected()}
          onChange={table.getToggleAllPageRowsSelectedHandler()}
        />
      ),
      cell: ({ row }) => (
        <Checkbox
          aria-label={t('common:selectRow')}
          checked={row.getIsSelected()}
          disabled={!row.getCanSelect()}
          onClick={(event) => event.stopPropagation()}
          onChange={row.getToggleSelectedHandler()}
        />
      ),
    }),
    [t],
  );
}
