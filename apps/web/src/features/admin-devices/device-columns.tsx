import { actionsColumn } from '../../components/RowActions';
import { Badge, Code, Text } from '@mantine/core';
import { useColumns } from '../../components/use-columns';
import type { Device } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { FULL_LABEL_BADGE, StatusBadge } from '../../components/StatusBadge';
import { formatDate, formatRelativeTime } from '../../lib/format';
import { canDelete } from './device-options';
import { Tooltip } from '../../components/Tooltip';

/** The All devices table's columns; the last one deletes a device (not one in a session). */
export function useDeviceColumns(onDelete: (device: Device) => void) {
  const { t, i18n } = useTranslation('adminDevices');
  return useColumns<Device>(
    t,
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
      { accessorKey: 'organization_name', header: t('col.organization'), meta: { card: 'fact' } },
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
        meta: { card: 'fact' },
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
      actionsColumn<Device>(t, (device) => [
        {
          kind: 'delete',
          disabledReason: !canDelete(device) && t('inSessionHint'),
          onClick: () => onDelete(device),
        },
      ]),
    ],
    // The columns change with the language; `onDelete` reads the page's state when called.
  );
}
