import { Button, Group, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLiveMode } from '../../api/live-events';

/**
 * Above the table: how the list keeps current, and, with devices selected, their count and the
 * buttons that clear the selection or delete them.
 */
export function SelectionBar({
  autoRefresh,
  selectedCount,
  deleting,
  onClear,
  onDelete,
}: {
  autoRefresh: boolean;
  selectedCount: number;
  deleting: boolean;
  onClear: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation('adminDevices');
  const live = useLiveMode() === 'live';
  return (
    <Group justify="space-between" mb="sm" mih={30} gap="sm">
      <Text size="xs" c="dimmed" data-testid="live-refresh-note">
        {!autoRefresh ? t('autoRefreshOff') : live ? t('autoRefreshLive') : t('autoRefreshOn')}
      </Text>
      {selectedCount > 0 ? (
        <Group gap="xs">
          <Text size="sm">{t('selectedCount', { count: selectedCount })}</Text>
          <Button variant="subtle" size="xs" color="gray" onClick={onClear}>
            {t('clearSelection')}
          </Button>
          <Button
            color="red"
            size="xs"
            leftSection={<IconTrash size={14} />}
            loading={deleting}
            onClick={onDelete}
          >
            {t('deleteSelected', { count: selectedCount })}
          </Button>
        </Group>
      ) : null}
    </Group>
  );
}
