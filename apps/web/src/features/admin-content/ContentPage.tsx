import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  Select,
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
import { errorMessage } from '../../api/client';
import { confirmAction } from '../../components/confirm';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { formatDate } from '../../lib/format';
import { notifyError, notifySuccess } from '../../lib/notify';
import {
  useDeleteContent,
  useLevelOptions,
  useLevels,
  useModules,
  useScenarios,
  type ContentItem,
  type ContentKind,
} from './api';
import { ContentFormModal, type ContentFormTarget } from './ContentFormModal';
import {
  emptySelection,
  missingParent,
  parentOf,
  selectLevel,
  selectModule,
  selectScenario,
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

function matches(item: { name: string; description: string }, search: string) {
  const needle = search.trim().toLocaleLowerCase();
  return (
    !needle ||
    item.name.toLocaleLowerCase().includes(needle) ||
    item.description.toLocaleLowerCase().includes(needle)
  );
}

/** The next free order index (from 0) or level number (from 1). */
function nextNumber(values: number[], start: number) {
  return values.length ? Math.max(...values) + 1 : start;
}

export function ContentPage() {
  const { t, i18n } = useTranslation('adminContent');
  const [tab, setTab] = useState<Tab>('scenarios');
  const [selection, setSelection] = useState<ContentSelection>(emptySelection);
  const [search, setSearch] = useState<Record<Tab, string>>({
    scenarios: '',
    modules: '',
    levels: '',
    options: '',
  });
  const [formTarget, setFormTarget] = useState<ContentFormTarget | undefined>();

  const scenarios = useScenarios();
  const modules = useModules(selection.scenarioId);
  const levels = useLevels(selection.moduleId);
  const options = useLevelOptions(selection.levelId);
  const deleteContent = useDeleteContent();

  // A parent deleted elsewhere (or by a refresh) leaves the selection.
  useEffect(() => {
    if (
      selection.scenarioId &&
      scenarios.data &&
      !scenarios.data.some((s) => s.id === selection.scenarioId)
    ) {
      setSelection(emptySelection);
    }
  }, [scenarios.data, selection.scenarioId]);
  useEffect(() => {
    if (
      selection.moduleId &&
      modules.data &&
      !modules.data.some((m) => m.id === selection.moduleId)
    ) {
      setSelection((current) => selectModule(current, null));
    }
  }, [modules.data, selection.moduleId]);
  useEffect(() => {
    if (selection.levelId && levels.data && !levels.data.some((l) => l.id === selection.levelId)) {
      setSelection((current) => selectLevel(current, null));
    }
  }, [levels.data, selection.levelId]);

  const kind = kindOf(tab);

  function openCreate() {
    const missing = missingParent(kind, selection);
    if (missing) {
      notifyError(t(missing));
      return;
    }
    const next =
      kind === 'module'
        ? nextNumber(
            (modules.data ?? []).map((m) => m.order_index),
            0,
          )
        : kind === 'level'
          ? nextNumber(
              (levels.data ?? []).map((l) => l.level_number),
              1,
            )
          : kind === 'option'
            ? nextNumber(
                (options.data ?? []).map((o) => o.order_index),
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
      notifyError(errorMessage(error, t('deleteFailed')));
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
  const nameCell = (name: string) => (
    <Text fw={500} size="sm">
      {name}
    </Text>
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
      { accessorKey: 'name', header: t('name'), cell: (c) => nameCell(c.row.original.name) },
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
      { accessorKey: 'name', header: t('name'), cell: (c) => nameCell(c.row.original.name) },
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
      { accessorKey: 'name', header: t('name'), cell: (c) => nameCell(c.row.original.name) },
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
      { accessorKey: 'name', header: t('name'), cell: (c) => nameCell(c.row.original.name) },
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
    <Select
      label={t('scenario')}
      placeholder={t('chooseScenario')}
      data={(scenarios.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
      value={selection.scenarioId}
      onChange={(value) => setSelection((current) => selectScenario(current, value))}
      searchable
      nothingFoundMessage={t('nothingFound')}
    />
  );
  const moduleSelect = (
    <Select
      label={t('module')}
      placeholder={t('chooseModule')}
      data={(modules.data ?? []).map((m) => ({ value: m.id, label: m.name }))}
      value={selection.moduleId}
      onChange={(value) => setSelection((current) => selectModule(current, value))}
      disabled={!selection.scenarioId}
      searchable
      nothingFoundMessage={t('nothingFound')}
    />
  );
  const levelSelect = (
    <Select
      label={t('level')}
      placeholder={t('chooseLevel')}
      data={(levels.data ?? []).map((l) => ({
        value: l.id,
        label: `${l.level_number}. ${l.name}`,
      }))}
      value={selection.levelId}
      onChange={(value) => setSelection((current) => selectLevel(current, value))}
      disabled={!selection.moduleId}
      searchable
      nothingFoundMessage={t('nothingFound')}
    />
  );

  const searchInput = (
    <TextInput
      label={t('common:search')}
      placeholder={t('searchPlaceholder')}
      leftSection={<IconSearch size={16} />}
      value={search[tab]}
      onChange={(event) => {
        const value = event.currentTarget.value;
        setSearch((current) => ({ ...current, [tab]: value }));
      }}
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
      <Text fw={500}>{search[tab].trim() ? t('noMatches') : t(`empty.${itemKind}`)}</Text>
      {search[tab].trim() ? null : (
        <Button variant="light" leftSection={<IconPlus size={16} />} onClick={openCreate}>
          {t(`add.${itemKind}`)}
        </Button>
      )}
    </Stack>
  );

  /**
   * The modules, levels or options tab: its filters, then what is under the chosen parent. A row
   * with `open` opens what is under it in the next tab.
   */
  const childPanel = <T extends ContentItem>(panel: {
    filters: ReactNode;
    parentId: string | null;
    pickHint: string;
    itemKind: ContentKind;
    query: { data?: T[]; isPending: boolean; error: unknown; refetch: () => unknown };
    search: string;
    columns: ColumnDef<T, unknown>[];
    sortBy: string;
    open?: (item: T) => void;
  }) => (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm" mb="md">
        {panel.filters}
      </SimpleGrid>
      {!panel.parentId ? (
        hint(panel.pickHint)
      ) : (
        <QueryState
          isPending={panel.query.isPending}
          error={panel.query.data ? null : panel.query.error}
          errorText={t('loadFailed')}
          onRetry={() => panel.query.refetch()}
        >
          {panel.open && drillHint(panel.itemKind, (panel.query.data ?? []).length)}
          <DataTable
            data={(panel.query.data ?? []).filter((item) => matches(item, panel.search))}
            columns={panel.columns}
            getRowId={(item) => item.id}
            initialSorting={[{ id: panel.sortBy, desc: false }]}
            onRowClick={panel.open}
            empty={emptyList(panel.itemKind)}
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
        <QueryState
          isPending={scenarios.isPending}
          error={scenarios.data ? null : scenarios.error}
          errorText={t('loadFailed')}
          onRetry={() => scenarios.refetch()}
        >
          <Tabs value={tab} onChange={(value) => value && setTab(value as Tab)} keepMounted={false}>
            <Tabs.List mb="md">
              {TABS.map((entry) => (
                <Tabs.Tab key={entry.tab} value={entry.tab} leftSection={entry.icon}>
                  {t(`tabs.${entry.tab}`)}
                </Tabs.Tab>
              ))}
            </Tabs.List>

            <Tabs.Panel value="scenarios">
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm" mb="md">
                {searchInput}
              </SimpleGrid>
              {drillHint('scenario', (scenarios.data ?? []).length)}
              <DataTable
                data={(scenarios.data ?? []).filter((s) => matches(s, search.scenarios))}
                columns={scenarioColumns}
                getRowId={(s) => s.id}
                initialSorting={[{ id: 'name', desc: false }]}
                onRowClick={(s) => {
                  setSelection((current) => selectScenario(current, s.id));
                  setTab('modules');
                }}
                empty={emptyList('scenario')}
              />
            </Tabs.Panel>

            <Tabs.Panel value="modules">
              {childPanel({
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
                search: search.modules,
                columns: moduleColumns,
                sortBy: 'order_index',
                open: (m) => {
                  setSelection((current) => selectModule(current, m.id));
                  setTab('levels');
                },
              })}
            </Tabs.Panel>

            <Tabs.Panel value="levels">
              {childPanel({
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
                search: search.levels,
                columns: levelColumns,
                sortBy: 'level_number',
                open: (l) => {
                  setSelection((current) => selectLevel(current, l.id));
                  setTab('options');
                },
              })}
            </Tabs.Panel>

            <Tabs.Panel value="options">
              {childPanel({
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
                search: search.options,
                columns: optionColumns,
                sortBy: 'order_index',
              })}
            </Tabs.Panel>
          </Tabs>
        </QueryState>
      </Card>
      <ContentFormModal target={formTarget} onClose={() => setFormTarget(undefined)} />
    </>
  );
}
