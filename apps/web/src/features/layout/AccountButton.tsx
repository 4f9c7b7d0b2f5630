import { ActionIcon, type ActionIconProps } from '@mantine/core';
import { IconUserCircle } from '@tabler/icons-react';
import type { ComponentPropsWithRef } from 'react';
import { useTranslation } from 'react-i18next';

/** The header's account button: the same before the account menu has loaded and after. */
export function AccountButton(props: ActionIconProps & ComponentPropsWithRef<'button'>) {
  const { t } = useTranslation('layout');
  return (
    <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t('account.menu')} {...props}>
      <IconUserCircle size={22} stroke={1.6} />
    </ActionIcon>
  );
}
