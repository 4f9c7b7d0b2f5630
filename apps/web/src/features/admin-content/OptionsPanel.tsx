import type { LevelOption } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { useColumns } from '../../components/use-columns';
import { PAGE_SIZE } from '../../components/DataTable';
import { useListState } from '../../lib/list-state';
import { OPTION_SORT_FIELDS, useLevelOptions } from '../../api/content';
import { contentActionsColumn, textColumns } from './content-cells';
import { ContentTable } from './ContentTable';
import type { PanelProps } from './panel-props';
import { ParentSelects } from './ParentSelects';

/** The options tab: the chosen level's options in order. */
export function OptionsPanel({ selection, tree, choose, actions, onCreate }: PanelProps) {
  const { t } = useTranslation('adminContent');
  const list = useListState({
    pageSize: PAGE_SIZE,
    sortFields: OPTION_SORT_FIELDS,
    defaultSort: { sort: 'order_index', order: 'asc' },
  });
  const options = useLevelOptions(selection.levelId, list.query);
  const columns = useColumns<LevelOption>(
    t,
    () => [
      { accessorKey: 'order_index', header: t('orderIndex'), meta: { card: 'fact' } },
      ...textColumns<LevelOption>(t),
      contentActionsColumn<LevelOption>('option', actions, t),
    ],
    [actions],
  );
  return (
    <ContentTable
      kind="option"
      filters={<ParentSelects depth={3} selection={selection} tree={tree} choose={choose} />}
      parentId={selection.levelId}
      pickHint={t('pick.options')}
      list={list}
      query={options}
      rows={options.data?.options ?? []}
      columns={columns}
      onCreate={onCreate}
    />
  );
}
