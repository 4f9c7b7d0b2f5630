import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Code,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import {
  IconDeviceVisionPro,
  IconPlayerPlay,
  IconPlugConnectedX,
  IconRefresh,
  IconSearch,
  IconTrash,
  IconClockPause,
} from '@tabler/icons-react';
import type { ColumnDef, RowSelectionState } from '@tanstack/react-table';
import {
  ADMIN_DEVICE_SORT_FIELDS,
  type Device,
  type DeviceStatus,
  type DeviceType,
  type MovementType,
} from '@vrtc/contract';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/error-text';
import { organizationOptions, useOrganization } from '../../api/organizations';
import { confirmAction } from '../../components/confirm';
import { ACTIONS_COLUMN_ID, DataTable, PAGE_SIZE } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { StatCard } from '../../components/StatCard';
import { FULL_LABEL_BADGE, StatusBadge } from '../../components/StatusBadge';
import { ServerSelect } from '../../components/ServerSelect';
import { formatDate, formatRelativeTime } from '../../lib/format';
import { isUuid, oneOf, useListState } from '../../lib/list-state';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useAdminDevices, useBulkDeleteDevices, useDeleteDevice } from './api';

const STATUSES: DeviceStatus[] = ['waiting', 'in_session', 'offline'];
const TYPES: DeviceType[] = ['oculus', 'pico', 'quest', 'other'];
const MOVEMENT_TYPES: MovementType[] = ['slide', 'teleport'];

const FILTER_STYLE = { flex: '1 1 170px' } as const;

const canDelete = (device: Device) => device.status !== 'in_session';

