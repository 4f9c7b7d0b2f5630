import { Badge, Text } from '@mantine/core';
import type { ColumnDef } from './table-model';
import { formatDate } from '../lib/format';
import { FULL_LABEL_BADGE } from './StatusBadge';

/** A row that is switched on or off (accounts, organisations, scenarios). */
interface Switchable {
  active: boolean;
}

/** The row's `active`: a green badge that says so, or a grey one that says it is not. */
export function activeColumn<T extends Switchable>(
  header: string,
  label: { active: string; inactive: string },
): ColumnDef<T, unknown> {
  return {
    accessorKey: 'active',
    header,
    cell: (c) => (
      <Badge
        color={c.row.original.active ? 'green' : 'gray'}
        variant="light"
        styles={FULL_LABEL_BADGE}
      >
        {c.row.original.active ? label.active : label.inactive}
      </Badge>
    ),
  };
}

/** The day the row was made, in the console's language, on one line. */
export function createdColumn<T extends { created_at: string }>(
  header: string,
  language: string,
): ColumnDef<T, unknown> {
  return {
    accessorKey: 'created_at',
    header,
    cell: (c) => (
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatDate(c.row.original.created_at, language)}
      </Text>
    ),
  };
}
