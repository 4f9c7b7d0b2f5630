import { Group, Loader, SegmentedControl } from '@mantine/core';
import type { Device, MovementType } from '@vrtc/contract';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/error-text';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useSetMovementType } from '../../api/devices';

export const MOVEMENT_TYPES: MovementType[] = ['slide', 'teleport'];

/**
 * Slide or teleport. A change made while the previous update is still running, or while the
 * toggle is disabled, is ignored (the server's answer decides what is shown).
 */
export function MovementTypeToggle({
  device,
  disabled = false,
  labelId,
}: {
  device: Device;
  disabled?: boolean;
  /** id of the element that names the toggle */
  labelId?: string;
}) {
  const { t } = useTranslation();
  const setMovementType = useSetMovementType();
  // A ref, not state: two clicks within one render must still see the update as running.
  const running = useRef(false);
  const [pending, setPending] = useState<MovementType | null>(null);

  async function change(value: string) {
    const next = value as MovementType;
    if (running.current || disabled || next === device.movement_type) return;
    running.current = true;
    setPending(next);
    try {
      await setMovementType.mutateAsync({ id: device.id, movementType: next });
      notifySuccess(t('devices:movementUpdated'));
    } catch (error) {
      notifyError(errorText(error, t('devices:movementFailed')));
    } finally {
      running.current = false;
      setPending(null);
    }
  }

  return (
    <Group gap="xs" wrap="nowrap">
      <SegmentedControl
        size="xs"
        value={pending ?? device.movement_type}
        onChange={change}
        disabled={disabled}
        aria-labelledby={labelId}
        aria-busy={pending !== null}
        data={MOVEMENT_TYPES.map((type) => ({
          value: type,
          label: t(`common:movementType.${type}`),
        }))}
      />
      {pending !== null ? <Loader size="xs" aria-label={t('common:loading')} /> : null}
    </Group>
  );
}