export function AdminDevicesPage() {
  const { t, i18n } = useTranslation('adminDevices');
  const list = useListState({
    pageSize: PAGE_SIZE,
    sortFields: ADMIN_DEVICE_SORT_FIELDS,
    defaultSort: { sort: 'name', order: 'asc' },
    filters: {
      organization_id: isUuid,
      status: oneOf(STATUSES),
      device_type: oneOf(TYPES),
      movement_type: oneOf(MOVEMENT_TYPES),
    },
  });
  const { filters } = list;
  const [autoRefresh, setAutoRefresh] = useLocalStorage({
    key: 'admin_devices_auto_refresh',
    defaultValue: true,
  });
  const [selected, setSelected] = useState<RowSelectionState>({});

  const devices = useAdminDevices({ ...filters, ...list.query }, autoRefresh);
  // The name of the organisation a filter from the URL points at.
  const filterOrganization = useOrganization(filters.organization_id);
  const deleteDevice = useDeleteDevice();
  const bulkDelete = useBulkDeleteDevices();

  const rows = useMemo(() => devices.data?.devices ?? [], [devices.data]);
  const counts = devices.data?.summary;

  // Selection is of the page on screen: another page, a refresh that removes a device or starts a
  // session on it, leaves the selection.
  useEffect(() => {
    if (!devices.data) return;
    const selectable = new Set(rows.filter(canDelete).map((device) => device.id));
    const kept = Object.keys(selected).filter((id) => selected[id] && selectable.has(id));
    if (kept.length !== Object.keys(selected).length) {
      setSelected(Object.fromEntries(kept.map((id) => [id, true])));
    }
  }, [devices.data, rows, selected]);

  const selectedIds = Object.keys(selected).filter((id) => selected[id]);
  const filtered = list.filtered;

  async function removeOne(device: Device) {
    const confirmed = await confirmAction({
      title: t('deleteTitle'),
      message: t('deleteConfirm', { name: device.name, organization: device.organization_name }),
      confirmLabel: t('common:delete'),
      danger: true,
    });
    if (!confirmed) return;
    try {
      await deleteDevice.mutateAsync(device.id);
      notifySuccess(t('deleted'));
    } catch (error) {
      notifyError(errorText(error, t('deleteFailed')));
    }
  }

  async function removeSelected() {
    const ids = selectedIds;
    if (ids.length === 0) return;
    const confirmed = await confirmAction({
      title: t('bulkDeleteTitle'),
      message: t('bulkDeleteConfirm', { count: ids.length }),
      confirmLabel: t('common:delete'),
      danger: true,
    });
    if (!confirmed) return;
    try {
      const result = await bulkDelete.mutateAsync(ids);
      setSelected({});
      if (result.failed.length > 0) {
        notifyError(
          `${t('bulkFailed')} (${t('bulkSummary', { deleted: result.deleted.length, count: ids.length })})`,
        );
      } else {
        notifySuccess(t('bulkDeleted', { count: result.deleted.length }));
      }
    } catch (error) {
      notifyError(errorText(error, t('bulkFailed')));
    }
  }

  const columns = useMemo<ColumnDef<Device, unknown>[]>(
    () => [
      {
        accessorKey: 'name',
        header: t('col.name'),
        cell: ({ row: { original: device } }) => (
          <div>
            <Text fw={500} size="sm">
              {device.name}
            </Text>
            {device.app_version || device.battery_percent !== null ? (
              <Text size="xs" c="dimmed">
                {[
                  device.app_version ? t('appVersion', { version: device.app_version }) : null,
                  device.battery_percent !== null
                    ? t('battery', { percent: device.battery_percent })
                    : null,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
            ) : null}
          </div>
        ),
      },
      { accessorKey: 'organization_name', header: t('col.organization') },
      {
        accessorKey: 'type',
        header: t('col.type'),
        cell: (c) => t(`common:deviceType.${c.row.original.type}`),
      },
      {
        accessorKey: 'status',
        header: t('col.status'),
        cell: (c) => <StatusBadge status={c.row.original.status} />,
      },
      {
        accessorKey: 'movement_type',
        header: t('col.movement'),
        cell: (c) => (
          <Badge variant="outline" color="gray" styles={FULL_LABEL_BADGE}>
            {t(`common:movementType.${c.row.original.movement_type}`)}
          </Badge>
        ),
      },
      {
        accessorKey: 'last_seen',
        header: t('col.lastSeen'),
        cell: (c) => (
          <Tooltip
            label={formatDate(c.row.original.last_seen, i18n.language)}
            disabled={!c.row.original.last_seen}
          >
            <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
              {formatRelativeTime(t, c.row.original.last_seen)}
            </Text>
          </Tooltip>
        ),
      },
      {
        accessorKey: 'current_session_id',
        header: t('col.session'),
        cell: (c) =>
          c.row.original.current_session_id ? (
            <Tooltip label={c.row.original.current_session_id}>
              <Code>{c.row.original.current_session_id.slice(0, 8)}</Code>
            </Tooltip>
          ) : (
            <Text c="dimmed">{t('common:none')}</Text>
          ),
      },
      {
        id: ACTIONS_COLUMN_ID,
        header: t('common:actions'),
        enableSorting: false,
        cell: ({ row: { original: device } }) => (
          <Tooltip label={canDelete(device) ? t('common:delete') : t('inSessionHint')}>
            <span>
              <ActionIcon
                variant="subtle"
                color="red"
                disabled={!canDelete(device)}
                onClick={() => removeOne(device)}
                aria-label={t('common:delete')}
              >
                <IconTrash size={18} />
              </ActionIcon>
            </span>
          </Tooltip>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, i18n.language],
  );

  const hasData = Boolean(devices.data);

  return (
    <>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          <>
            <Switch
              label={t('autoRefresh')}
              checked={autoRefresh}
              onChange={(event) => setAutoRefresh(event.currentTarget.checked)}
            />
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              loading={devices.isFetching && !devices.isPending}
              onClick={() => devices.refetch()}
            >
              {t('common:refresh')}
            </Button>
          </>
        }
      />
      {counts ? (
        <SimpleGrid cols={{ base: 2, lg: 4 }} mb="lg">
          <StatCard
            label={t('stats.total')}
            value={counts.total}
            icon={<IconDeviceVisionPro size={20} />}
          />
          <StatCard
            label={t('stats.waiting')}
            value={counts.waiting}
            color="green"
            icon={<IconClockPause size={20} />}
          />
          <StatCard
            label={t('stats.inSession')}
            value={counts.in_session}
            color="blue"
            icon={<IconPlayerPlay size={20} />}
          />
          <StatCard
            label={t('stats.offline')}
            value={counts.offline}
            color="gray"
            icon={<IconPlugConnectedX size={20} />}
          />
        </SimpleGrid>
      ) : null}
      <Card withBorder radius="lg" p="md">
        {/* One row at 1366 px; the inputs wrap on narrower screens, never clipping a placeholder. */}
        <Group gap="sm" mb="md" align="flex-start">
          <TextInput
            aria-label={t('search')}
            placeholder={t('searchPlaceholder')}
            leftSection={<IconSearch size={16} />}
            value={list.search}
            onChange={(event) => list.setSearch(event.currentTarget.value)}
            style={{ flex: '1 1 250px' }}
          />
          <ServerSelect
            aria-label={t('col.organization')}
            placeholder={t('allOrganizations')}
            options={organizationOptions}
            value={filters.organization_id ?? null}
            valueLabel={filterOrganization.data?.name}
            onChange={(id) => list.setFilters({ organization_id: id })}
            clearable
            nothingFoundMessage={t('nothingFound')}
            style={FILTER_STYLE}
          />
          <Select
            aria-label={t('col.status')}
            placeholder={t('allStatuses')}
            data={STATUSES.map((value) => ({ value, label: t(`common:status.${value}`) }))}
            value={filters.status ?? null}
            onChange={(value) => list.setFilters({ status: value })}
            clearable
            style={FILTER_STYLE}
          />
          <Select
            aria-label={t('col.type')}
            placeholder={t('allTypes')}
            data={TYPES.map((value) => ({ value, label: t(`common:deviceType.${value}`) }))}
            value={filters.device_type ?? null}
            onChange={(value) => list.setFilters({ device_type: value })}
            clearable
            style={FILTER_STYLE}
          />
          <Select
            aria-label={t('col.movement')}
            placeholder={t('allMovementTypes')}
            data={MOVEMENT_TYPES.map((value) => ({
              value,
              label: t(`common:movementType.${value}`),
            }))}
            value={filters.movement_type ?? null}
            onChange={(value) => list.setFilters({ movement_type: value })}
            clearable
            style={FILTER_STYLE}
          />
        </Group>
        <Group justify="space-between" mb="sm" mih={30} gap="sm">
          <Text size="xs" c="dimmed">
            {autoRefresh ? t('autoRefreshOn') : t('autoRefreshOff')}
          </Text>
          {selectedIds.length > 0 ? (
            <Group gap="xs">
              <Text size="sm">{t('selectedCount', { count: selectedIds.length })}</Text>
              <Button variant="subtle" size="xs" color="gray" onClick={() => setSelected({})}>
                {t('clearSelection')}
              </Button>
              <Button
                color="red"
                size="xs"
                leftSection={<IconTrash size={14} />}
                loading={bulkDelete.isPending}
                onClick={removeSelected}
              >
                {t('deleteSelected', { count: selectedIds.length })}
              </Button>
            </Group>
          ) : null}
        </Group>
        <QueryState
          isPending={devices.isPending}
          error={hasData ? null : devices.error}
          errorText={t('loadFailed')}
          onRetry={() => devices.refetch()}
        >
          <DataTable
            rows={rows}
            total={devices.data?.total ?? 0}
            loading={devices.isPlaceholderData}
            state={list}
            columns={columns}
            getRowId={(device) => device.id}
            selection={{ selected, onChange: setSelected, canSelect: canDelete }}
            empty={
              <Stack align="center" py="xl" gap="sm">
                <IconDeviceVisionPro size={40} opacity={0.4} />
                <Text fw={500}>{filtered ? t('noMatches') : t('emptyTitle')}</Text>
                {filtered ? null : (
                  <Text c="dimmed" size="sm">
                    {t('emptyText')}
                  </Text>
                )}
              </Stack>
            }
          />
        </QueryState>
      </Card>
    </>
  );
}
