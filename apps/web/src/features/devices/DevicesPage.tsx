import { Badge, Button, Card, Group, Select, SimpleGrid } from '@mantine/core';
import { IconDeviceVisionPro, IconPlus, IconRefresh } from '@tabler/icons-react';
import { DEVICE_SORT_FIELDS } from '@vrtc/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Empty } from '../../components/Empty';
import { useDeviceList } from '../../api/devices';
import { LiveRefreshNote } from '../../components/LiveIndicator';
import { PageHeader } from '../../components/PageHeader';
import { Pager } from '../../components/Pager';
import { QueryState } from '../../components/QueryState';
import { oneOf, useKeepPageInRange, useListState } from '../../lib/list-state';
import { useNow } from '../../lib/useNow';
import { AddHeadsetModal } from './AddHeadsetModal';
import { DEVICE_STATUS_FILTERS, type DeviceStatusFilter } from '../../api/devices';
import { DeviceCard } from './DeviceCard';
import { ListFilters } from '../../components/ListFilters';

/** Cards a page: full rows of the grid at two, three and four columns. */
export const DEVICES_PAGE_SIZE = 12;

const STATUSES = DEVICE_STATUS_FILTERS.filter((value) => value !== 'all');

export function DevicesPage() {
  const { t } = useTranslation();
  const list = useListState({
    pageSize: DEVICES_PAGE_SIZE,
    sortFields: DEVICE_SORT_FIELDS,
    defaultSort: { sort: 'name', order: 'asc' },
    filters: { status: oneOf(STATUSES) },
  });
  const status: DeviceStatusFilter = list.filters.status ?? 'all';
  const setStatus = (value: DeviceStatusFilter) =>
    list.setFilters({ status: value === 'all' ? null : value });
  const [adding, setAdding] = useState(false);
  const devices = useDeviceList(
    { ...list.query, ...(status === 'all' ? {} : { status }) },
    { poll: true },
  );
  // Relative "last seen" times move on between refreshes.
  const now = useNow(15_000);
  const cards = devices.data?.devices ?? [];
  const total = devices.data?.total ?? 0;
  const filtered = status !== 'all';
  useKeepPageInRange(list, cards.length, devices.data?.total);

  return (
    <>
      <PageHeader
        title={t('devices:title')}
        subtitle={t('devices:subtitle')}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
            {t('devices:add')}
          </Button>
        }
      />

      <Card withBorder radius="lg" p="md" mb="lg">
        <Group justify="space-between" align="flex-end" gap="sm">
          <Group align="flex-end" gap="sm">
            <ListFilters active={filtered ? 1 : 0}>
              <Select
                label={t('devices:statusFilter')}
                value={status}
                onChange={(value) => setStatus((value as DeviceStatusFilter | null) ?? 'all')}
                allowDeselect={false}
                w={200}
                data={DEVICE_STATUS_FILTERS.map((value) => ({
                  value,
                  label: value === 'all' ? t('devices:allStatuses') : t(`common:status.${value}`),
                }))}
              />
            </ListFilters>
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              loading={devices.isFetching && !devices.isPending}
              onClick={() => devices.refetch()}
            >
              {t('common:refresh')}
            </Button>
          </Group>
          <Group gap="sm">
            <LiveRefreshNote />
            <Badge variant="light" size="lg" data-testid="device-total">
              {t('devices:total', { count: total })}
            </Badge>
          </Group>
        </Group>
      </Card>

      {/* A failed background refresh keeps the last list; only a failed first load shows the error. */}
      <QueryState
        isPending={devices.isPending}
        error={devices.data ? null : devices.error}
        onRetry={() => devices.refetch()}
        errorText={t('devices:loadError')}
      >
        {cards.length === 0 ? (
          <Card withBorder radius="lg" py="xl">
            <Empty
              inCard
              icon={<IconDeviceVisionPro size={28} />}
              title={filtered ? t('devices:emptyFilteredTitle') : t('devices:emptyTitle')}
              description={filtered ? t('devices:emptyFilteredText') : t('devices:emptyText')}
              action={
                filtered ? (
                  <Button variant="light" onClick={() => setStatus('all')}>
                    {t('devices:showAll')}
                  </Button>
                ) : (
                  <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
                    {t('devices:add')}
                  </Button>
                )
              }
            />
          </Card>
        ) : (
          <>
            <SimpleGrid
              type="container"
              cols={{ base: 1, '520px': 2, '860px': 3, '1240px': 4 }}
              spacing="lg"
              style={devices.isPlaceholderData ? { opacity: 0.6 } : undefined}
            >
              {cards.map((device) => (
                <DeviceCard key={device.id} device={device} now={now} />
              ))}
            </SimpleGrid>
            {total > list.pageSize ? (
              <Pager
                total={total}
                pageIndex={list.pageIndex}
                pageSize={list.pageSize}
                onPageChange={list.setPage}
                count={false}
              />
            ) : null}
          </>
        )}
      </QueryState>

      <AddHeadsetModal opened={adding} onClose={() => setAdding(false)} />
    </>
  );
}
