import { IconDeviceVisionPro } from '@tabler/icons-react';
import type { RowSelectionState } from '../../components/table-model';
import type { Device } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/DataTable';
import { Empty } from '../../components/Empty';
import { QueryState } from '../../components/QueryState';
import { useSelectColumn } from '../../components/select-column';
import type { useAdminDevices } from '../../api/devices';
import { useDeviceColumns } from './device-columns';
import { canDelete, type AdminDeviceListState } from './device-options';

/** The table of devices (a failed refresh keeps the last page), selectable for bulk deletion. */
export function DeviceTable({
  devices,
  list,
  selected,
  onSelect,
  onDelete,
}: {
  devices: ReturnType<typeof useAdminDevices>;
  list: AdminDeviceListState;
  selected: RowSelectionState;
  onSelect: (selected: RowSelectionState) => void;
  onDelete: (device: Device) => void;
}) {
  const { t } = useTranslation('adminDevices');
  const columns = useDeviceColumns(onDelete);
  const selectColumn = useSelectColumn<Device>();
  const filtered = list.filtered;
  return (
    <QueryState
      isPending={devices.isPending}
      error={devices.data ? null : devices.error}
      errorText={t('loadFailed')}
      onRetry={() => devices.refetch()}
    >
      <DataTable
        rows={devices.data?.devices ?? []}
        total={devices.data?.total ?? 0}
        loading={devices.isPlaceholderData}
        state={list}
        columns={columns}
        getRowId={(device) => device.id}
        selection={{ selected, onChange: onSelect, canSelect: canDelete, column: selectColumn }}
        empty={
          <Empty
            icon={<IconDeviceVisionPro size={28} />}
            title={filtered ? t('noMatches') : t('emptyTitle')}
            description={filtered ? undefined : t('emptyText')}
          />
        }
      />
    </QueryState>
  );
}
