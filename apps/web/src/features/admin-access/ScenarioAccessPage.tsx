import { actionsColumn } from '../../components/RowActions';
import '@mantine/dates/styles.css';
import 'dayjs/locale/ru';
import { Accordion, Badge, Button, Card, Group, Progress, Text, TextInput } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { IconKey, IconKeyOff, IconPlus, IconSearch } from '@tabler/icons-react';
import type { ColumnDef } from '../../components/table-model';
import {
  ACCESS_ENTRY_ORGANIZATIONS,
  type ScenarioAccessEntry,
  type ScenarioAccessOrganization,
  type ScenarioAccessQuery,
  type ScenarioGrantsQuery,
} from '@vrtc/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, PAGE_SIZE } from '../../components/DataTable';
import { Empty } from '../../components/Empty';
import { PageHeader } from '../../components/PageHeader';
import { Pager } from '../../components/Pager';
import { QueryState } from '../../components/QueryState';
import { ExpiryBadge } from '../../components/ExpiryBadge';
import { formatExpiryDay } from '../../lib/expiry';
import { formatDateTime } from '../../lib/format';
import { useKeepPageInRange, useListState, useLocalListState } from '../../lib/list-state';
import { useConfirmedAction } from '../../components/use-confirmed-action';
import { useRevokeAccess, useScenarioAccess, useScenarioGrants } from '../../api/access';
import { GrantAccessModal } from './GrantAccessModal';

const ACCESS_SORT_FIELDS = ['scenario_name'] as const satisfies readonly NonNullable<
  ScenarioAccessQuery['sort']
>[];

const GRANT_SORT_FIELDS = [
  'organization_name',
  'granted_at',
  'expires_at',
] as const satisfies readonly NonNullable<ScenarioGrantsQuery['sort']>[];

export function ScenarioAccessPage() {
  const { t, i18n } = useTranslation('adminAccess');
  const list = useListState({
    pageSize: PAGE_SIZE,
    sortFields: ACCESS_SORT_FIELDS,
    defaultSort: { sort: 'scenario_name', order: 'asc' },
  });
  const access = useScenarioAccess(list.query);
  const revoke = useConfirmedAction(useRevokeAccess(), {
    success: t('revoked'),
    error: t('revokeFailed'),
  });
  const [opened, setOpened] = useState<string[]>([]);
  const [grantFor, setGrantFor] = useState<string | undefined>();

  const entries = access.data?.scenario_access ?? [];
  const total = access.data?.total ?? 0;
  useKeepPageInRange(list, entries.length, access.data?.total);
  // The dialog follows the latest data of its scenario.
  const grantEntry = entries.find((entry) => entry.scenario_id === grantFor);

  async function revokeFrom(entry: ScenarioAccessEntry, organization: ScenarioAccessOrganization) {
    await revoke(
      { scenarioId: entry.scenario_id, body: { organization_ids: [organization.organization_id] } },
      {
        title: t('revokeTitle'),
        message: t('revokeConfirm', {
          organization: organization.organization_name,
          scenario: entry.scenario_name,
        }),
        confirmLabel: t('revoke'),
        danger: true,
      },
    );
  }

  /** Every organisation that has access now; expired grants stay listed. */
  async function revokeAll(entry: ScenarioAccessEntry) {
    await revoke(
      { scenarioId: entry.scenario_id, body: { all_with_access: true } },
      {
        title: t('revokeAllTitle'),
        message: t('revokeAllConfirm', {
          count: entry.organizations_with_access,
          scenario: entry.scenario_name,
        }),
        confirmLabel: t('revokeAll'),
        danger: true,
      },
    );
  }

  function columns(entry: ScenarioAccessEntry): ColumnDef<ScenarioAccessOrganization, unknown>[] {
    return [
      {
        accessorKey: 'organization_name',
        header: t('col.organization'),
        cell: (c) => (
          <Text fw={500} size="sm">
            {c.row.original.organization_name}
          </Text>
        ),
      },
      {
        accessorKey: 'granted_at',
        header: t('col.grantedAt'),
        cell: (c) => formatDateTime(c.row.original.granted_at, i18n.language),
      },
      {
        accessorKey: 'granted_by',
        header: t('col.grantedBy'),
        cell: (c) => c.row.original.granted_by ?? t('common:none'),
      },
      {
        id: 'expires_at',
        meta: { card: 'status' },
        accessorFn: (o) => (o.expires_at ? Date.parse(o.expires_at) : Number.POSITIVE_INFINITY),
        header: t('col.expiresAt'),
        cell: ({ row: { original: o } }) => (
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" style={{ whiteSpace: 'nowrap' }} data-testid="access-expiry">
              {o.expires_at ? formatExpiryDay(o.expires_at, i18n.language) : t('common:none')}
            </Text>
            <ExpiryBadge expiresAt={o.expires_at} namespace="adminAccess" />
          </Group>
        ),
      },
      actionsColumn<ScenarioAccessOrganization>(t, (o) => [
        {
          kind: 'delete',
          label: t('revoke'),
          ariaLabel: `${t('revoke')}: ${o.organization_name}`,
          onClick: () => revokeFrom(entry, o),
        },
      ]),
    ];
  }

  return (
    <DatesProvider settings={{ locale: i18n.language === 'en' ? 'en' : 'ru', firstDayOfWeek: 1 }}>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <Card withBorder radius="lg" p="md">
        <QueryState
          isPending={access.isPending}
          error={access.data ? null : access.error}
          errorText={t('loadFailed')}
          onRetry={() => access.refetch()}
        >
          <TextInput
            aria-label={t('search')}
            placeholder={t('searchPlaceholder')}
            leftSection={<IconSearch size={16} />}
            value={list.search}
            onChange={(event) => list.setSearch(event.currentTarget.value)}
            w={{ base: '100%', sm: 320 }}
            mb="md"
          />
          {entries.length === 0 ? (
            <Empty
              icon={<IconKey size={28} />}
              title={list.filtered ? t('noMatches') : t('emptyTitle')}
              description={list.filtered ? undefined : t('emptyText')}
            />
          ) : (
            <Accordion
              multiple
              value={opened}
              onChange={setOpened}
              variant="separated"
              radius="md"
              style={access.isPlaceholderData ? { opacity: 0.6 } : undefined}
            >
              {entries.map((entry) => {
                const share = entry.total_organizations
                  ? (entry.organizations_with_access / entry.total_organizations) * 100
                  : 0;
                return (
                  <Accordion.Item key={entry.scenario_id} value={entry.scenario_id}>
                    <Accordion.Control>
                      <Group justify="space-between" wrap="wrap" gap="xs" pr="sm">
                        <Text fw={600}>{entry.scenario_name}</Text>
                        <Group gap="sm" wrap="nowrap">
                          <Progress
                            value={share}
                            w={90}
                            size="sm"
                            radius="xl"
                            aria-hidden
                            visibleFrom="xs"
                          />
                          <Badge
                            variant="light"
                            size="lg"
                            tt="none"
                            color={entry.organizations_with_access > 0 ? 'blue' : 'gray'}
                            data-testid="access-count"
                          >
                            {t('withAccessCount', {
                              with: entry.organizations_with_access,
                              total: entry.total_organizations,
                            })}
                          </Badge>
                        </Group>
                      </Group>
                    </Accordion.Control>
                    <Accordion.Panel>
                      <Group justify="flex-end" gap="xs" mb="sm">
                        <Button
                          size="xs"
                          leftSection={<IconPlus size={14} />}
                          onClick={() => setGrantFor(entry.scenario_id)}
                        >
                          {t('grantAccess')}
                        </Button>
                        <Button
                          size="xs"
                          variant="light"
                          color="red"
                          leftSection={<IconKeyOff size={14} />}
                          disabled={entry.organizations_with_access === 0}
                          onClick={() => revokeAll(entry)}
                        >
                          {t('revokeAll')}
                        </Button>
                      </Group>
                      <GrantsTable entry={entry} columns={columns(entry)} />
                    </Accordion.Panel>
                  </Accordion.Item>
                );
              })}
            </Accordion>
          )}
          {total > list.pageSize ? (
            <Pager
              total={total}
              pageIndex={list.pageIndex}
              pageSize={list.pageSize}
              onPageChange={list.setPage}
            />
          ) : null}
        </QueryState>
      </Card>
      <GrantAccessModal entry={grantEntry} onClose={() => setGrantFor(undefined)} />
    </DatesProvider>
  );
}

