import type { ScenarioSummary } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { useColumns } from '../../components/use-columns';
import { PAGE_SIZE } from '../../components/DataTable';
import { activeColumn, createdColumn } from '../../components/status-columns';
import { useListState } from '../../lib/list-state';
import { SCENARIO_SORT_FIELDS, useScenarios } from '../../api/content';
import { contentActionsColumn, textColumns } from './content-cells';
import { ContentTable } from './ContentTable';
import type { PanelProps } from './panel-props';
import { selectScenario } from './selection';

/** The scenarios tab: every scenario, by name unless sorted; a click opens its modules. */
export function ScenariosPanel({ selection, choose, actions, onCreate }: PanelProps) {
  const { t, i18n } = useTranslation('adminContent');
  const list = useListState({
    pageSize: PAGE_SIZE,
    sortFields: SCENARIO_SORT_FIELDS,
    defaultSort: { sort: 'name', order: 'asc' },
  });
  const scenarios = useScenarios(list.query);
  const columns = useColumns<ScenarioSummary>(
    t,
    () => [
      ...textColumns<ScenarioSummary>(t),
      { accessorKey: 'module_count', header: t('moduleCount') },
      activeColumn(t('status'), { active: t('active'), inactive: t('inactive') }),
      createdColumn(t('createdAt'), i18n.language),
      contentActionsColumn<ScenarioSummary>('scenario', actions, t),
    ],
    [actions],
  );
  return (
    <ContentTable
      kind="scenario"
      list={list}
      query={scenarios}
      rows={scenarios.data?.scenarios ?? []}
      columns={columns}
      open={(s) => choose(selectScenario(selection, s.id), 'modules')}
      onCreate={onCreate}
    />
  );
}
