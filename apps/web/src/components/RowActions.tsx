import { ActionIcon, Group } from '@mantine/core';
import { IconPencil, IconTrash, type Icon } from '@tabler/icons-react';
import type { ColumnDef } from './table-model';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ACTIONS_COLUMN_ID } from './DataTable';
import { Tooltip } from './Tooltip';

/** One button of a table row: an icon with its tooltip, which is also its accessible name. */
export interface RowAction {
  /** 'edit' and 'delete' bring their icon, colour and label ("Edit", "Delete"). */
  kind?: 'edit' | 'delete';
  label?: string;
  icon?: Icon;
  color?: string;
  /** The accessible name when it must say more than the tooltip (which row it acts on). */
  ariaLabel?: string;
  /** Why the action is not possible now: the button is disabled and the tooltip says this. */
  disabledReason?: string | false;
  onClick: () => void;
}

const presets = {
  edit: { icon: IconPencil, color: undefined, label: 'common:edit' },
  delete: { icon: IconTrash, color: 'red', label: 'common:delete' },
} as const;

/**
 * A row's buttons, written once for every table. A click on them does not reach the row (rows
 * that open something on click stay shut).
 */
export function RowActions({ actions }: { actions: RowAction[] }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap" onClick={(event) => event.stopPropagation()}>
      {actions.map((action, index) => {
        const preset = action.kind ? presets[action.kind] : undefined;
        const label = action.label ?? (preset ? t(preset.label) : '');
        const Icon = action.icon ?? preset?.icon ?? IconPencil;
        const button = (
          <ActionIcon
            variant="subtle"
            color={action.color ?? preset?.color}
            disabled={Boolean(action.disabledReason)}
            onClick={action.onClick}
            aria-label={action.ariaLabel ?? label}
          >
            <Icon size={18} />
          </ActionIcon>
        );
        return (
          <Tooltip key={index} label={action.disabledReason || label}>
            {/* A span keeps the tooltip working on a disabled button. */}
            {action.disabledReason !== undefined ? <span>{button}</span> : button}
          </Tooltip>
        );
      })}
    </Group>
  );
}

/** The last column of a table: the row's buttons, never sorted. */
export function actionsColumn<T>(
  t: TFunction,
  actionsOf: (row: T) => RowAction[],
): ColumnDef<T, unknown> {
  return {
    id: ACTIONS_COLUMN_ID,
    header: t('common:actions'),
    enableSorting: false,
    cell: ({ row }) => <RowActions actions={actionsOf(row.original)} />,
  };
}
