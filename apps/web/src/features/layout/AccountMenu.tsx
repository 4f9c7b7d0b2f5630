import { Menu } from '@mantine/core';
import { IconApi, IconKey, IconShieldLock } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../auth/AuthProvider';
import { AccountButton } from './AccountButton';

export interface AccountMenuProps {
  /** Whether the button had the focus when it was pressed (a keyboard's Enter or Space). */
  focused: boolean;
  onChangePassword: () => void;
  onApiTokens: () => void;
  onSecurity: () => void;
}

/**
 * The account menu itself (Mantine's Menu and floating-ui), loaded by UserMenu on the first press
 * of its button: it mounts closed, takes over the button's focus, then opens, so that the first
 * opening behaves as the later ones (the focus moves into the menu and returns to the button).
 */
export function AccountMenu({
  focused,
  onChangePassword,
  onApiTokens,
  onSecurity,
}: AccountMenuProps) {
  const { t } = useTranslation('layout');
  const user = useCurrentUser();
  const [opened, setOpened] = useState(false);
  const targetRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focused) targetRef.current?.focus();
    setOpened(true);
  }, [focused]);
  return (
    <Menu position="bottom-end" shadow="md" opened={opened} onChange={setOpened}>
      <Menu.Target>
        <AccountButton ref={targetRef} />
      </Menu.Target>
      <Menu.Dropdown maw="calc(100vw - 16px)">
        <Menu.Label style={{ overflowWrap: 'anywhere' }}>{user.email}</Menu.Label>
        <Menu.Item leftSection={<IconKey size={16} />} onClick={onChangePassword}>
          {t('account.changePassword')}
        </Menu.Item>
        <Menu.Item leftSection={<IconApi size={16} />} onClick={onApiTokens}>
          {t('account.apiTokens')}
        </Menu.Item>
        <Menu.Item leftSection={<IconShieldLock size={16} />} onClick={onSecurity}>
          {t('account.security')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