/**
 * The organisations holding a grant of one scenario, live or expired, 10 a page, sorted and
 * searched by the server. The first page by name comes with the scenario's entry.
 */
function GrantsTable({
  entry,
  columns,
}: {
  entry: ScenarioAccessEntry;
  columns: ColumnDef<ScenarioAccessOrganization, unknown>[];
}) {
  const { t } = useTranslation('adminAccess');
  const list = useLocalListState({
    pageSize: ACCESS_ENTRY_ORGANIZATIONS,
    sortFields: GRANT_SORT_FIELDS,
    defaultSort: { sort: 'organization_name', order: 'asc' },
  });
  const grants = useScenarioGrants(entry, list.query, !list.atStart);
  const page = list.atStart
    ? { organizations: entry.organizations, total: entry.organizations_with_grant }
    : grants.data;
  const rows = page?.organizations ?? [];
  useKeepPageInRange(list, rows.length, grants.isPlaceholderData ? undefined : page?.total);
  return (
    <QueryState
      isPending={false}
      error={list.atStart ? null : grants.error}
      errorText={t('loadFailed')}
      onRetry={() => grants.refetch()}
    >
      {entry.organizations_with_grant > ACCESS_ENTRY_ORGANIZATIONS || list.q ? (
        <TextInput
          aria-label={t('searchOrganizations', { scenario: entry.scenario_name })}
          placeholder={t('searchOrganizationsPlaceholder')}
          leftSection={<IconSearch size={16} />}
          value={list.search}
          onChange={(event) => list.setSearch(event.currentTarget.value)}
          w={{ base: '100%', sm: 320 }}
          mb="sm"
        />
      ) : null}
      <DataTable
        rows={rows}
        total={page?.total ?? 0}
        state={list}
        loading={!list.atStart && grants.isPlaceholderData}
        columns={columns}
        getRowId={(o) => o.organization_id}
        empty={<Empty title={list.q ? t('noOrganizationMatches') : t('noAccess')} />}
      />
    </QueryState>
  );
}
