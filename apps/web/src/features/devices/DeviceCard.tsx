import {
  Box,
  Button,
  Card,
  Code,
  Collapse,
  Divider,
  Group,
  Stack,
  Text,
  ThemeIcon,
  UnstyledButton,
} from '@mantine/core';
import {
  IconBattery1,
  IconBattery2,
  IconBattery4,
  IconChevronDown,
  IconDeviceVisionPro,
  IconSettings,
  IconTrash,
} from '@tabler/icons-react';
import type { Device } from '@vrtc/contract';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusBadge } from '../../components/StatusBadge';
import { useConfirmedAction } from '../../components/use-confirmed-action';
import { formatDateTime, formatRelativeTime } from '../../lib/format';
import { useDeleteDevice } from '../../api/devices';
import { MovementTypeToggle } from './MovementTypeToggle';
import { Tooltip } from '../../components/Tooltip';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap">
      <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" component="div" ta="right" style={{ minWidth: 0 }} truncate>
        {children}
      </Text>
    </Group>
  );
}

function BatteryIcon({ percent }: { percent: number }) {
  if (percent <= 20) return <IconBattery1 size={16} color="var(--mantine-color-red-6)" />;
  if (percent <= 60) return <IconBattery2 size={16} />;
  return <IconBattery4 size={16} />;
}

export function DeviceCard({ device, now }: { device: Device; now: Date }) {
  const { t, i18n } = useTranslation();
  const deletion = useDeleteDevice();
  const deleteDevice = useConfirmedAction(deletion, {
    success: t('devices:deleted'),
    error: t('devices:deleteFailed'),
  });
  const [settingsOpen, setSettingsOpen] = useState(false);
  const panelId = useId();
  const movementLabelId = useId();
  const inSession = device.status === 'in_session';

  async function remove() {
    await deleteDevice(device.id, {
      title: t('devices:deleteTitle'),
      message: t('devices:deleteConfirm', { name: device.name }),
      confirmLabel: t('common:delete'),
      danger: true,
    });
  }

  return (
    <Card withBorder radius="lg" padding="lg" data-testid="device-card">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <ThemeIcon variant="light" size={40} radius="md">
            <IconDeviceVisionPro size={22} />
          </ThemeIcon>
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text fw={600} lineClamp={2} title={device.name} style={{ wordBreak: 'break-word' }}>
              {device.name}
            </Text>
            <Text size="xs" c="dimmed">
              {t(`common:deviceType.${device.type}`)}
            </Text>
          </Stack>
        </Group>
        <Box style={{ flexShrink: 0 }}>
          <StatusBadge status={device.status} />
        </Box>
      </Group>

      <Stack gap={6} mt="md">
        <Field label={t('devices:lastSeen')}>
          <Tooltip
            label={formatDateTime(device.last_seen, i18n.language)}
            disabled={!device.last_seen}
          >
            <span>{formatRelativeTime(t, device.last_seen, now)}</span>
          </Tooltip>
        </Field>
        <Field label={t('devices:currentSession')}>
          {device.current_session_id ? (
            <Code title={device.current_session_id}>{device.current_session_id.slice(0, 8)}</Code>
          ) : (
            t('common:none')
          )}
        </Field>
        {device.battery_percent !== null ? (
          <Field label={t('devices:battery')}>
            <Group gap={4} justify="flex-end" wrap="nowrap">
              <BatteryIcon percent={device.battery_percent} />
              {device.battery_percent}%
            </Group>
          </Field>
        ) : null}
        {device.pending_reports > 0 ? (
          // Reports the headset still holds (it was out of the network): they will upload.
          <Text size="sm" c="orange" data-pending-reports>
            {t('devices:pendingReports', { count: device.pending_reports })}
          </Text>
        ) : null}
        {device.app_version ? (
          <Field label={t('devices:appVersion')}>
            <Text span size="sm" ff="monospace">
              {device.app_version}
            </Text>
          </Field>
        ) : null}
      </Stack>

      <Divider my="md" />

      <UnstyledButton
        onClick={() => setSettingsOpen((open) => !open)}
        aria-expanded={settingsOpen}
        aria-controls={panelId}
        style={{ display: 'flex', alignItems: 'center', gap: 8, width: '100%' }}
      >
        <IconSettings size={16} />
        <Text size="sm" fw={500} style={{ flex: 1 }}>
          {t('devices:settings')}
        </Text>
        <IconChevronDown
          size={16}
          style={{
            transform: settingsOpen ? 'rotate(180deg)' : undefined,
            transition: 'transform 150ms ease',
          }}
        />
      </UnstyledButton>
      <Collapse expanded={settingsOpen} id={panelId}>
        <Stack gap="sm" pt="md">
          <Group justify="space-between" gap="sm">
            <Text size="sm" id={movementLabelId}>
              {t('devices:movementType')}
            </Text>
            <MovementTypeToggle
              device={device}
              disabled={deletion.isPending}
              labelId={movementLabelId}
            />
          </Group>
          <Tooltip
            label={t('devices:cannotDeleteInSession')}
            disabled={!inSession}
            multiline
            w={220}
          >
            {/* A span keeps the tooltip working (and reachable by keyboard) on a disabled button. */}
            <span tabIndex={inSession ? 0 : undefined}>
              <Button
                fullWidth
                variant="light"
                color="red"
                size="xs"
                leftSection={<IconTrash size={16} />}
                disabled={inSession}
                loading={deletion.isPending}
                onClick={remove}
              >
                {t('devices:delete')}
              </Button>
            </span>
          </Tooltip>
        </Stack>
      </Collapse>
    </Card>
  );
}
