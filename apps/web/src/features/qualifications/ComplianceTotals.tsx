import { Button, Group } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ComplianceTotals as Totals } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import {
  QUALIFICATION_STATUS_COLORS,
  QUALIFICATION_STATUSES,
} from '../../components/QualificationBadge';
import type { ComplianceState } from './compliance-state';

/**
 * The rows by status (and overdue) under every filter but those two: each a button that narrows
 * the matrix to it, pressed while it does. The count is in the words, never in the colour alone.
 */
export function ComplianceTotals({ totals, state }: { totals: Totals; state: ComplianceState }) {
  const { t } = useTranslation('qualifications');
  const { filters, setFilters } = state.list;
  return (
    <Group gap="xs" mb="md" role="group" aria-label={t('totals')} data-testid="compliance-totals">
      {QUALIFICATION_STATUSES.map((status) => {
        const pressed = filters.status === status;
        return (
          <Button
            key={status}
            size="compact-sm"
            radius="xl"
            color={QUALIFICATION_STATUS_COLORS[status]}
            variant={pressed ? 'filled' : 'light'}
            aria-pressed={pressed}
            onClick={() => setFilters({ status: pressed ? null : status })}
            data-total={status}
          >
            {t('totalOf', { label: t(`status.${status}`), count: totals[status] })}
          </Button>
        );
      })}
      <Button
        size="compact-sm"
        radius="xl"
        color="red.9"
        variant={filters.overdue ? 'filled' : 'outline'}
        leftSection={<IconAlertTriangle size={14} aria-hidden />}
        aria-pressed={Boolean(filters.overdue)}
        onClick={() => setFilters({ overdue: filters.overdue ? null : 'true' })}
        data-total="overdue"
      >
        {t('totalOf', { label: t('overdue'), count: totals.overdue })}
      </Button>
    </Group>
  );
}
