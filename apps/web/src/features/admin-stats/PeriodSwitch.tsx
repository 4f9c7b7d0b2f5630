import { SegmentedControl } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { usePhoneLayout } from '../../components/phone-layout';
import { useUrlParam } from '../../lib/list-state';
import {
  DEFAULT_STATS_PERIOD,
  isStatsPeriod,
  PERIOD_PARAM,
  periodRange,
  STATS_PERIODS,
  type StatsPeriod,
} from './period';

/**
 * The statistics' period from the URL (?period=7: a reload, back and a shared link show the same
 * one), and its UTC days ending today, recomputed when the period changes.
 */
export function useStatsPeriod() {
  const [periodParam, setPeriodParam] = useUrlParam(
    PERIOD_PARAM,
    isStatsPeriod,
    `${DEFAULT_STATS_PERIOD}`,
  );
  const period = Number(periodParam) as StatsPeriod;
  const range = useMemo(() => periodRange(period), [period]);
  return { period, range, setPeriod: (days: `${StatsPeriod}`) => setPeriodParam(days) };
}

/** The 7/30/90/365-day switch of the statistics screens. */
export function PeriodSwitch({
  period,
  onChange,
}: {
  period: StatsPeriod;
  onChange: (days: `${StatsPeriod}`) => void;
}) {
  const { t } = useTranslation('adminStats');
  const phone = usePhoneLayout();
  return (
    <SegmentedControl
      // "365 дней" and its three siblings overflow a 360 px screen at the default size.
      size={phone ? 'xs' : 'sm'}
      aria-label={t('period')}
      value={String(period)}
      onChange={(value) => {
        if (isStatsPeriod(value)) onChange(value);
      }}
      data={STATS_PERIODS.map((days) => ({
        value: String(days),
        label: t('days', { count: days }),
      }))}
    />
  );
}
