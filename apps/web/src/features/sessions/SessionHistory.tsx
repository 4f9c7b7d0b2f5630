import '@mantine/dates/styles.css';
import 'dayjs/locale/ru';
import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Card,
  Flex,
  Group,
  Progress,
  Select,
  Stack,
  Text,
} from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import {
  IconFileSpreadsheet,
  IconFilterOff,
  IconHistory,
  IconListDetails,
  IconRefresh,
} from '@tabler/icons-react';
import type { ColumnDef } from '../../components/table-model';
import type { HistorySession, SessionExportQuery, SessionListQuery } from '@vrtc/contract';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useContentText } from '../../lib/content-text';
import { deviceOptions } from '../../api/devices';
import { useScenarioTree } from '../../api/scenarios';
import { vrUserOptions } from '../../api/vr-users';
import { ACTIONS_COLUMN_ID, DataTable, PAGE_SIZE } from '../../components/DataTable';
import { DayRangeFilter } from '../../components/DayRangeFilter';
import { Empty } from '../../components/Empty';
import { ListFilters } from '../../components/ListFilters';
import { QueryState } from '../../components/QueryState';
import { SessionDetailModal } from '../../components/SessionDetailModal';
import { ServerSelect } from '../../components/ServerSelect';
import { LateResultMark } from '../../components/LateResultMark';
import { FULL_LABEL_BADGE, StatusBadge } from '../../components/StatusBadge';
import {
  formatDateTime,
  formatDateTimeShort,
  formatDuration,
  progressPercent,
} from '../../lib/format';
import { isIsoDay, isUuid, oneOf, useListState } from '../../lib/list-state';
import { HISTORY_PRESETS, presetMatches, presetRange } from './history-presets';
import { useFileExport } from '../../lib/use-file-export';
import {
  exportSessionHistory,
  HISTORY_STATUS_FILTERS,
  useSessionHistory,
  type HistoryStatusFilter,
} from '../../api/sessions';
import { Tooltip } from '../../components/Tooltip';

const STATUSES = HISTORY_STATUS_FILTERS.filter((value) => value !== 'all');
/** History sorts by start time only (newest first unless turned). */
const HISTORY_SORT_FIELDS = ['started_at'] as const satisfies readonly NonNullable<
  SessionListQuery['sort']
>[];

/** An address that may wrap after its "@" (a <wbr>: nothing is added to what is copied). */
function EmailWithBreak({ email }: { email: string }) {
  const at = email.indexOf('@');
  if (at < 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </>
  );
}

/**
 * The History tab: ended sessions a page at a time from the server, filtered by status, days
 * (UTC, of the start), VR user, headset and scenario; the page, sort and filters live in the URL.
 * The CSV export is the server's file of every session under the same filters.
 */
