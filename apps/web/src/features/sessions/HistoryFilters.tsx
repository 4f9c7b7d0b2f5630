import { Box, Button, Flex, Group, Select } from '@mantine/core';
import type { HistorySession } from '@vrtc/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { deviceOptions } from '../../api/devices';
import { useScenarioTree } from '../../api/scenarios';
import { HISTORY_STATUS_FILTERS, type HistoryStatusFilter } from '../../api/sessions';
import { vrUserOptions } from '../../api/vr-users';
import { DayRangeFilter } from '../../components/DayRangeFilter';
import { ListFilters } from '../../components/ListFilters';
import { ServerSelect } from '../../components/ServerSelect';
import { useContentText } from '../../lib/content-text';
import type { HistoryList } from './history-list';
import { HISTORY_PRESETS, presetMatches, presetRange } from './history-presets';

/**
 * The History tab's filters: status, days (UTC, of the start), VR user, headset, scenario, and
 * the presets of days. Each as wide as its longest text needs (its Russian placeholder, a chosen
 * range of days), growing into the room left: one row at 1366 px, one under the other on a phone,
 * never a clipped word.
 */
export function HistoryFilters({ list, rows }: { list: HistoryList; rows: HistorySession[] }) {
  const { t } = useTranslation();
  const content = useContentText();
  const scenarios = useScenarioTree();
  const { filters } = list;
  const status: HistoryStatusFilter = filters.status ?? 'all';

  // A filter opened from a link names its VR user, headset or scenario from the rows it matched.
  const vrUserLabel = filters.vr_user_id
    ? (rows.find((row) => row.vr_user_id === filters.vr_user_id)?.vr_user_name ??
      t('sessions:history.filter.selectedVrUser'))
    : undefined;
  const deviceLabel = filters.device_id
    ? (rows.find((row) => row.device_id === filters.device_id)?.device_name ??
      t('sessions:history.filter.selectedDevice'))
    : undefined;
  const matchedScenarioName = rows[0]
    ? content.text(rows[0].scenario_name, rows[0].scenario_name_en)
    : undefined;
  const scenarioData = useMemo(() => {
    const items = (scenarios.data ?? []).map((scenario) => ({
      value: scenario.id,
      label: content.name(scenario),
    }));
    const id = filters.scenario_id;
    if (id && !items.some((item) => item.value === id)) {
      items.unshift({
        value: id,
        label: matchedScenarioName ?? t('sessions:history.filter.selectedScenario'),
      });
    }
    return items;
  }, [scenarios.data, filters.scenario_id, matchedScenarioName, t, content]);

  return (
    <ListFilters active={Object.keys(filters).length}>
      <Flex wrap="wrap" gap="sm" mb="sm">
        <Box style={{ flex: '1 1 165px' }}>
          <Select
            label={t('sessions:history.statusFilter')}
            value={status}
            onChange={(value) =>
              list.setFilters({ status: !value || value === 'all' ? null : value })
            }
            allowDeselect={false}
            data={HISTORY_STATUS_FILTERS.map((value) => ({
              value,
              label:
                value === 'all' ? t('sessions:history.allStatuses') : t(`common:status.${value}`),
            }))}
          />
        </Box>
        <Box style={{ flex: '1 1 255px' }}>
          <DayRangeFilter
            label={t('sessions:history.filter.days')}
            placeholder={t('sessions:history.filter.anyDay')}
            hint={t('sessions:history.filter.daysHint')}
            from={filters.from}
            to={filters.to}
            onChange={list.setFilters}
          />
        </Box>
        <Box style={{ flex: '1 1 215px' }}>
          <ServerSelect
            label={t('sessions:history.filter.vrUser')}
            placeholder={t('sessions:history.filter.allVrUsers')}
            options={vrUserOptions}
            value={filters.vr_user_id ?? null}
            valueLabel={vrUserLabel}
            onChange={(id) => list.setFilters({ vr_user_id: id })}
            clearable
            nothingFoundMessage={t('sessions:history.filter.nothingFound')}
          />
        </Box>
        <Box style={{ flex: '1 1 150px' }}>
          <ServerSelect
            label={t('sessions:history.filter.device')}
            placeholder={t('sessions:history.filter.allDevices')}
            options={deviceOptions}
            value={filters.device_id ?? null}
            valueLabel={deviceLabel}
            onChange={(id) => list.setFilters({ device_id: id })}
            clearable
            nothingFoundMessage={t('sessions:history.filter.nothingFound')}
          />
        </Box>
        <Box style={{ flex: '1 1 180px' }}>
          <Select
            label={t('sessions:history.filter.scenario')}
            placeholder={t('sessions:history.filter.allScenarios')}
            data={scenarioData}
            value={filters.scenario_id ?? null}
            onChange={(id) => list.setFilters({ scenario_id: id })}
            searchable
            clearable
            nothingFoundMessage={t('sessions:history.filter.nothingFound')}
          />
        </Box>
      </Flex>
      <Group
        gap="xs"
        mb="sm"
        role="group"
        aria-label={t('sessions:history.filter.presets.label')}
        data-testid="history-presets"
      >
        {HISTORY_PRESETS.map((preset) => {
          const chosen = presetMatches(preset, filters.from, filters.to);
          return (
            <Button
              key={preset}
              size="compact-sm"
              radius="xl"
              variant={chosen ? 'filled' : 'default'}
              aria-pressed={chosen}
              onClick={() => list.setFilters(presetRange(preset))}
            >
              {t(`sessions:history.filter.presets.${preset}`)}
            </Button>
          );
        })}
      </Group>
    </ListFilters>
  );
}
