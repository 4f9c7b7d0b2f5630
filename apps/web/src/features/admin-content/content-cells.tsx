import { actionsColumn } from '../../components/RowActions';
import { Stack, Text } from '@mantine/core';
import type { ColumnDef } from '../../components/table-model';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ContentItem, ContentKind } from '../../api/content';

/** What a row's buttons do: open the edit dialog, or ask to delete the item. */
export interface RowActions {
  onEdit: (kind: ContentKind, item: ContentItem) => void;
  onDelete: (kind: ContentKind, item: ContentItem) => void;
}

/** Both texts: the primary (Russian) name, and the English one under it when there is one. */
export function NameCell({ item }: { item: ContentItem }) {
  return (
    <Stack gap={0}>
      <Text fw={500} size="sm">
        {item.name}
      </Text>
      {item.name_en ? (
        <Text size="xs" c="dimmed" lang="en" data-testid="name-en">
          {item.name_en}
        </Text>
      ) : null}
    </Stack>
  );
}

export function DescriptionCell({ description }: { description: string }) {
  const { t } = useTranslation('adminContent');
  return (
    <Text size="sm" c={description ? undefined : 'dimmed'} lineClamp={2} maw={360}>
      {description || t('common:none')}
    </Text>
  );
}

/** The name and description columns every content table starts with (after its number). */
export function textColumns<T extends ContentItem>(t: TFunction): ColumnDef<T, unknown>[] {
  return [
    { accessorKey: 'name', header: t('name'), cell: (c) => <NameCell item={c.row.original} /> },
    {
      accessorKey: 'description',
      header: t('description'),
      cell: (c) => <DescriptionCell description={c.row.original.description} />,
    },
  ];
}

/** The edit and delete buttons of a row (a click on them does not open the row). */
export function contentActionsColumn<T extends ContentItem>(
  kind: ContentKind,
  actions: RowActions,
  t: TFunction,
): ColumnDef<T, unknown> {
  return actionsColumn<T>(t, (item) => [
    { kind: 'edit', onClick: () => actions.onEdit(kind, item) },
    { kind: 'delete', onClick: () => actions.onDelete(kind, item) },
  ]);
}
