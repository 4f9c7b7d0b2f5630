import { actionsColumn } from '../../components/RowActions';
import { Badge, Button, Card, Group, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { IconKey, IconPlus, IconSearch, IconUserCog } from '@tabler/icons-react';
import { useColumns } from '../../components/use-columns';
import { ACCOUNT_SORT_FIELDS, type Account, type Role } from '@vrtc/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { organizationOptions, useOrganization } from '../../api/organizations';
import { useCurrentUser } from '../../auth/AuthProvider';
import { DataTable, PAGE_SIZE } from '../../components/DataTable';
import { Empty } from '../../components/Empty';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { ListFilters } from '../../components/ListFilters';
import { ServerSelect } from '../../components/ServerSelect';
import { formatDate } from '../../lib/format';
import { isUuid, oneOf, useListState } from '../../lib/list-state';
import { useConfirmedAction } from '../../components/use-confirmed-action';
import { useAccounts, useDeleteAccount } from '../../api/accounts';
import { ChangePasswordModal } from './ChangePasswordModal';
import { UserFormModal } from './UserFormModal';

/** Table badges show their whole label: a narrow column never cuts it to an ellipsis. */
const FULL_LABEL = { label: { overflow: 'visible' } } as const;

const ROLES: Role[] = ['admin', 'client', 'auditor'];

export function UsersPage() {
  const { t, i18n } = useTranslation('adminUsers');
  const me = useCurrentUser();
  const list = useListState({
    pageSize: PAGE_SIZE,
    sortFields: ACCOUNT_SORT_FIELDS,
    defaultSort: { sort: 'email', order: 'asc' },
    filters: { organization_id: isUuid, role: oneOf(ROLES) },
  });
  const organizationId = list.filters.organization_id ?? null;
  const role = list.filters.role ?? null;
  const accounts = useAccounts({ ...list.filters, ...list.query });
  // The name of the organisation a filter from the URL points at.
  const filterOrganization = useOrganization(organizationId ?? undefined);
  const deleteAccount = useConfirmedAction(useDeleteAccount(), {
    success: t('deleted'),
    error: t('deleteFailed'),
  });
  const [editing, setEditing] = useState<{ account?: Account } | undefined>();
  const [passwordFor, setPasswordFor] = useState<Account | undefined>();

  async function remove(account: Account) {
    await deleteAccount(account.id, {
      title: t('deleteTitle'),
      message: t('deleteConfirm', { email: account.email }),
      confirmLabel: t('common:delete'),
      danger: true,
    });
  }

  const columns = useColumns<Account>(
    t,
    () => [
      {
        accessorKey: 'email',
        header: t('email'),
        cell: ({ row: { original: account } }) => (
          <Group gap={6} wrap="nowrap">
            <Text fw={500} size="sm">
              {account.email}
            </Text>
            {account.id === me.id ? (
              <Badge size="xs" variant="outline">
                {t('you')}
              </Badge>
            ) : null}
          </Group>
        ),
      },
      {
        accessorKey: 'role',
        header: t('role'),
        meta: { card: 'fact' },
        cell: (c) => (
          <Badge
            color={c.row.original.role === 'admin' ? 'grape' : 'blue'}
            variant="light"
            styles={FULL_LABEL}
          >
            {t(`common:role.${c.row.original.role}`)}
          </Badge>
        ),
      },
      { accessorKey: 'organization_name', header: t('organization'), meta: { card: 'fact' } },
      {
        accessorKey: 'active',
        header: t('status'),
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
        accessorKey: 'created_at',
        header: t('created'),
        cell: (c) => (
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {formatDate(c.row.original.created_at, i18n.language)}
          </Text>
        ),
      },
      actionsColumn<Account>(t, (account) => [
        { kind: 'edit', onClick: () => setEditing({ account }) },
        {
          label: t('changePassword'),
          icon: IconKey,
          color: 'orange',
          onClick: () => setPasswordFor(account),
        },
        {
          kind: 'delete',
          disabledReason: account.id === me.id && t('cannotDeleteSelf'),
          onClick: () => remove(account),
        },
      ]),
    ],
    [me.id],
  );

  const hasData = Boolean(accounts.data);

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
      <Card withBorder radius="lg" p="md">
        <SimpleGrid cols={{ base: 1, sm: 3 }} mb="md" spacing="sm">
          <TextInput
            aria-label={t('search')}
            placeholder={t('searchPlaceholder')}
            leftSection={<IconSearch size={16} />}
            value={list.search}
            onChange={(event) => list.setSearch(event.currentTarget.value)}
          />
          <ListFilters active={Object.keys(list.filters).length}>
            <ServerSelect
              aria-label={t('organization')}
              placeholder={t('allOrganizations')}
              options={organizationOptions}
              value={organizationId}
              valueLabel={filterOrganization.data?.name}
              onChange={(id) => list.setFilters({ organization_id: id })}
              clearable
              nothingFoundMessage={t('nothingFound')}
            />
            <Select
              aria-label={t('role')}
              placeholder={t('allRoles')}
              data={[
                { value: 'admin', label: t('common:role.admin') },
                { value: 'client', label: t('common:role.client') },
                { value: 'auditor', label: t('common:role.auditor') },
              ]}
              value={role}
              onChange={(value) => list.setFilters({ role: value })}
              clearable
            />
          </ListFilters>
        </SimpleGrid>
        <QueryState
          isPending={accounts.isPending}
          error={hasData ? null : accounts.error}
          errorText={t('loadFailed')}
          onRetry={() => accounts.refetch()}
        >
          <DataTable
            rows={accounts.data?.users ?? []}
            total={accounts.data?.total ?? 0}
            loading={accounts.isPlaceholderData}
            state={list}
            columns={columns}
            getRowId={(account) => account.id}
            empty={
              list.filtered ? (
                <Empty title={t('noMatches')} />
              ) : (
                <Empty
                  icon={<IconUserCog size={28} />}
                  title={t('emptyTitle')}
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
      <UserFormModal
        opened={Boolean(editing)}
        account={editing?.account}
        defaultOrganization={
          organizationId && filterOrganization.data
            ? { value: organizationId, label: filterOrganization.data.name }
            : undefined
        }
        onClose={() => setEditing(undefined)}
      />
      <ChangePasswordModal account={passwordFor} onClose={() => setPasswordFor(undefined)} />
    </>
  );
}
