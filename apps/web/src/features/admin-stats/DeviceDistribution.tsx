import { DonutChart } from '@mantine/charts';
import { Card, ColorSwatch, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { DeviceTypeStat } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';

const COLORS: Record<string, string> = {
  oculus: 'blue.6',
  pico: 'grape.6',
  quest: 'teal.6',
  other: 'gray.5',
};
const colorOf = (type: string) => COLORS[type] ?? 'orange.6';
const cssColor = (color: string) => `var(--mantine-color-${color.replace('.', '-')})`;

/** Registered devices by type, with the sessions each type ran in the period. */
export function DeviceDistribution({ deviceTypes }: { deviceTypes: DeviceTypeStat[] }) {
  const { t } = useTranslation('adminStats');
  const label = (type: string) => t(`common:deviceType.${type}`, { defaultValue: type });
  const rows = deviceTypes.filter((entry) => entry.devices > 0 || entry.sessions > 0);
  const totalDevices = rows.reduce((sum, entry) => sum + entry.devices, 0);

  return (
    <Card withBorder radius="lg" p="md" h="100%">
      <Title order={5} mb="md">
        {t('devices.title')}
      </Title>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed" ta="center" py="xl">
          {t('devices.empty')}
        </Text>
      ) : (
        <Stack align="center" gap="md">
          <DonutChart
            size={160}
            thickness={24}
            withTooltip
            tooltipDataSource="segment"
            chartLabel={t('devices.total', { count: totalDevices })}
            data={rows
              .filter((entry) => entry.devices > 0)
              .map((entry) => ({
                name: label(entry.device_type),
                value: entry.devices,
                color: colorOf(entry.device_type),
              }))}
          />
          <Table verticalSpacing={4} fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('devices.type')}</Table.Th>
                <Table.Th ta="right">{t('devices.devices')}</Table.Th>
                <Table.Th ta="right">{t('devices.sessions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((entry) => (
                <Table.Tr key={entry.device_type}>
                  <Table.Td>
                    <Group gap={8} wrap="nowrap">
                      <ColorSwatch
                        color={cssColor(colorOf(entry.device_type))}
                        size={10}
                        withShadow={false}
                      />
                      {label(entry.device_type)}
                    </Group>
                  </Table.Td>
                  <Table.Td ta="right">{entry.devices}</Table.Td>
                  <Table.Td ta="right">{entry.sessions}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      )}
    </Card>
  );
}
