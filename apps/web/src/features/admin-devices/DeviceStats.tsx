import { SimpleGrid } from '@mantine/core';
import {
  IconClockPause,
  IconDeviceVisionPro,
  IconPlayerPlay,
  IconPlugConnectedX,
} from '@tabler/icons-react';
import type { AdminDeviceList } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { StatCard } from '../../components/StatCard';

/** The stat cards: devices under the filters, by status. */
export function DeviceStats({ counts }: { counts: AdminDeviceList['summary'] }) {
  const { t } = useTranslation('adminDevices');
  return (
    <SimpleGrid cols={{ base: 2, lg: 4 }} mb="lg">
      <StatCard
        label={t('stats.total')}
        value={counts.total}
        icon={<IconDeviceVisionPro size={20} />}
      />
      <StatCard
        label={t('stats.waiting')}
        value={counts.waiting}
        color="green"
        icon={<IconClockPause size={20} />}
      />
      <StatCard
        label={t('stats.inSession')}
        value={counts.in_session}
        color="blue"
        icon={<IconPlayerPlay size={20} />}
      />
      <StatCard
        label={t('stats.offline')}
        value={counts.offline}
        color="gray"
        icon={<IconPlugConnectedX size={20} />}
      />
    </SimpleGrid>
  );
}
