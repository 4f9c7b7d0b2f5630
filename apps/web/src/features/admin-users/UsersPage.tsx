import { Button, Select, SimpleGrid } from '@mantine/core';
import { IconPlus, IconUserCog } from '@tabler/icons-react';
import { ACCOUNT_SORT_FIELDS, type Account, type Role } from '@vrtc/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { organizationOptions, useOrganization } from '../../api/organizations';
import { useCurrentUser } from '../../auth/AuthProvider';
import { PAGE_SIZE } from '../../components/DataTable';
import { ListCard, ListSearch } from '../../components/ListCard';
import { PageHeader } from '../../components/PageHeader';
import { ListFilters } from '../../components/ListFilters';
import { ServerSelect } from '../../components/ServerSelect';
import { isUuid, oneOf, useListState } from '../../lib/list-state';
import { useConfirmedAction } from '../../components/use-confirmed-action';
import { useAccounts, useDeleteAccount } from '../../api/accounts';
import { AdminMfaPolicy } from './AdminMfaPolicy';
import { ChangePasswordModal } from './ChangePasswordModal';
import { ResetMfaModal } from './ResetMfaModal';
import { useUserColumns } from './user-columns';
import { UserFormModal } from './UserFormModal';

const ROLES: Role[] = ['admin', 'client', 'auditor'];

export function UsersPage() {
  const { t } = useTranslation('adminUsers');
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
  const [mfaResetFor, setMfaResetFor] = useState<Account | undefined>();

  async function remove(account: Account) {
    await deleteAccount(account.id, {
      title: t('deleteTitle'),
      message: t('deleteConfirm', { email: account.email }),
      confirmLabel: t('common:delete'),
      danger: true,
    });
  }

  const columns = useUserColumns(me.id, {
    onEdit: (account) => setEditing({ account }),
    onChangePassword: setPasswordFor,
    onResetMfa: setMfaResetFor,
    onDelete: remove,
  });

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
      <AdminMfaPolicy />
      <ListCard
        query={accounts}
        errorText={t('loadFailed')}
        filters={
          <SimpleGrid cols={{ base: 1, sm: 3 }} mb="md" spacing="sm">
            <ListSearch
              list={list}
              label={t('search')}
              placeholder={t('searchPlaceholder')}
              inGrid
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
        }
        rows={accounts.data?.users ?? []}
        total={accounts.data?.total ?? 0}
        state={list}
        columns={columns}
        getRowId={(account) => account.id}
        noMatches={t('noMatches')}
        empty={{
          icon: <IconUserCog size={28} />,
          title: t('emptyTitle'),
          action: (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({})}>
              {t('add')}
            </Button>
          ),
        }}
      />
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
      <ResetMfaModal account={mfaResetFor} onClose={() => setMfaResetFor(undefined)} />
    </>
  );
}
