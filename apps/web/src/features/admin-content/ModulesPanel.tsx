import type { ContentModule } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { useColumns } from '../../components/use-columns';
import { PAGE_SIZE } from '../../components/DataTable';
import { useListState } from '../../lib/list-state';
import { MODULE_SORT_FIELDS, useModules } from '../../api/content';
import { contentActionsColumn, textColumns } from './content-cells';
import { ContentTable } from './ContentTable';
import type { PanelProps } from './panel-props';
import { ParentSelects } from './ParentSelects';
import { selectModule } from './selection';

/** The modules tab: the chosen scenario's modules in order; a click opens its levels. */
export function ModulesPanel({ selection, tree, choose, actions, onCreate }: PanelProps) {
  const { t } = useTranslation('adminContent');
  const list = useListState({
    pageSize: PAGE_SIZE,
    sortFields: MODULE_SORT_FIELDS,
    defaultSort: { sort: 'order_index', order: 'asc' },
  });
  const modules = useModules(selection.scenarioId, list.query);
  const columns = useColumns<ContentModule>(
    t,
    () => [
      { accessorKey: 'order_index', header: t('orderIndex'), meta: { card: 'fact' } },
      ...textColumns<ContentModule>(t),
      contentActionsColumn<ContentModule>('module', actions, t),
    ],
    [actions],
  );
  return (
    <ContentTable
      kind="module"
      filters={<ParentSelects depth={1} selection={selection} tree={tree} choose={choose} />}
      parentId={selection.scenarioId}
      pickHint={t('pick.modules')}
      list={list}
      query={modules}
      rows={modules.data?.modules ?? []}
      columns={columns}
      open={(m) => choose(selectModule(selection, m.id), 'levels')}
      onCreate={onCreate}
    />
  );
}
