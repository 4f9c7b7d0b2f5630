import { Modal } from '@mantine/core';
import type { VrUser } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { VrUserSessionTimeline } from './VrUserSessionTimeline';

export interface VrUserSessionsModalProps {
  vrUser?: VrUser;
  onClose: () => void;
}

export function VrUserSessionsModal({ vrUser, onClose }: VrUserSessionsModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={Boolean(vrUser)}
      onClose={onClose}
      size="90rem"
      title={t('vrUsers:sessionsTitle', { name: vrUser?.name ?? '' })}
    >
      <VrUserSessionTimeline vrUserId={vrUser?.id} />
    </Modal>
  );
}
