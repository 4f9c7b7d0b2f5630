import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { Device } from '@vrtc/contract';
import type { Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { useDeviceList } from '../../../api/devices';
import { LiveRefreshNote } from '../../../components/LiveIndicator';
import { QueryState } from '../../../components/QueryState';
import type { WizardAction, WizardState } from '../wizard';
import { ChoiceCards, Empty } from './ChoiceCards';

/**
 * Step 2: the headsets waiting now, kept current (live, or every 5 s while the stream is down);
 * with the reason when the server refused the headset chosen before.
 */
export function DeviceStep({
  devices,
  notice,
  state,
  dispatch,
}: {
  devices: ReturnType<typeof useDeviceList>;
  notice: string | undefined;
  state: WizardState;
  dispatch: Dispatch<WizardAction>;
}) {
  const { t } = useTranslation();
  const waiting: Device[] = devices.data?.devices ?? [];
  return (
    <QueryState
      isPending={devices.isPending}
      error={devices.data ? null : devices.error}
      onRetry={() => devices.refetch()}
    >
      {notice ? (
        <Alert color="red" variant="light" icon={<IconInfoCircle />} role="alert">
          {notice}
        </Alert>
      ) : null}
      {waiting.length === 0 ? (
        <Empty>
          <Stack gap={4}>
            <Text size="sm">{t('sessions:wizard.noWaitingDevices')}</Text>
            <Anchor component={Link} to="/devices" size="sm">
              {t('sessions:wizard.goToDevices')}
            </Anchor>
          </Stack>
        </Empty>
      ) : (
        <ChoiceCards
          label={t('sessions:wizard.steps.device')}
          items={waiting}
          value={state.deviceId}
          onChange={(id) => dispatch({ type: 'selectDevice', id })}
          render={(device) => (
            <>
              <Text fw={600} size="sm" truncate>
                {device.name}
              </Text>
              <Text size="xs" c="dimmed">
                {t(`common:deviceType.${device.type}`)}
                {device.battery_percent !== null
                  ? ` · ${t('sessions:wizard.battery', { percent: device.battery_percent })}`
                  : ''}
              </Text>
            </>
          )}
        />
      )}
      <LiveRefreshNote />
    </QueryState>
  );
}
