import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import {
  IconActivity,
  IconBuilding,
  IconChartBar,
  IconCircleCheck,
  IconDeviceVisionPro,
  IconPencil,
  IconPlus,
  IconSearch,
  IconTrash,
} from '@tabler/icons-react';
import type { ColumnDef } from '@tanstack/react-table';
import type { Organization } from '@vrtc/contract';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client';
import { confirmAction } from '../../components/confirm';
import { ACTIONS_COLUMN_ID, DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { StatCard } from '../../components/StatCard';
import { formatDate, formatPercent } from '../../lib/format';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useDeleteOrganization, useOrganizations } from './api';
import { OrganizationAnalyticsModal } from './OrganizationAnalyticsModal';
import { OrganizationFormModal } from './OrganizationFormModal';

/** Table badges show their whole label: a narrow column never cuts it to an ellipsis. */
const FULL_LABEL = { label: { overflow: 'visible' } } as const;

function summarize(organizations: Organization[]) {
  let sessions = 0;
  let online = 0;
  let devices = 0;
  for (const organization of organizations) {
    sessions += organization.stats?.total_sessions ?? 0;
    online += organization.stats?.online_devices ?? 0;
    devices += organization.stats?.total_devices ?? 0;
  }
  const active = organizations.filter((organization) => organization.active).length;
  return { total: organizations.length, active, sessions, online, devices };
}

export function OrganizationsPage() {
  const { t, i18n } = useTranslation('adminOrganizations');
  const organizations = useOrganizations();
  const deleteOrganization = useDeleteOrganization();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<{ organization?: Organization } | undefined>();
  const [analyticsFor, setAnalyticsFor] = useState<Organization | undefined>();

  const all = useMemo(() => organizations.data ?? [], [organizations.data]);
  const summary = useMemo(() => summarize(all), [all]);
  const visible = useMemo(() => {
    const needle = search.trim().toLocaleLowerCase();
    return needle
      ? all.filter((organization) => organization.name.toLocaleLowerCase().includes(needle))
      : all;
  }, [all, search]);

  async function remove(organization: Organization) {
    const confirmed = await confirmAction({
      title: t('deleteTitle'),
      message: t('deleteConfirm', { name: organization.name }),
      confirmLabel: t('common:delete'),
      danger: true,
    });
    if (!confirmed) return;
    try {
      await deleteOrganization.mutateAsync(organization.id);
      notifySuccess(t('deleted'));
    } catch (error) {
      notifyError(errorMessage(error, t('deleteFailed')));
    }
  }

  const columns = useMemo<ColumnDef<Organization, unknown>[]>(
    () => [
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
        id: 'people',
        accessorFn: (o) => o.stats?.total_users ?? 0,
        header: () => <span title={t('col.peopleHint')}>{t('col.people')}</span>,
        cell: ({ row: { original: o } }) => (
          <Text size="sm" style={{ whiteSpace: 'nowrap' }} title={t('col.peopleHint')}>
            {o.stats?.total_users ?? 0} / {o.stats?.total_vr_users ?? 0}
          </Text>
        ),
      },
      {
        id: 'sessions',
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
        id: 'devices',
        accessorFn: (o) => o.stats?.online_devices ?? 0,
        header: () => <span title={t('col.devicesHint')}>{t('col.devices')}</span>,
        cell: ({ row: { original: o } }) => (
          <Text size="sm" style={{ whiteSpace: 'nowrap' }} title={t('col.devicesHint')}>
            <Text span c={(o.stats?.online_devices ?? 0) > 0 ? 'green.7' : 'dimmed'} fw={600}>
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
      {
        id: ACTIONS_COLUMN_ID,
        header: t('common:actions'),
        enableSorting: false,
        cell: ({ row: { original: organization } }) => (
          <Group gap={4} wrap="nowrap" onClick={(event) => event.stopPropagation()}>
            <Tooltip label={t('analytics.open')}>
              <ActionIcon
                variant="subtle"
                color="grape"
                onClick={() => setAnalyticsFor(organization)}
                aria-label={t('analytics.open')}
              >
                <IconChartBar size={18} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t('common:edit')}>
              <ActionIcon
                variant="subtle"
                onClick={() => setEditing({ organization })}
                aria-label={t('common:edit')}
              >
                <IconPencil size={18} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t('common:delete')}>
              <ActionIcon
                variant="subtle"
                color="red"
                onClick={() => remove(organization)}
                aria-label={t('common:delete')}
              >
                <IconTrash size={18} />
              </ActionIcon>
            </Tooltip>
          </Group>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, i18n.language],
  );

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
      {hasData ? (
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
            value={summary.sessions}
            color="grape"
            icon={<IconActivity size={20} />}
          />
          <StatCard
            label={t('stats.devices')}
            value={`${summary.online} / ${summary.devices}`}
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
              value={search}
              onChange={(event) => setSearch(event.currentTarget.value)}
              w={{ base: '100%', sm: 320 }}
            />
            <Text size="xs" c="dimmed">
              {t('rowHint')}
            </Text>
          </Group>
          <DataTable
            data={visible}
            columns={columns}
            getRowId={(organization) => organization.id}
            initialSorting={[{ id: 'name', desc: false }]}
            onRowClick={setAnalyticsFor}
            empty={
              all.length === 0 ? (
                <Stack align="center" py="xl" gap="sm">
                  <IconBuilding size={40} opacity={0.4} />
                  <Text fw={500}>{t('emptyTitle')}</Text>
                  <Text c="dimmed" size="sm">
                    {t('emptyText')}
                  </Text>
                  <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({})}>
                    {t('add')}
                  </Button>
                </Stack>
              ) : (
                <Text c="dimmed" ta="center" py="xl">
                  {t('noMatches')}
                </Text>
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
