import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import {
  IconFolders,
  IconLayersSubtract,
  IconListCheck,
  IconPencil,
  IconPlus,
  IconSearch,
  IconStairs,
  IconTrash,
} from '@tabler/icons-react';
import type { ColumnDef } from '@tanstack/react-table';
import type { ContentLevel, ContentModule, LevelOption, ScenarioSummary } from '@vrtc/contract';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { errorText } from '../../lib/error-text';
import { confirmAction } from '../../components/confirm';
import { DataTable, PAGE_SIZE } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { ServerSelect } from '../../components/ServerSelect';
import { formatDate } from '../../lib/format';
import { isUuid, useListState, type SortOrder } from '../../lib/list-state';
import { notifyError, notifySuccess } from '../../lib/notify';
import {
  LEVEL_SORT_FIELDS,
  levelLabel,
  levelOptions,
  MODULE_SORT_FIELDS,
  moduleOptions,
  OPTION_SORT_FIELDS,
  SCENARIO_SORT_FIELDS,
  scenarioOptions,
  useDeleteContent,
  useLevelOptions,
  useLevels,
  useModules,
  useScenarioDetail,
  useScenarios,
  type ContentItem,
  type ContentKind,
} from './api';
import { ContentFormModal, type ContentFormTarget } from './ContentFormModal';
import {
  dropDeleted,
  missingParent,
  nextNumber,
  parentOf,
  selectLevel,
  selectModule,
  selectScenario,
  validSelection,
  type ContentSelection,
} from './selection';

/** Table badges show their whole label: a narrow column never cuts it to an ellipsis. */
const FULL_LABEL = { label: { overflow: 'visible' } } as const;

type Tab = 'scenarios' | 'modules' | 'levels' | 'options';
const TABS: { tab: Tab; kind: ContentKind; icon: ReactNode }[] = [
  { tab: 'scenarios', kind: 'scenario', icon: <IconFolders size={16} /> },
  { tab: 'modules', kind: 'module', icon: <IconLayersSubtract size={16} /> },
  { tab: 'levels', kind: 'level', icon: <IconStairs size={16} /> },
  { tab: 'options', kind: 'option', icon: <IconListCheck size={16} /> },
];
const kindOf = (tab: Tab) => TABS.find((entry) => entry.tab === tab)!.kind;
const parseTab = (value: string | null): Tab =>
  TABS.find((entry) => entry.tab === value)?.tab ?? 'scenarios';

/** Each tab's table: its sortable columns and the order the server uses by default. */
const TAB_SORTS: Record<Tab, { fields: readonly string[]; sort: string; order: SortOrder }> = {
  scenarios: { fields: SCENARIO_SORT_FIELDS, sort: 'name', order: 'asc' },
  modules: { fields: MODULE_SORT_FIELDS, sort: 'order_index', order: 'asc' },
  levels: { fields: LEVEL_SORT_FIELDS, sort: 'level_number', order: 'asc' },
  options: { fields: OPTION_SORT_FIELDS, sort: 'order_index', order: 'asc' },
};

/**
 * Scenarios, modules, levels and options, each a table the server pages, sorts and searches. The
 * tab (`tab`), the chosen scenario, module and level (`scenario`, `module`, `level`) and the
 * table's page, sort and search live in the URL; another tab or parent starts on a first page.
 */
