import { actionsColumn } from '../../components/RowActions';
import { Badge, Button, Card, Group, SimpleGrid, Text, TextInput } from '@mantine/core';
import {
  IconActivity,
  IconBuilding,
  IconChartBar,
  IconCircleCheck,
  IconDeviceVisionPro,
  IconPlus,
  IconSearch,
} from '@tabler/icons-react';
import { useColumns } from '../../components/use-columns';
import { ORGANIZATION_SORT_FIELDS, type Organization } from '@vrtc/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { holdingsText } from '../../lib/error-text';
import { useOrganizationList } from '../../api/organizations';
import { DataTable, PAGE_SIZE } from '../../components/DataTable';
import { Empty } from '../../components/Empty';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { StatCard } from '../../components/StatCard';
import { formatDate, formatPercent } from '../../lib/format';
import { useListState } from '../../lib/list-state';
import { useConfirmedAction } from '../../components/use-confirmed-action';
import { useDeleteOrganization, useSaveOrganization } from '../../api/organizations';
import { OrganizationAnalyticsModal } from './OrganizationAnalyticsModal';
import { OrganizationFormModal } from './OrganizationFormModal';
import { Tooltip } from '../../components/Tooltip';

/** What the organisation holds ("1 account, 2 headsets"), or undefined when nothing. */
function organizationHoldings(organization: Organization): string | undefined {
  const stats = organization.stats;
  if (!stats) return undefined;
  const holdings = {
    accounts: stats.total_users,
    vr_users: stats.total_vr_users,
    devices: stats.total_devices,
    sessions: stats.total_sessions,
  };
  return Object.values(holdings).some((count) => count > 0) ? holdingsText(holdings) : undefined;
}

/** Table badges show their whole label: a narrow column never cuts it to an ellipsis. */
const FULL_LABEL = { label: { overflow: 'visible' } } as const;

