import { Badge, Group, Text } from '@mantine/core';
import { IconChartBar, IconKey } from '@tabler/icons-react';
import type { Organization } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { actionsColumn } from '../../components/RowActions';
import { activeColumn, createdColumn } from '../../components/status-columns';
import { FULL_LABEL_BADGE } from '../../components/StatusBadge';
import { Tooltip } from '../../components/Tooltip';
import { useColumns } from '../../components/use-columns';
import { formatPercent } from '../../lib/format';

/** What a row's buttons do. */
export interface OrganizationActions {
  onAnalytics: (organization: Organization) => void;
  onSso: (organization: Organization) => void;
  onEdit: (organization: Organization) => void;
  onDelete: (organization: Organization) => void;
}

/** The organisations table's columns: name, status, figures, created; analytics, edit, delete. */
export function useOrganizationColumns(actions: OrganizationActions) {
  const { t, i18n } = useTranslation('adminOrganizations');
  return useColumns<Organization>(t, () => [
    {
      accessorKey: 'name',
      header: t('col.name'),
      cell: (c) => <Text fw={500}>{c.row.original.name}</Text>,
    },
    activeColumn(t('col.status'), { active: t('active'), inactive: t('inactive') }),
    {
      id: 'total_users',
      accessorFn: (o) => o.stats?.total_users ?? 0,
      header: () => <span title={t('col.peopleHint')}>{t('col.people')}</span>,
      cell: ({ row: { original: o } }) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }} title={t('col.peopleHint')}>
          {o.stats?.total_users ?? 0} / {o.stats?.total_vr_users ?? 0}
        </Text>
      ),
    },
    {
      id: 'total_sessions',
      accessorFn: (o) => o.stats?.total_sessions ?? 0,
      header: () => <span title={t('col.sessionsHint')}>{t('col.sessions')}</span>,
      cell: ({ row: { original: o } }) => {
        const active = o.stats?.active_sessions ?? 0;
        return (
          <Group gap={6} wrap="nowrap">
            <Text size="sm">{o.stats?.total_sessions ?? 0}</Text>
            {active > 0 ? (
              <Tooltip label={t('col.activeSessions')}>
                <Badge
                  color="blue"
                  variant="light"
                  styles={FULL_LABEL_BADGE}
                  aria-label={`${t('col.activeSessions')}: ${active}`}
                >
                  {active}
                </Badge>
              </Tooltip>
            ) : null}
          </Group>
        );
      },
    },
    {
      id: 'success_rate',
      accessorFn: (o) => o.stats?.success_rate ?? 0,
      header: t('col.successRate'),
      cell: (c) => formatPercent(c.getValue() as number, i18n.language),
    },
    {
      id: 'total_devices',
      accessorFn: (o) => o.stats?.total_devices ?? 0,
      header: () => <span title={t('col.devicesHint')}>{t('col.devices')}</span>,
      cell: ({ row: { original: o } }) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }} title={t('col.devicesHint')}>
          <Text
            span
            c={
              (o.stats?.online_devices ?? 0) > 0
                ? 'var(--mantine-color-green-light-color)'
                : 'dimmed'
            }
            fw={600}
          >
            {o.stats?.online_devices ?? 0}
          </Text>{' '}
          / {o.stats?.total_devices ?? 0}
        </Text>
      ),
    },
    createdColumn(t('col.created'), i18n.language),
    actionsColumn<Organization>(t, (organization) => [
      {
        label: t('analytics.open'),
        icon: IconChartBar,
        color: 'grape',
        onClick: () => actions.onAnalytics(organization),
      },
      {
        label: t('sso.title'),
        icon: IconKey,
        color: 'blue',
        onClick: () => actions.onSso(organization),
      },
      { kind: 'edit', onClick: () => actions.onEdit(organization) },
      { kind: 'delete', onClick: () => actions.onDelete(organization) },
    ]),
  ]);
}
