import { Grid } from '@mantine/core';
import type { DailyStat, DeviceTypeStat } from '@vrtc/contract';
import { DailySessionsChart } from './DailySessionsChart';
import { DeviceDistribution } from './DeviceDistribution';

/**
 * The statistics screens' first row under the cards (the global and the organisation's): the
 * period's sessions by day beside the headsets by type.
 */
export function ActivityCharts({
  data,
}: {
  data: { daily: DailyStat[]; device_types: DeviceTypeStat[] };
}) {
  return (
    <Grid>
      <Grid.Col span={{ base: 12, lg: 8 }}>
        <DailySessionsChart daily={data.daily} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 4 }}>
        <DeviceDistribution deviceTypes={data.device_types} />
      </Grid.Col>
    </Grid>
  );
}