export function OrganizationsPage() {
  const { t, i18n } = useTranslation('adminOrganizations');
  const list = useListState({
    pageSize: PAGE_SIZE,
    sortFields: ORGANIZATION_SORT_FIELDS,
    defaultSort: { sort: 'name', order: 'asc' },
  });
  // With their figures (sorting by one needs them) and the summary of every organisation.
  const organizations = useOrganizationList({ include_stats: true, ...list.query });
  // 409 organization_in_use names what it holds now (data may have come meanwhile).
  const deleteOrganization = useConfirmedAction(useDeleteOrganization(), {
    success: t('deleted'),
    error: t('deleteFailed'),
  });
  const deactivateOrganization = useConfirmedAction(useSaveOrganization(), {
    success: t('deactivated'),
    error: t('updateFailed'),
  });
  const [editing, setEditing] = useState<{ organization?: Organization } | undefined>();
  const [analyticsFor, setAnalyticsFor] = useState<Organization | undefined>();
  const summary = organizations.data?.summary;

  async function remove(organization: Organization) {
    const holdings = organizationHoldings(organization);
    if (holdings) {
      await refuseDeletion(organization, holdings);
      return;
    }
    await deleteOrganization(organization.id, {
      title: t('deleteTitle'),
      message: t('deleteConfirm', { name: organization.name }),
      confirmLabel: t('common:delete'),
      danger: true,
    });
  }

  /**
   * An organisation that holds accounts, VR users, headsets or sessions cannot be deleted (the
   * server refuses): the dialog says what it holds and offers to deactivate it instead, or, when
   * it is inactive already, to try anyway (its figures may be a moment old).
   */
  async function refuseDeletion(organization: Organization, holdings: string) {
    const holds = t('deleteHolds', { name: organization.name, holdings });
    if (organization.active) {
      await deactivateOrganization(
        { id: organization.id, name: organization.name, active: false },
        {
          title: t('deleteHoldsTitle'),
          message: `${holds} ${t('deactivateInstead')}`,
          confirmLabel: t('deactivate'),
          danger: true,
        },
      );
      return;
    }
    await deleteOrganization(organization.id, {
      title: t('deleteHoldsTitle'),
      message: `${holds} ${t('alreadyInactive')}`,
      confirmLabel: t('deleteAnyway'),
      danger: true,
    });
  }

  const columns = useColumns<Organization>(t, () => [
    {
      accessorKey: 'name',
      header: t('col.name'),
      cell: (c) => <Text fw={500}>{c.row.original.name}</Text>,
    },
    {
      accessorKey: 'active',
      header: t('col.status'),
      cell: (c) =>
        c.row.original.active ? (
          <Badge color="green" variant="light" styles={FULL_LABEL}>
            {t('active')}
          </Badge>
        ) : (
          <Badge color="gray" variant="light" styles={FULL_LABEL}>
            {t('inactive')}
          </Badge>
        ),
    },
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
                  styles={FULL_LABEL}
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
    {
      accessorKey: 'created_at',
      header: t('col.created'),
      cell: (c) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDate(c.row.original.created_at, i18n.language)}
        </Text>
      ),
    },
    actionsColumn<Organization>(t, (organization) => [
      {
        label: t('analytics.open'),
        icon: IconChartBar,
        color: 'grape',
        onClick: () => setAnalyticsFor(organization),
      },
      { kind: 'edit', onClick: () => setEditing({ organization }) },
      { kind: 'delete', onClick: () => remove(organization) },
    ]),
  ]);

  const hasData = Boolean(organizations.data);

  return (
    <>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({})}>
            {t('add')}
          </Button>
        }
      />
      {summary ? (
        <SimpleGrid cols={{ base: 2, lg: 4 }} mb="lg">
          <StatCard
            label={t('stats.organizations')}
            value={summary.total}
            icon={<IconBuilding size={20} />}
          />
          <StatCard
            label={t('stats.active')}
            value={summary.active}
            color="green"
            icon={<IconCircleCheck size={20} />}
          />
          <StatCard
            label={t('stats.sessions')}
            value={summary.total_sessions}
            color="grape"
            icon={<IconActivity size={20} />}
          />
          <StatCard
            label={t('stats.devices')}
            value={`${summary.online_devices} / ${summary.total_devices}`}
            color="teal"
            icon={<IconDeviceVisionPro size={20} />}
          />
        </SimpleGrid>
      ) : null}
      <Card withBorder radius="lg" p="md">
        <QueryState
          isPending={organizations.isPending}
          error={hasData ? null : organizations.error}
          errorText={t('loadFailed')}
          onRetry={() => organizations.refetch()}
        >
          <Group justify="space-between" mb="md" gap="sm">
            <TextInput
              aria-label={t('search')}
              placeholder={t('searchPlaceholder')}
              leftSection={<IconSearch size={16} />}
              value={list.search}
              onChange={(event) => list.setSearch(event.currentTarget.value)}
              w={{ base: '100%', sm: 320 }}
            />
            <Text size="xs" c="dimmed">
              {t('rowHint')}
            </Text>
          </Group>
          <DataTable
            rows={organizations.data?.organizations ?? []}
            total={organizations.data?.total ?? 0}
            loading={organizations.isPlaceholderData}
            state={list}
            columns={columns}
            getRowId={(organization) => organization.id}
            onRowClick={setAnalyticsFor}
            empty={
              list.filtered ? (
                <Empty title={t('noMatches')} />
              ) : (
                <Empty
                  icon={<IconBuilding size={28} />}
                  title={t('emptyTitle')}
                  description={t('emptyText')}
                  action={
                    <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({})}>
                      {t('add')}
                    </Button>
                  }
                />
              )
            }
          />
        </QueryState>
      </Card>
      <OrganizationFormModal
        opened={Boolean(editing)}
        organization={editing?.organization}
        onClose={() => setEditing(undefined)}
      />
      <OrganizationAnalyticsModal
        organization={analyticsFor}
        onClose={() => setAnalyticsFor(undefined)}
      />
    </>
  );
}
