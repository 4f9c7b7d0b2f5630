import { ActionIcon, Menu } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconKey, IconUserCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../auth/AuthProvider';
import { lazyDialog } from '../../components/lazy-dialog';
import type { ChangeOwnPasswordModalProps } from './ChangeOwnPasswordModal';

// Loaded when first opened, not with every signed-in page.
const ChangeOwnPasswordModal = lazyDialog<ChangeOwnPasswordModalProps>(
  () => import('./ChangeOwnPasswordModal').then((module) => module.ChangeOwnPasswordModal),
  (props) => props.opened,
  (props) => ({ ...props, opened: false }),
);

/** The header's menu of the signed-in account: who is signed in, and changing its password. */
export function UserMenu() {
  const { t } = useTranslation('layout');
  const user = useCurrentUser();
  const [passwordOpened, password] = useDisclosure(false);
  return (
    <>
      <Menu position="bottom-end" shadow="md">
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t('account.menu')}>
            <IconUserCircle size={22} stroke={1.6} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown maw="calc(100vw - 16px)">
          <Menu.Label style={{ overflowWrap: 'anywhere' }}>{user.email}</Menu.Label>
          <Menu.Item leftSection={<IconKey size={16} />} onClick={password.open}>
            {t('account.changePassword')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <ChangeOwnPasswordModal opened={passwordOpened} onClose={password.close} />
    </>
  );
}
