import { actionsColumn } from '../../components/RowActions';
import { Anchor, Button, Text } from '@mantine/core';
import { Link } from 'react-router';
import { IconEye, IconPlus, IconUsers } from '@tabler/icons-react';
import { useColumns } from '../../components/use-columns';
import { VR_USER_SORT_FIELDS, type VrUser } from '@vrtc/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorCodeOf } from '../../lib/error-text';
import { useVrUserList } from '../../api/vr-users';
import { PAGE_SIZE } from '../../components/DataTable';
import { ListCard, ListSearch } from '../../components/ListCard';
import { PageHeader } from '../../components/PageHeader';
import { formatDate, formatDateTime } from '../../lib/format';
import { useListState } from '../../lib/list-state';
import { notifyError } from '../../lib/notify';
import { useConfirmedAction } from '../../components/use-confirmed-action';
import { useDeleteVrUser } from '../../api/vr-users';
import { lazyDialog } from '../../components/lazy-dialog';
import type { VrUserFormModalProps } from './VrUserFormModal';
import type { VrUserSessionsModalProps } from './VrUserSessionsModal';

// Loaded when first opened: the page's first visit carries the table alone.
const VrUserFormModal = lazyDialog<VrUserFormModalProps>(
  () => import('./VrUserFormModal').then((module) => module.VrUserFormModal),
  (props) => props.opened,
  (props) => ({ ...props, opened: false }),
);
const VrUserSessionsModal = lazyDialog<VrUserSessionsModalProps>(
  () => import('./VrUserSessionsModal').then((module) => module.VrUserSessionsModal),
  (props) => Boolean(props.vrUser),
  (props) => ({ ...props, vrUser: undefined }),
);

export function VrUsersPage() {
  const { t, i18n } = useTranslation();
  const list = useListState({
    pageSize: PAGE_SIZE,
    sortFields: VR_USER_SORT_FIELDS,
    defaultSort: { sort: 'name', order: 'asc' },
  });
  const vrUsers = useVrUserList(list.query);
  const deleteVrUser = useConfirmedAction(useDeleteVrUser(), {
    success: t('vrUsers:deleted'),
    error: t('common:error'),
    // Sessions started meanwhile: the server's answer words the refusal (with its count).
    onError: (error) => {
      if (errorCodeOf(error, ['vr_user_has_sessions'])) void vrUsers.refetch();
    },
  });
  const [editing, setEditing] = useState<{ vrUser?: VrUser } | undefined>();
  const [viewing, setViewing] = useState<VrUser | undefined>();

  // The same words as the server's refusal (409 vr_user_has_sessions).
  const cannotDeleteMessage = (vrUser: VrUser) =>
    t('errors:codes.vr_user_has_sessions', { name: vrUser.name, count: vrUser.session_count });

  async function remove(vrUser: VrUser) {
    if (vrUser.session_count > 0) {
      notifyError(cannotDeleteMessage(vrUser));
      return;
    }
    await deleteVrUser(vrUser.id, {
      title: t('vrUsers:deleteTitle'),
      message: t('vrUsers:deleteConfirm', { name: vrUser.name }),
      confirmLabel: t('common:delete'),
      danger: true,
    });
  }

  const columns = useColumns<VrUser>(t, () => [
    {
      accessorKey: 'name',
      header: t('vrUsers:name'),
      cell: (c) => (
        <Anchor
          component={Link}
          to={`/vr-users/${c.row.original.id}`}
          fw={500}
          aria-label={t('vrUsers:record.open', { name: c.row.original.name })}
        >
          {c.row.original.name}
        </Anchor>
      ),
    },
    {
      accessorKey: 'notes',
      header: t('vrUsers:notes'),
      cell: (c) => (
        <Text size="sm" c={c.row.original.notes ? undefined : 'dimmed'} lineClamp={2} maw={280}>
          {c.row.original.notes || t('common:none')}
        </Text>
      ),
    },
    { accessorKey: 'session_count', header: t('vrUsers:sessionCount') },
    { accessorKey: 'completed_count', header: t('vrUsers:completedCount') },
    {
      accessorKey: 'last_session_at',
      header: t('vrUsers:lastSession'),
      meta: { card: 'fact' },
      cell: (c) => formatDateTime(c.row.original.last_session_at, i18n.language),
    },
    {
      accessorKey: 'created_at',
      header: t('vrUsers:created'),
      cell: (c) => formatDate(c.row.original.created_at, i18n.language),
    },
    actionsColumn<VrUser>(t, (vrUser) => [
      {
        label: t('vrUsers:viewSessions'),
        icon: IconEye,
        onClick: () => {
          // A session detail left in the URL (a reload drops this dialog) belongs to no one here.
          list.setParams({ session: null }, { replace: true });
          setViewing(vrUser);
        },
      },
      { kind: 'edit', onClick: () => setEditing({ vrUser }) },
      {
        kind: 'delete',
        disabledReason:
          vrUser.session_count > 0 && t('vrUsers:deleteDisabled', { count: vrUser.session_count }),
        onClick: () => remove(vrUser),
      },
    ]),
  ]);

  return (
    <>
      <PageHeader
        title={t('vrUsers:title')}
        subtitle={t('vrUsers:subtitle')}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({})}>
            {t('vrUsers:add')}
          </Button>
        }
      />
      <ListCard
        query={vrUsers}
        toolbar={
          <ListSearch
            list={list}
            label={t('vrUsers:search')}
            placeholder={t('vrUsers:searchPlaceholder')}
            mb="md"
          />
        }
        rows={vrUsers.data?.vr_users ?? []}
        total={vrUsers.data?.total ?? 0}
        state={list}
        columns={columns}
        getRowId={(vrUser) => vrUser.id}
        noMatches={t('vrUsers:noMatches')}
        empty={{
          icon: <IconUsers size={28} />,
          title: t('vrUsers:emptyTitle'),
          description: t('vrUsers:emptyText'),
          action: (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({})}>
              {t('vrUsers:add')}
            </Button>
          ),
        }}
      />
      <VrUserFormModal
        opened={Boolean(editing)}
        vrUser={editing?.vrUser}
        onClose={() => setEditing(undefined)}
      />
      <VrUserSessionsModal vrUser={viewing} onClose={() => setViewing(undefined)} />
    </>
  );
}