export function SessionHistory() {
  const { t, i18n } = useTranslation();
  const content = useContentText();
  const list = useListState({
    pageSize: PAGE_SIZE,
    sortFields: HISTORY_SORT_FIELDS,
    defaultSort: { sort: 'started_at', order: 'desc' },
    filters: {
      status: oneOf(STATUSES),
      from: isIsoDay,
      to: isIsoDay,
      vr_user_id: isUuid,
      device_id: isUuid,
      scenario_id: isUuid,
    },
  });
  const { filters } = list;
  const status: HistoryStatusFilter = filters.status ?? 'all';
  const exportFilters: SessionExportQuery = {
    status: filters.status,
    from: filters.from,
    to: filters.to,
    vr_user_id: filters.vr_user_id,
    device_id: filters.device_id,
    scenario_id: filters.scenario_id,
  };
  const history = useSessionHistory({ ...exportFilters, ...list.query });
  const scenarios = useScenarioTree();
  // The session whose detail (task timeline) is open.
  const [detailId, setDetailId] = useState<string>();
  const rows = history.data?.sessions ?? [];
  const total = history.data?.total ?? 0;
  const filtered = Object.keys(filters).length > 0;

  // A filter opened from a link names its VR user, headset or scenario from the rows it matched.
  const vrUserLabel = filters.vr_user_id
    ? (rows.find((row) => row.vr_user_id === filters.vr_user_id)?.vr_user_name ??
      t('sessions:history.filter.selectedVrUser'))
    : undefined;
  const deviceLabel = filters.device_id
    ? (rows.find((row) => row.device_id === filters.device_id)?.device_name ??
      t('sessions:history.filter.selectedDevice'))
    : undefined;
  const matchedScenarioName = rows[0]
    ? content.text(rows[0].scenario_name, rows[0].scenario_name_en)
    : undefined;
  const scenarioData = useMemo(() => {
    const items = (scenarios.data ?? []).map((scenario) => ({
      value: scenario.id,
      label: content.name(scenario),
    }));
    const id = filters.scenario_id;
    if (id && !items.some((item) => item.value === id)) {
      items.unshift({
        value: id,
        label: matchedScenarioName ?? t('sessions:history.filter.selectedScenario'),
      });
    }
    return items;
  }, [scenarios.data, filters.scenario_id, matchedScenarioName, t, content]);

  const clearFilters = () =>
    list.setFilters({
      status: null,
      from: null,
      to: null,
      vr_user_id: null,
      device_id: null,
      scenario_id: null,
    });

  const csv = useFileExport({
    isEmpty: () => total === 0,
    // Content names in the file as the console shows them.
    download: () =>
      exportSessionHistory({ ...exportFilters, lang: i18n.language === 'en' ? 'en' : 'ru' }),
    doneText: () => t('sessions:history.exported', { count: total }),
    failedText: () => t('sessions:history.exportFailed'),
  });

  const columns = useMemo<ColumnDef<HistorySession, unknown>[]>(
    () => [
      {
        accessorKey: 'vr_user_name',
        header: t('sessions:history.col.vrUser'),
        cell: ({ row: { original: s } }) => (
          <Stack gap={0} miw={110}>
            <Text size="sm" fw={500}>
              {s.vr_user_name}
            </Text>
            <Text size="xs" c="dimmed">
              {s.device_name}
            </Text>
          </Stack>
        ),
      },
      {
        id: 'content',
        header: t('sessions:history.col.content'),
        meta: { card: 'fact' },
        cell: ({ row: { original: s } }) => {
          const scenario = content.text(s.scenario_name, s.scenario_name_en);
          const moduleLevel = `${content.text(s.module_name, s.module_name_en)} - ${content.text(s.level_name, s.level_name_en)}`;
          return (
            // The whole names, wrapped: a phone has no hover to show a clipped one's title.
            <Stack gap={0} miw={150}>
              <Text size="sm">{scenario}</Text>
              <Text size="xs" c="dimmed">
                {moduleLevel}
              </Text>
              <Text size="xs" c="dimmed">
                {t('common:levelRevision', { number: s.level_number, revision: s.level_revision })}
              </Text>
            </Stack>
          );
        },
      },
      {
        accessorKey: 'status',
        header: t('sessions:history.col.status'),
        cell: (c) => (
          <Stack gap={4} w="max-content">
            <StatusBadge status={c.row.original.status} />
            <LateResultMark session={c.row.original} />
          </Stack>
        ),
      },
      {
        id: 'progress',
        header: t('sessions:history.col.progress'),
        cell: ({ row: { original: s } }) => {
          const percent = progressPercent(s.completed_tasks, s.total_tasks);
          return (
            <Stack gap={4} miw={84}>
              <Text size="xs" style={{ whiteSpace: 'nowrap' }}>
                {s.completed_tasks}/{s.total_tasks} ({percent}%)
              </Text>
              <Progress value={percent} size="sm" aria-label={`${percent}%`} />
            </Stack>
          );
        },
      },
      {
        accessorKey: 'started_at',
        // Newest first is the default: a click turns it to oldest first, and back.
        sortDescFirst: true,
        meta: { card: 'fact', cardLabel: t('sessions:history.col.time') },
        header: () => (
          <span title={t('sessions:history.col.timeHint')}>{t('sessions:history.col.time')}</span>
        ),
        cell: ({ row: { original: s } }) => (
          <Stack gap={0} style={{ whiteSpace: 'nowrap' }}>
            <Text size="sm" title={t('sessions:history.col.startedAt')}>
              {formatDateTime(s.started_at, i18n.language)}
            </Text>
            <Text
              size="xs"
              c="dimmed"
              title={`${t('sessions:history.col.duration')}: ${formatDuration(t, s.duration_seconds)} · ${t('sessions:history.col.endedAt')}: ${formatDateTime(s.ended_at, i18n.language)}`}
            >
              {formatDuration(t, s.duration_seconds)} ·{' '}
              {t('sessions:history.endedAt', {
                date: formatDateTimeShort(s.ended_at, s.started_at, i18n.language),
              })}
            </Text>
          </Stack>
        ),
      },
      {
        accessorKey: 'started_by_email',
        header: t('sessions:history.col.startedBy'),
        cell: (c) => (
          // A long address breaks after its "@" (or where it must) rather than end in "…": a
          // phone has no hover to show a clipped one's title.
          <Text size="sm" maw={160} style={{ overflowWrap: 'anywhere' }}>
            {c.row.original.started_by_email ? (
              <EmailWithBreak email={c.row.original.started_by_email} />
            ) : (
              t('common:none')
            )}
          </Text>
        ),
      },
      {
        id: 'success',
        header: t('sessions:history.col.success'),
        cell: ({ row: { original: s } }) =>
          s.success === null ? (
            t('common:none')
          ) : (
            <Badge
              variant="dot"
              color={s.success ? 'green' : 'red'}
              styles={FULL_LABEL_BADGE}
              style={{ flexShrink: 0 }}
            >
              {s.success ? t('common:yes') : t('common:no')}
            </Badge>
          ),
      },
      {
        id: ACTIONS_COLUMN_ID,
        header: t('common:actions'),
        enableSorting: false,
        cell: ({ row: { original: s } }) => (
          <Tooltip label={t('common:sessionDetail.open')}>
            <ActionIcon
              variant="subtle"
              onClick={(event) => {
                event.stopPropagation();
                setDetailId(s.id);
              }}
              aria-label={t('common:sessionDetail.open')}
            >
              <IconListDetails size={18} />
            </ActionIcon>
          </Tooltip>
        ),
      },
    ],
    [t, i18n.language, content],
  );

  return (
    <DatesProvider settings={{ locale: i18n.language === 'en' ? 'en' : 'ru', firstDayOfWeek: 1 }}>
      <Card withBorder radius="lg" p="md">
        {/*
          Each filter as wide as its longest text needs (its Russian placeholder, a chosen range of
          days), growing into the room left: one row at 1366 px, one under the other on a phone,
          never a clipped word.
        */}
        <ListFilters active={Object.keys(filters).length}>
          <Flex wrap="wrap" gap="sm" mb="sm">
            <Box style={{ flex: '1 1 165px' }}>
              <Select
                label={t('sessions:history.statusFilter')}
                value={status}
                onChange={(value) =>
                  list.setFilters({ status: !value || value === 'all' ? null : value })
                }
                allowDeselect={false}
                data={HISTORY_STATUS_FILTERS.map((value) => ({
                  value,
                  label:
                    value === 'all'
                      ? t('sessions:history.allStatuses')
                      : t(`common:status.${value}`),
                }))}
              />
            </Box>
            <Box style={{ flex: '1 1 255px' }}>
              <DayRangeFilter
                label={t('sessions:history.filter.days')}
                placeholder={t('sessions:history.filter.anyDay')}
                hint={t('sessions:history.filter.daysHint')}
                from={filters.from}
                to={filters.to}
                onChange={list.setFilters}
              />
            </Box>
            <Box style={{ flex: '1 1 215px' }}>
              <ServerSelect
                label={t('sessions:history.filter.vrUser')}
                placeholder={t('sessions:history.filter.allVrUsers')}
                options={vrUserOptions}
                value={filters.vr_user_id ?? null}
                valueLabel={vrUserLabel}
                onChange={(id) => list.setFilters({ vr_user_id: id })}
                clearable
                nothingFoundMessage={t('sessions:history.filter.nothingFound')}
              />
            </Box>
            <Box style={{ flex: '1 1 150px' }}>
              <ServerSelect
                label={t('sessions:history.filter.device')}
                placeholder={t('sessions:history.filter.allDevices')}
                options={deviceOptions}
                value={filters.device_id ?? null}
                valueLabel={deviceLabel}
                onChange={(id) => list.setFilters({ device_id: id })}
                clearable
                nothingFoundMessage={t('sessions:history.filter.nothingFound')}
              />
            </Box>
            <Box style={{ flex: '1 1 180px' }}>
              <Select
                label={t('sessions:history.filter.scenario')}
                placeholder={t('sessions:history.filter.allScenarios')}
                data={scenarioData}
                value={filters.scenario_id ?? null}
                onChange={(id) => list.setFilters({ scenario_id: id })}
                searchable
                clearable
                nothingFoundMessage={t('sessions:history.filter.nothingFound')}
              />
            </Box>
          </Flex>
          <Group
            gap="xs"
            mb="sm"
            role="group"
            aria-label={t('sessions:history.filter.presets.label')}
            data-testid="history-presets"
          >
            {HISTORY_PRESETS.map((preset) => {
              const chosen = presetMatches(preset, filters.from, filters.to);
              return (
                <Button
                  key={preset}
                  size="compact-sm"
                  radius="xl"
                  variant={chosen ? 'filled' : 'default'}
                  aria-pressed={chosen}
                  onClick={() => list.setFilters(presetRange(preset))}
                >
                  {t(`sessions:history.filter.presets.${preset}`)}
                </Button>
              );
            })}
          </Group>
        </ListFilters>
        <Group justify="flex-end" mb="md" gap="sm">
          {/* With nothing left, the empty state offers it instead. */}
          {filtered && total > 0 ? (
            <Button
              variant="subtle"
              color="gray"
              leftSection={<IconFilterOff size={16} />}
              onClick={clearFilters}
            >
              {t('sessions:history.showAll')}
            </Button>
          ) : null}
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} />}
            loading={history.isFetching && !history.isPending}
            onClick={() => history.refetch()}
          >
            {t('common:refresh')}
          </Button>
          <Button
            leftSection={<IconFileSpreadsheet size={16} />}
            variant="light"
            onClick={csv.start}
            loading={csv.exporting}
            disabled={history.isPending}
          >
            {t('sessions:history.export')}
          </Button>
        </Group>
        <QueryState
          isPending={history.isPending}
          error={history.data ? null : history.error}
          onRetry={() => history.refetch()}
        >
          <DataTable
            rows={rows}
            total={total}
            loading={history.isPlaceholderData}
            state={list}
            columns={columns}
            getRowId={(row) => row.id}
            onRowClick={(row) => setDetailId(row.id)}
            empty={
              <Empty
                icon={<IconHistory size={28} />}
                title={t('sessions:history.emptyTitle')}
                description={
                  filtered
                    ? t('sessions:history.emptyFilteredText')
                    : t('sessions:history.emptyText')
                }
                action={
                  filtered ? (
                    <Button
                      variant="light"
                      leftSection={<IconFilterOff size={16} />}
                      onClick={clearFilters}
                    >
                      {t('sessions:history.showAll')}
                    </Button>
                  ) : undefined
                }
              />
            }
          />
        </QueryState>
      </Card>
      <SessionDetailModal sessionId={detailId} onClose={() => setDetailId(undefined)} />
    </DatesProvider>
  );
}
