import { Text } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useServerConnection } from '../../api/connection';
import { formatTime } from '../../lib/format';
import { DangerNotice } from './DangerNotice';

/**
 * Said above every screen while the server cannot be reached: what is on screen is what was last
 * read (and when), and the console keeps trying by itself. Gone with the first answer.
 */
export function ConnectionBanner() {
  const { t, i18n } = useTranslation();
  const { reachable, lastReachedAt } = useServerConnection();
  if (reachable) return null;
  return (
    <DangerNotice
      role="alert"
      testId="connection-banner"
      icon={<IconPlugConnectedX size={20} aria-hidden />}
      title={t('layout:offline.title')}
    >
      <Text size="sm">
        {lastReachedAt === undefined
          ? t('layout:offline.text')
          : t('layout:offline.textSince', {
              time: formatTime(new Date(lastReachedAt), i18n.language),
            })}
      </Text>
    </DangerNotice>
  );
}
