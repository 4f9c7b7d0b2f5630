import { Modal } from '@mantine/core';
import type { VrUser } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { VrUserSessionTimeline } from './VrUserSessionTimeline';

export function VrUserSessionsModal({ vrUser, onClose }: { vrUser?: VrUser; onClose: () => void }) {
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