export function ContentPage() {
  const { t, i18n } = useTranslation('adminContent');
  const [searchParams] = useSearchParams();
  const tab = parseTab(searchParams.get('tab'));
  const sorts = TAB_SORTS[tab];
  const list = useListState({
    pageSize: PAGE_SIZE,
    sortFields: sorts.fields,
    defaultSort: { sort: sorts.sort, order: sorts.order },
    filters: { scenario: isUuid, module: isUuid, level: isUuid },
  });
  // What was deleted here: out of the selection at once, before the URL (a navigation, which
  // React renders after more urgent updates such as the refreshed lists) catches up.
  const [deleted, setDeleted] = useState<ReadonlySet<string>>(() => new Set());
  const selection: ContentSelection = dropDeleted(
    {
      scenarioId: list.filters.scenario ?? null,
      moduleId: list.filters.module ?? null,
      levelId: list.filters.level ?? null,
    },
    deleted,
  );
  const [formTarget, setFormTarget] = useState<ContentFormTarget | undefined>();

  // Only the open tab's table is asked for.
  const scenarios = useScenarios(list.query, tab === 'scenarios');
  const modules = useModules(tab === 'modules' ? selection.scenarioId : null, list.query);
  const levels = useLevels(tab === 'levels' ? selection.moduleId : null, list.query);
  const options = useLevelOptions(tab === 'options' ? selection.levelId : null, list.query);
  const detail = useScenarioDetail(selection.scenarioId);
  const { setParams } = list;
  // A deleted scenario, module or level leaves the selection before anything is refreshed: no
  // request ever names it again.
  const deleteContent = useDeleteContent((gone) => {
    setDeleted((before) => new Set([...before, ...gone]));
    const kept = dropDeleted(selection, gone);
    if (
      kept.scenarioId !== selection.scenarioId ||
      kept.moduleId !== selection.moduleId ||
      kept.levelId !== selection.levelId
    ) {
      setParams(
        { scenario: kept.scenarioId, module: kept.moduleId, level: kept.levelId },
        { replace: true },
      );
    }
  });

  const chosenModule = detail.data?.modules.find((m) => m.id === selection.moduleId);
  const chosenLevel = chosenModule?.levels.find((l) => l.id === selection.levelId);

  /** Another tab, scenario, module or level: the table starts on its first page, unsearched. */
  function choose(next: ContentSelection, nextTab: Tab = tab) {
    list.setParams(
      {
        tab: nextTab === 'scenarios' ? null : nextTab,
        scenario: next.scenarioId,
        module: next.moduleId,
        level: next.levelId,
      },
      { resetList: true },
    );
  }

  // A parent deleted meanwhile, or one an old link names, leaves the selection.
  const scenarioGone = detail.error instanceof ApiError && detail.error.status === 404;
  const checked =
    detail.data || scenarioGone ? validSelection(selection, detail.data ?? null) : selection;
  const invalid =
    checked.scenarioId !== selection.scenarioId ||
    checked.moduleId !== selection.moduleId ||
    checked.levelId !== selection.levelId;
  useEffect(() => {
    if (!invalid) return;
    setParams(
      { scenario: checked.scenarioId, module: checked.moduleId, level: checked.levelId },
      { replace: true },
    );
  }, [invalid, checked.scenarioId, checked.moduleId, checked.levelId, setParams]);

  const kind = kindOf(tab);

  function openCreate() {
    const missing = missingParent(kind, selection);
    if (missing) {
      notifyError(t(missing));
      return;
    }
    // The next free number among all of the parent's children (the whole scenario is at hand).
    const next =
      kind === 'module' && detail.data
        ? nextNumber(
            detail.data.modules.map((m) => m.order_index),
            0,
          )
        : kind === 'level' && chosenModule
          ? nextNumber(
              chosenModule.levels.map((l) => l.level_number),
              1,
            )
          : kind === 'option' && chosenLevel
            ? nextNumber(
                chosenLevel.options.map((o) => o.order_index),
                0,
              )
            : undefined;
    setFormTarget({ kind, parentId: parentOf(kind, selection) ?? undefined, next });
  }

  async function remove(itemKind: ContentKind, item: ContentItem) {
    const confirmed = await confirmAction({
      title: t(`deleteTitle.${itemKind}`),
      message: t(`deleteConfirm.${itemKind}`, { name: item.name }),
      confirmLabel: t('common:delete'),
      danger: true,
    });
    if (!confirmed) return;
    try {
      await deleteContent.mutateAsync({ kind: itemKind, id: item.id });
      notifySuccess(t(`deleted.${itemKind}`));
    } catch (error) {
      notifyError(errorText(error, t('deleteFailed')));
    }
  }

  const actions = (itemKind: ContentKind, item: ContentItem) => (
    <Group gap={4} wrap="nowrap" onClick={(event) => event.stopPropagation()}>
      <Tooltip label={t('common:edit')}>
        <ActionIcon
          variant="subtle"
          onClick={() => setFormTarget({ kind: itemKind, item })}
          aria-label={t('common:edit')}
        >
          <IconPencil size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t('common:delete')}>
        <ActionIcon
          variant="subtle"
          color="red"
          onClick={() => remove(itemKind, item)}
          aria-label={t('common:delete')}
        >
          <IconTrash size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
  // Both texts: the primary (Russian) name, and the English one under it when there is one.
  const nameCell = (item: ContentItem) => (
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
  const descriptionCell = (description: string) => (
    <Text size="sm" c={description ? undefined : 'dimmed'} lineClamp={2} maw={360}>
      {description || t('common:none')}
    </Text>
  );
  const actionsColumn = <T extends ContentItem>(itemKind: ContentKind): ColumnDef<T, unknown> => ({
    id: 'actions',
    header: t('common:actions'),
    enableSorting: false,
    cell: ({ row }) => actions(itemKind, row.original),
  });

  const scenarioColumns = useMemo<ColumnDef<ScenarioSummary, unknown>[]>(
    () => [
      { accessorKey: 'name', header: t('name'), cell: (c) => nameCell(c.row.original) },
      {
        accessorKey: 'description',
        header: t('description'),
        cell: (c) => descriptionCell(c.row.original.description),
      },
      { accessorKey: 'module_count', header: t('moduleCount') },
      {
        accessorKey: 'active',
        header: t('status'),
        cell: (c) => (
          <Badge
            color={c.row.original.active ? 'green' : 'gray'}
            variant="light"
            styles={FULL_LABEL}
          >
            {c.row.original.active ? t('active') : t('inactive')}
          </Badge>
        ),
      },
      {
        accessorKey: 'created_at',
        header: t('createdAt'),
        cell: (c) => (
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {formatDate(c.row.original.created_at, i18n.language)}
          </Text>
        ),
      },
      actionsColumn<ScenarioSummary>('scenario'),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, i18n.language],
  );
  const moduleColumns = useMemo<ColumnDef<ContentModule, unknown>[]>(
    () => [
      { accessorKey: 'order_index', header: t('orderIndex') },
      { accessorKey: 'name', header: t('name'), cell: (c) => nameCell(c.row.original) },
      {
        accessorKey: 'description',
        header: t('description'),
        cell: (c) => descriptionCell(c.row.original.description),
      },
      actionsColumn<ContentModule>('module'),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t],
  );
  const levelColumns = useMemo<ColumnDef<ContentLevel, unknown>[]>(
    () => [
      { accessorKey: 'level_number', header: t('levelNumber') },
      { accessorKey: 'name', header: t('name'), cell: (c) => nameCell(c.row.original) },
      {
        accessorKey: 'description',
        header: t('description'),
        cell: (c) => descriptionCell(c.row.original.description),
      },
      { accessorKey: 'max_tasks', header: t('maxTasks') },
      actionsColumn<ContentLevel>('level'),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t],
  );
  const optionColumns = useMemo<ColumnDef<LevelOption, unknown>[]>(
    () => [
      { accessorKey: 'order_index', header: t('orderIndex') },
      { accessorKey: 'name', header: t('name'), cell: (c) => nameCell(c.row.original) },
      {
        accessorKey: 'description',
        header: t('description'),
        cell: (c) => descriptionCell(c.row.original.description),
      },
      actionsColumn<LevelOption>('option'),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t],
  );

  const scenarioSelect = (
    <ServerSelect
      label={t('scenario')}
      placeholder={t('chooseScenario')}
      options={scenarioOptions}
      value={selection.scenarioId}
      valueLabel={detail.data?.name}
      onChange={(value) => choose(selectScenario(selection, value))}
      nothingFoundMessage={t('nothingFound')}
    />
  );
  const moduleSelect = (
    <ServerSelect
      label={t('module')}
      placeholder={t('chooseModule')}
      options={moduleOptions(selection.scenarioId ?? '')}
      value={selection.moduleId}
      valueLabel={chosenModule?.name}
      onChange={(value) => choose(selectModule(selection, value))}
      disabled={!selection.scenarioId}
      nothingFoundMessage={t('nothingFound')}
    />
  );
  const levelSelect = (
    <ServerSelect
      label={t('level')}
      placeholder={t('chooseLevel')}
      options={levelOptions(selection.moduleId ?? '')}
      value={selection.levelId}
      valueLabel={chosenLevel ? levelLabel(chosenLevel) : undefined}
      onChange={(value) => choose(selectLevel(selection, value))}
      disabled={!selection.moduleId}
      nothingFoundMessage={t('nothingFound')}
    />
  );

  const searchInput = (
    <TextInput
      label={t('common:search')}
      placeholder={t('searchPlaceholder')}
      leftSection={<IconSearch size={16} />}
      value={list.search}
      onChange={(event) => list.setSearch(event.currentTarget.value)}
    />
  );

  const hint = (text: string) => (
    <Text c="dimmed" ta="center" py="xl">
      {text}
    </Text>
  );
  // Clicking a scenario, module or level opens what is under it in the next tab.
  const drillHint = (itemKind: ContentKind, count: number) =>
    count > 0 ? (
      <Text size="xs" c="dimmed" mb="xs">
        {t(`drillHint.${itemKind}`)}
      </Text>
    ) : null;
  const emptyList = (itemKind: ContentKind) => (
    <Stack align="center" py="xl" gap="sm">
      <Text fw={500}>{list.q ? t('noMatches') : t(`empty.${itemKind}`)}</Text>
      {list.q ? null : (
        <Button variant="light" leftSection={<IconPlus size={16} />} onClick={openCreate}>
          {t(`add.${itemKind}`)}
        </Button>
      )}
    </Stack>
  );

  /** A tab's table of one page of the server's list, under its filters. */
  const panel = <T extends ContentItem>(props: {
    filters: ReactNode;
    /** The parent the rows are under; without it, a hint to pick one (not for scenarios). */
    parentId?: string | null;
    pickHint?: string;
    itemKind: ContentKind;
    query: {
      data?: { total: number };
      isPending: boolean;
      isPlaceholderData: boolean;
      error: unknown;
      refetch: () => unknown;
    };
    rows: T[];
    columns: ColumnDef<T, unknown>[];
    open?: (item: T) => void;
  }) => (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm" mb="md">
        {props.filters}
      </SimpleGrid>
      {props.parentId === null ? (
        hint(props.pickHint ?? '')
      ) : (
        <QueryState
          isPending={props.query.isPending}
          error={props.query.data ? null : props.query.error}
          errorText={t('loadFailed')}
          onRetry={() => props.query.refetch()}
        >
          {props.open && drillHint(props.itemKind, props.query.data?.total ?? 0)}
          <DataTable
            rows={props.rows}
            total={props.query.data?.total ?? 0}
            loading={props.query.isPlaceholderData}
            state={list}
            columns={props.columns}
            getRowId={(item) => item.id}
            onRowClick={props.open}
            empty={emptyList(props.itemKind)}
          />
        </QueryState>
      )}
    </>
  );

  return (
    <>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={openCreate}>
            {t(`add.${kind}`)}
          </Button>
        }
      />
      <Card withBorder radius="lg" p="md">
        <Tabs
          value={tab}
          onChange={(value) => value && choose(selection, parseTab(value))}
          keepMounted={false}
        >
          <Tabs.List mb="md">
            {TABS.map((entry) => (
              <Tabs.Tab key={entry.tab} value={entry.tab} leftSection={entry.icon}>
                {t(`tabs.${entry.tab}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>

          <Tabs.Panel value="scenarios">
            {panel({
              filters: searchInput,
              itemKind: 'scenario',
              query: scenarios,
              rows: scenarios.data?.scenarios ?? [],
              columns: scenarioColumns,
              open: (s) => choose(selectScenario(selection, s.id), 'modules'),
            })}
          </Tabs.Panel>

          <Tabs.Panel value="modules">
            {panel({
              filters: (
                <>
                  {scenarioSelect}
                  {searchInput}
                </>
              ),
              parentId: selection.scenarioId,
              pickHint: t('pick.modules'),
              itemKind: 'module',
              query: modules,
              rows: modules.data?.modules ?? [],
              columns: moduleColumns,
              open: (m) => choose(selectModule(selection, m.id), 'levels'),
            })}
          </Tabs.Panel>

          <Tabs.Panel value="levels">
            {panel({
              filters: (
                <>
                  {scenarioSelect}
                  {moduleSelect}
                  {searchInput}
                </>
              ),
              parentId: selection.moduleId,
              pickHint: t('pick.levels'),
              itemKind: 'level',
              query: levels,
              rows: levels.data?.levels ?? [],
              columns: levelColumns,
              open: (l) => choose(selectLevel(selection, l.id), 'options'),
            })}
          </Tabs.Panel>

          <Tabs.Panel value="options">
            {panel({
              filters: (
                <>
                  {scenarioSelect}
                  {moduleSelect}
                  {levelSelect}
                  {searchInput}
                </>
              ),
              parentId: selection.levelId,
              pickHint: t('pick.options'),
              itemKind: 'option',
              query: options,
              rows: options.data?.options ?? [],
              columns: optionColumns,
            })}
          </Tabs.Panel>
        </Tabs>
      </Card>
      <ContentFormModal target={formTarget} onClose={() => setFormTarget(undefined)} />
    </>
  );
}
