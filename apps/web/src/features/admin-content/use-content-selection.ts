import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../lib/api-error';
import { isUuid, useListState } from '../../lib/list-state';
import { useDeleteContent, useScenarioDetail } from '../../api/content';
import { parseTab, type Tab } from './content-tabs';
import { dropDeleted, validSelection, type ContentSelection } from './selection';

const sameSelection = (a: ContentSelection, b: ContentSelection) =>
  a.scenarioId === b.scenarioId && a.moduleId === b.moduleId && a.levelId === b.levelId;

/**
 * The content screen's tab and chosen scenario, module and level, as the URL holds them (each
 * panel keeps its own table's page, sort and search), with the chosen scenario's tree, and the
 * deletion that takes what it deleted out of the selection. A parent deleted meanwhile, or one an
 * old link names, leaves the selection too.
 */
export function useContentSelection() {
  const [searchParams] = useSearchParams();
  const tab = parseTab(searchParams.get('tab'));
  const { filters, setParams } = useListState({
    pageSize: 0,
    sortFields: [],
    filters: { scenario: isUuid, module: isUuid, level: isUuid },
  });
  // What was deleted here: out of the selection at once, before the URL (a navigation, which
  // React renders after more urgent updates such as the refreshed lists) catches up.
  const [deleted, setDeleted] = useState<ReadonlySet<string>>(() => new Set());
  const selection = dropDeleted(
    {
      scenarioId: filters.scenario ?? null,
      moduleId: filters.module ?? null,
      levelId: filters.level ?? null,
    },
    deleted,
  );
  const detail = useScenarioDetail(selection.scenarioId);

  // A deleted scenario, module or level leaves the selection before anything is refreshed: no
  // request ever names it again.
  const deleteContent = useDeleteContent((gone) => {
    setDeleted((before) => new Set([...before, ...gone]));
    const kept = dropDeleted(selection, gone);
    if (!sameSelection(kept, selection)) {
      setParams(
        { scenario: kept.scenarioId, module: kept.moduleId, level: kept.levelId },
        { replace: true },
      );
    }
  });

  /** Another tab, scenario, module or level: the table starts on its first page, unsearched. */
  const choose = (next: ContentSelection, nextTab: Tab = tab) =>
    setParams(
      {
        tab: nextTab === 'scenarios' ? null : nextTab,
        scenario: next.scenarioId,
        module: next.moduleId,
        level: next.levelId,
      },
      { resetList: true },
    );

  const scenarioGone = detail.error instanceof ApiError && detail.error.status === 404;
  const checked =
    detail.data || scenarioGone ? validSelection(selection, detail.data ?? null) : selection;
  const invalid = !sameSelection(checked, selection);
  useEffect(() => {
    if (!invalid) return;
    setParams(
      { scenario: checked.scenarioId, module: checked.moduleId, level: checked.levelId },
      { replace: true },
    );
  }, [invalid, checked.scenarioId, checked.moduleId, checked.levelId, setParams]);

  return { tab, selection, tree: detail.data, deleteContent, choose };
}
