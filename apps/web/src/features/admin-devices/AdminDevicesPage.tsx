import { Button, Card, Switch } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { IconRefresh } from '@tabler/icons-react';
import type { RowSelectionState } from '../../components/table-model';
import type { Device } from '@vrtc/contract';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { useConfirmedAction } from '../../components/use-confirmed-action';
import { useAdminDevices, useAdminDeleteDevice, useBulkDeleteDevices } from '../../api/devices';
import { canDelete, useAdminDeviceListState } from './device-options';
import { DeviceFilters } from './DeviceFilters';
import { DeviceStats } from './DeviceStats';
import { DeviceTable } from './DeviceTable';
import { SelectionBar } from './SelectionBar';

/**
 * All devices (admin): every organisation's headsets, with counts by status, filters, an
 * auto-refresh switch (live updates, or polling while the stream is down; a Refresh button only
 * while it is off), and single and bulk
 * deletion. The panels are their own components; this one holds the state they share.
 */
export function AdminDevicesPage() {
  const { t } = useTranslation('adminDevices');
  const list = useAdminDeviceListState();
  const [autoRefresh, setAutoRefresh] = useLocalStorage({
    key: 'admin_devices_auto_refresh',
    defaultValue: true,
  });
  const [selected, setSelected] = useState<RowSelectionState>({});

  const devices = useAdminDevices({ ...list.filters, ...list.query }, autoRefresh);
  const deleteDevice = useConfirmedAction(useAdminDeleteDevice(), {
    success: t('deleted'),
    error: t('deleteFailed'),
  });
  const bulkDeletion = useBulkDeleteDevices();
  const bulkDelete = useConfirmedAction(bulkDeletion, {
    // Devices skipped (in a session meanwhile, or gone) make it a partial failure.
    success: (result, ids) =>
      result.failed.length > 0
        ? {
            error: `${t('bulkFailed')} (${t('bulkSummary', { deleted: result.deleted.length, count: ids.length })})`,
          }
        : t('bulkDeleted', { count: result.deleted.length }),
    error: t('bulkFailed'),
    onSuccess: () => setSelected({}),
  });

  const rows = useMemo(() => devices.data?.devices ?? [], [devices.data]);

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

  async function removeOne(device: Device) {
    await deleteDevice(device.id, {
      title: t('deleteTitle'),
      message: t('deleteConfirm', { name: device.name, organization: device.organization_name }),
      confirmLabel: t('common:delete'),
      danger: true,
    });
  }

  async function removeSelected() {
    const ids = selectedIds;
    if (ids.length === 0) return;
    await bulkDelete(ids, {
      title: t('bulkDeleteTitle'),
      message: t('bulkDeleteConfirm', { count: ids.length }),
      confirmLabel: t('common:delete'),
      danger: true,
    });
  }

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
            {/* A list that updates itself needs no Refresh: offered only while it is paused. */}
            {autoRefresh ? null : (
              <Button
                variant="default"
                leftSection={<IconRefresh size={16} />}
                loading={devices.isFetching && !devices.isPending}
                onClick={() => devices.refetch()}
              >
                {t('common:refresh')}
              </Button>
            )}
          </>
        }
      />
      {devices.data?.summary ? <DeviceStats counts={devices.data.summary} /> : null}
      <Card withBorder radius="lg" p="md">
        <DeviceFilters list={list} />
        <SelectionBar
          autoRefresh={autoRefresh}
          selectedCount={selectedIds.length}
          deleting={bulkDeletion.isPending}
          onClear={() => setSelected({})}
          onDelete={removeSelected}
        />
        <DeviceTable
          devices={devices}
          list={list}
          selected={selected}
          onSelect={setSelected}
          onDelete={removeOne}
        />
      </Card>
    </>
  );
}
