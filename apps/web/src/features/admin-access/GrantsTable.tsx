import { Group, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import {
  ACCESS_ENTRY_ORGANIZATIONS,
  type ScenarioAccessEntry,
  type ScenarioAccessOrganization,
  type ScenarioGrantsQuery,
} from '@vrtc/contract';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useContentText } from '../../lib/content-text';
import { useScenarioGrants } from '../../api/access';
import { DataTable } from '../../components/DataTable';
import { Empty } from '../../components/Empty';
import { ExpiryBadge } from '../../components/ExpiryBadge';
import { QueryState } from '../../components/QueryState';
import { actionsColumn } from '../../components/RowActions';
import type { ColumnDef } from '../../components/table-model';
import { formatExpiryDay } from '../../lib/expiry';
import { formatDateTime } from '../../lib/format';
import { useKeepPageInRange, useLocalListState } from '../../lib/list-state';

const GRANT_SORT_FIELDS = [
  'organization_name',
  'granted_at',
  'expires_at',
] as const satisfies readonly NonNullable<ScenarioGrantsQuery['sort']>[];

/** A grant's columns: organisation, granted when and by whom, expiry and its state; revoke. */
function grantColumns(
  t: TFunction<'adminAccess'>,
  language: string,
  onRevoke: (organization: ScenarioAccessOrganization) => void,
): ColumnDef<ScenarioAccessOrganization, unknown>[] {
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
      cell: (c) => formatDateTime(c.row.original.granted_at, language),
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
            {o.expires_at ? formatExpiryDay(o.expires_at, language) : t('common:none')}
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
        onClick: () => onRevoke(o),
      },
    ]),
  ];
}

/**
 * The organisations holding a grant of one scenario, live or expired, 10 a page, sorted and
 * searched by the server. The first page by name comes with the scenario's entry.
 */
export function GrantsTable({
  entry,
  onRevoke,
}: {
  entry: ScenarioAccessEntry;
  onRevoke: (organization: ScenarioAccessOrganization) => void;
}) {
  const { t, i18n } = useTranslation('adminAccess');
  const content = useContentText();
  const columns = grantColumns(t, i18n.language, onRevoke);
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
          aria-label={t('searchOrganizations', {
            scenario: content.text(entry.scenario_name, entry.scenario_name_en),
          })}
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
