import { Group, Select, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { organizationOptions, useOrganization } from '../../api/organizations';
import { ListFilters } from '../../components/ListFilters';
import { ServerSelect } from '../../components/ServerSelect';
import { MOVEMENT_TYPES, STATUSES, TYPES, type AdminDeviceListState } from './device-options';

const FILTER_STYLE = { flex: '1 1 170px' } as const;

/** Search, organisation, status, type and movement type: one row at 1366 px, wrapping below. */
export function DeviceFilters({ list }: { list: AdminDeviceListState }) {
  const { t } = useTranslation('adminDevices');
  const { filters } = list;
  // The name of the organisation a filter from the URL points at.
  const filterOrganization = useOrganization(filters.organization_id);
  return (
    // The inputs wrap on narrower screens, never clipping a placeholder.
    <Group gap="sm" mb="md" align="flex-start">
      <TextInput
        aria-label={t('search')}
        placeholder={t('searchPlaceholder')}
        leftSection={<IconSearch size={16} />}
        value={list.search}
        onChange={(event) => list.setSearch(event.currentTarget.value)}
        style={{ flex: '1 1 250px' }}
      />
      <ListFilters active={Object.keys(filters).length}>
        <ServerSelect
          aria-label={t('col.organization')}
          placeholder={t('allOrganizations')}
          options={organizationOptions}
          value={filters.organization_id ?? null}
          valueLabel={filterOrganization.data?.name}
          onChange={(id) => list.setFilters({ organization_id: id })}
          clearable
          nothingFoundMessage={t('nothingFound')}
          style={FILTER_STYLE}
        />
        <Select
          aria-label={t('col.status')}
          placeholder={t('allStatuses')}
          data={STATUSES.map((value) => ({ value, label: t(`common:status.${value}`) }))}
          value={filters.status ?? null}
          onChange={(value) => list.setFilters({ status: value })}
          clearable
          style={FILTER_STYLE}
        />
        <Select
          aria-label={t('col.type')}
          placeholder={t('allTypes')}
          data={TYPES.map((value) => ({ value, label: t(`common:deviceType.${value}`) }))}
          value={filters.device_type ?? null}
          onChange={(value) => list.setFilters({ device_type: value })}
          clearable
          style={FILTER_STYLE}
        />
        <Select
          aria-label={t('col.movement')}
          placeholder={t('allMovementTypes')}
          data={MOVEMENT_TYPES.map((value) => ({
            value,
            label: t(`common:movementType.${value}`),
          }))}
          value={filters.movement_type ?? null}
          onChange={(value) => list.setFilters({ movement_type: value })}
          clearable
          style={FILTER_STYLE}
        />
      </ListFilters>
    </Group>
  );
}
