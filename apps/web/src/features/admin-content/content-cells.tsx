import { actionsColumn } from '../../components/RowActions';
import { Stack, Text } from '@mantine/core';
import type { ColumnDef } from '../../components/table-model';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ContentItem, ContentKind } from '../../api/content';
import { useContentText } from '../../lib/content-text';

/** What a row's buttons do: open the edit dialog, or ask to delete the item. */
export interface RowActions {
  onEdit: (kind: ContentKind, item: ContentItem) => void;
  onDelete: (kind: ContentKind, item: ContentItem) => void;
}

/**
 * Both texts, the console's language first: in Russian the primary name with the English one
 * under it; in English the English name (when there is one) with the Russian one under it.
 */
export function NameCell({ item }: { item: ContentItem }) {
  const { i18n } = useTranslation();
  const english = i18n.language === 'en' && Boolean(item.name_en);
  const [first, second] = english ? [item.name_en, item.name] : [item.name, item.name_en];
  return (
    <Stack gap={0}>
      <Text fw={500} size="sm">
        {first}
      </Text>
      {second ? (
        <Text
          size="xs"
          c="dimmed"
          lang={english ? 'ru' : 'en'}
          data-testid={english ? 'name-ru' : 'name-en'}
        >
          {second}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The description in the console's language, the other one when it has none. */
export function DescriptionCell({ item }: { item: ContentItem }) {
  const { t } = useTranslation('adminContent');
  const description = useContentText().description(item);
  return (
    <Text size="sm" c={description ? undefined : 'dimmed'} lineClamp={2} maw={360}>
      {description || t('common:none')}
    </Text>
  );
}

/** The name and description columns every content table starts with (after its number). */
export function textColumns<T extends ContentItem>(t: TFunction): ColumnDef<T, unknown>[] {
  return [
    // On a phone's card the name is the title and the description a fact, not the number that
    // comes first in most content tables.
    {
      accessorKey: 'name',
      header: t('name'),
      cell: (c) => <NameCell item={c.row.original} />,
      meta: { card: 'title' },
    },
    {
      accessorKey: 'description',
      header: t('description'),
      cell: (c) => <DescriptionCell item={c.row.original} />,
      meta: { card: 'fact' },
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
