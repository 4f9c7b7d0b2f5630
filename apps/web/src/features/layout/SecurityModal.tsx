import { Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SecurityPanel } from '../../components/mfa/SecurityPanel';

export interface SecurityModalProps {
  opened: boolean;
  onClose: () => void;
}

/** The account menu's "Two-factor authentication": the account's own second factors. */
export function SecurityModal({ opened, onClose }: SecurityModalProps) {
  const { t } = useTranslation('mfa');
  return (
    <Modal opened={opened} onClose={onClose} title={t('title')} size="lg">
      {opened ? <SecurityPanel /> : null}
    </Modal>
  );
}
