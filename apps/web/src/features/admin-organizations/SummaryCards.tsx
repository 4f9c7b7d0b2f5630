import { SimpleGrid } from '@mantine/core';
import {
  IconActivity,
  IconBuilding,
  IconCircleCheck,
  IconDeviceVisionPro,
} from '@tabler/icons-react';
import type { OrganizationSummary } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { StatCard } from '../../components/StatCard';

/** Every organisation's figures at once, above the table. */
export function SummaryCards({ summary }: { summary: OrganizationSummary }) {
  const { t } = useTranslation('adminOrganizations');
  return (
    <SimpleGrid cols={{ base: 2, lg: 4 }} mb="lg">
      <StatCard
        label={t('stats.organizations')}
        value={summary.total}
        icon={<IconBuilding size={20} />}
      />
      <StatCard
        label={t('stats.active')}
        value={summary.active}
        color="green"
        icon={<IconCircleCheck size={20} />}
      />
      <StatCard
        label={t('stats.sessions')}
        value={summary.total_sessions}
        color="grape"
        icon={<IconActivity size={20} />}
      />
      <StatCard
        label={t('stats.devices')}
        value={`${summary.online_devices} / ${summary.total_devices}`}
        color="teal"
        icon={<IconDeviceVisionPro size={20} />}
      />
    </SimpleGrid>
  );
}
