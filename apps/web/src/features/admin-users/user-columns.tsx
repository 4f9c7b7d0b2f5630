import { Badge, Group, Text } from '@mantine/core';
import { IconKey, IconShieldOff } from '@tabler/icons-react';
import type { Account } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { actionsColumn } from '../../components/RowActions';
import { activeColumn, createdColumn } from '../../components/status-columns';
import { FULL_LABEL_BADGE } from '../../components/StatusBadge';
import { useColumns } from '../../components/use-columns';

/** What a row's buttons do. */
export interface UserActions {
  onEdit: (account: Account) => void;
  onChangePassword: (account: Account) => void;
  onResetMfa: (account: Account) => void;
  onDelete: (account: Account) => void;
}

/**
 * The accounts table's columns: email (and "you"), role, organisation, status, created; edit,
 * password, a second factor's reset (only where the account has one), delete.
 */
export function useUserColumns(meId: string, actions: UserActions) {
  const { t, i18n } = useTranslation('adminUsers');
  return useColumns<Account>(
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
            {account.id === meId ? (
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
            styles={FULL_LABEL_BADGE}
          >
            {t(`common:role.${c.row.original.role}`)}
          </Badge>
        ),
      },
      { accessorKey: 'organization_name', header: t('organization'), meta: { card: 'fact' } },
      activeColumn(t('status'), { active: t('active'), inactive: t('inactive') }),
      createdColumn(t('created'), i18n.language),
      actionsColumn<Account>(t, (account) => [
        { kind: 'edit', onClick: () => actions.onEdit(account) },
        {
          label: t('changePassword'),
          icon: IconKey,
          color: 'orange',
          onClick: () => actions.onChangePassword(account),
        },
        ...(account.mfa_enabled
          ? [
              {
                label: t('mfaReset.action'),
                icon: IconShieldOff,
                color: 'red',
                onClick: () => actions.onResetMfa(account),
              },
            ]
          : []),
        {
          kind: 'delete' as const,
          disabledReason: account.id === meId && t('cannotDeleteSelf'),
          onClick: () => actions.onDelete(account),
        },
      ]),
    ],
    [meId],
  );
}
