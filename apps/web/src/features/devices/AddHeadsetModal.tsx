import { Alert, Button, Center, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconBan, IconRefresh } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/error-text';
import { useConfirmedAction } from '../../components/use-confirmed-action';
import {
  ENROLMENT_POLL_MS,
  useEnrollmentCode,
  useJoinedDevices,
  useRenewEnrollmentCode,
  useRevokeEnrollmentCode,
} from '../../api/devices';
import { EnrollmentCode, EnrollmentSteps, JoinedHeadsets } from './enrollment-parts';

/** "Add headset": the organisation's enrolment code as text and QR code, with instructions. */
export function AddHeadsetModal({
  opened,
  onClose,
  pollIntervalMs = ENROLMENT_POLL_MS,
}: {
  opened: boolean;
  onClose: () => void;
  /** How often to look for headsets that joined (tests shorten it). */
  pollIntervalMs?: number;
}) {
  const { t } = useTranslation();
  const joined = useJoinedDevices(opened, pollIntervalMs);
  const current = useEnrollmentCode();
  const renew = useRenewEnrollmentCode();
  const revoke = useRevokeEnrollmentCode();
  const { mutate, reset } = current;
  const resetRenew = renew.reset;
  const origin = window.location.origin;
  const [revoked, setRevoked] = useState(false);

  useEffect(() => {
    setRevoked(false);
    resetRenew();
    if (opened) mutate();
    else reset();
  }, [opened, mutate, reset, resetRenew]);

  // The newest code shown: a renewal's answer replaces the one the dialog opened with.
  const enrollment = renew.data ? { ...current, data: renew.data } : current;
  const code = enrollment.data?.code;

  const confirmedRenew = useConfirmedAction(renew, {
    success: t('devices:renewed'),
    error: t('devices:codeFailed'),
  });
  const renewCode = () =>
    confirmedRenew(undefined, {
      title: t('devices:renewTitle'),
      message: t('devices:renewConfirm'),
      confirmLabel: t('devices:renew'),
    });

  const confirmedRevoke = useConfirmedAction(revoke, {
    success: t('devices:revoked'),
    error: t('devices:revokeFailed'),
    onSuccess: () => setRevoked(true),
  });
  const revokeCode = () =>
    confirmedRevoke(undefined, {
      title: t('devices:revokeTitle'),
      message: t('devices:revokeConfirm'),
      confirmLabel: t('devices:revoke'),
      danger: true,
    });

  const issueAgain = () => {
    setRevoked(false);
    resetRenew();
    mutate();
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('devices:addTitle')} size="lg">
      {revoked ? (
        <Stack gap="md" align="flex-start">
          <Alert color="gray" icon={<IconBan />} w="100%">
            {t('devices:revokedText')}
          </Alert>
          <Group justify="space-between" w="100%">
            <Button variant="light" onClick={issueAgain}>
              {t('devices:newCode')}
            </Button>
            <Button variant="default" onClick={onClose}>
              {t('common:close')}
            </Button>
          </Group>
        </Stack>
      ) : enrollment.isPending || enrollment.isIdle ? (
        <Center py="xl">
          <Loader aria-label={t('common:loading')} />
        </Center>
      ) : enrollment.isError || !code ? (
        <Alert color="red" icon={<IconAlertTriangle />} role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorText(enrollment.error, t('devices:codeFailed'))}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => mutate()}>
              {t('common:retry')}
            </Button>
          </Stack>
        </Alert>
      ) : (
        <Stack gap="lg">
          <EnrollmentCode code={code} expiresAt={enrollment.data.expires_at} origin={origin} />

          <JoinedHeadsets joined={joined} />

          <EnrollmentSteps origin={origin} onClose={onClose} />

          <Group justify="space-between">
            <Group gap="xs">
              <Button
                variant="subtle"
                leftSection={<IconRefresh size={16} />}
                loading={renew.isPending}
                onClick={renewCode}
              >
                {t('devices:renew')}
              </Button>
              <Button
                variant="subtle"
                color="red"
                leftSection={<IconBan size={16} />}
                loading={revoke.isPending}
                onClick={revokeCode}
              >
                {t('devices:revoke')}
              </Button>
            </Group>
            <Button variant="default" onClick={onClose}>
              {t('common:close')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
