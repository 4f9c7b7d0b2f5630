import type { ContentLevel } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { useColumns } from '../../components/use-columns';
import { PAGE_SIZE } from '../../components/DataTable';
import { useListState } from '../../lib/list-state';
import { LEVEL_SORT_FIELDS, useLevels } from '../../api/content';
import { contentActionsColumn, textColumns } from './content-cells';
import { ContentTable } from './ContentTable';
import type { PanelProps } from './panel-props';
import { ParentSelects } from './ParentSelects';
import { selectLevel } from './selection';

/** The levels tab: the chosen module's levels by number; a click opens its options. */
export function LevelsPanel({ selection, tree, choose, actions, onCreate }: PanelProps) {
  const { t } = useTranslation('adminContent');
  const list = useListState({
    pageSize: PAGE_SIZE,
    sortFields: LEVEL_SORT_FIELDS,
    defaultSort: { sort: 'level_number', order: 'asc' },
  });
  const levels = useLevels(selection.moduleId, list.query);
  const columns = useColumns<ContentLevel>(
    t,
    () => [
      { accessorKey: 'level_number', header: t('levelNumber'), meta: { card: 'fact' } },
      ...textColumns<ContentLevel>(t),
      { accessorKey: 'max_tasks', header: t('maxTasks') },
      contentActionsColumn<ContentLevel>('level', actions, t),
    ],
    [actions],
  );
  return (
    <ContentTable
      kind="level"
      filters={<ParentSelects depth={2} selection={selection} tree={tree} choose={choose} />}
      parentId={selection.moduleId}
      pickHint={t('pick.levels')}
      list={list}
      query={levels}
      rows={levels.data?.levels ?? []}
      columns={columns}
      open={(l) => choose(selectLevel(selection, l.id), 'options')}
      onCreate={onCreate}
    />
  );
}
