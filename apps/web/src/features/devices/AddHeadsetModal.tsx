import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Center,
  CopyButton,
  Group,
  List,
  Loader,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconBan,
  IconCheck,
  IconCircleCheck,
  IconCopy,
  IconRefresh,
} from '@tabler/icons-react';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorText } from '../../lib/error-text';
import { formatDateTime } from '../../lib/format';
import { StatusBadge } from '../../components/StatusBadge';
import { useConfirmedAction } from '../../components/use-confirmed-action';
import {
  ENROLMENT_POLL_MS,
  useEnrollmentCode,
  useJoinedDevices,
  useRenewEnrollmentCode,
  useRevokeEnrollmentCode,
} from '../../api/devices';
import { Tooltip } from '../../components/Tooltip';

/** What the QR code carries: the console's address with the code, e.g. https://host/enroll?code=AB12CD34. */
export function enrollmentUrl(origin: string, code: string): string {
  return `${origin}/enroll?code=${encodeURIComponent(code)}`;
}

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
  const { t, i18n } = useTranslation();
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
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="lg">
            <Paper withBorder radius="md" p="md">
              <Stack gap="xs" align="center" justify="center" h="100%">
                <Text size="sm" c="dimmed">
                  {t('devices:codeLabel')}
                </Text>
                <Group gap="xs" wrap="nowrap">
                  <Text
                    data-testid="enrollment-code"
                    ff="monospace"
                    fw={700}
                    fz={34}
                    lh={1.1}
                    style={{ letterSpacing: '0.12em' }}
                  >
                    {code}
                  </Text>
                  <CopyButton value={code} timeout={2000}>
                    {({ copied, copy }) => (
                      <Tooltip label={copied ? t('devices:copied') : t('devices:copy')} withArrow>
                        <ActionIcon
                          variant="subtle"
                          color={copied ? 'teal' : 'gray'}
                          onClick={copy}
                          aria-label={t('devices:copyCode')}
                        >
                          {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </CopyButton>
                </Group>
                <Text size="xs" c="dimmed" ta="center">
                  {t('devices:codeExpires', {
                    date: formatDateTime(enrollment.data.expires_at, i18n.language),
                  })}
                </Text>
              </Stack>
            </Paper>
            <Paper withBorder radius="md" p="md">
              <Center h="100%">
                <QRCodeSVG
                  value={enrollmentUrl(origin, code)}
                  size={168}
                  marginSize={2}
                  role="img"
                  aria-label={t('devices:qrLabel')}
                  title={t('devices:qrLabel')}
                />
              </Center>
            </Paper>
          </SimpleGrid>

          <Paper withBorder radius="md" p="md" aria-live="polite" data-testid="joined-headsets">
            {joined.length === 0 ? (
              <Group gap="sm" wrap="nowrap">
                <Loader size="xs" type="dots" aria-hidden />
                <Text size="sm" c="dimmed">
                  {t('devices:waitingForHeadset')}
                </Text>
              </Group>
            ) : (
              <Stack gap="xs">
                <Text fw={600} size="sm">
                  {t('devices:joinedTitle', { count: joined.length })}
                </Text>
                {joined.map((device) => (
                  <Group key={device.id} justify="space-between" gap="sm" wrap="nowrap">
                    <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                      <IconCircleCheck
                        size={18}
                        color="var(--mantine-color-green-8)"
                        aria-hidden
                        style={{ flexShrink: 0 }}
                      />
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {t('devices:joined', {
                          name: device.name,
                          type: t(`common:deviceType.${device.type}`),
                        })}
                      </Text>
                    </Group>
                    <StatusBadge status={device.status} />
                  </Group>
                ))}
              </Stack>
            )}
          </Paper>

          <Stack gap="xs">
            <Text fw={600} size="sm">
              {t('devices:howTo')}
            </Text>
            <List type="ordered" size="sm" spacing={6}>
              <List.Item>
                <Trans
                  t={t}
                  i18nKey="devices:step1"
                  components={{
                    page: <Anchor component={Link} to="/download" size="sm" onClick={onClose} />,
                  }}
                />
              </List.Item>
              <List.Item>{t('devices:step2')}</List.Item>
              <List.Item>
                <Trans
                  t={t}
                  i18nKey="devices:step3"
                  values={{ server: origin }}
                  components={{ b: <Text span fw={600} ff="monospace" size="sm" /> }}
                />
              </List.Item>
              <List.Item>{t('devices:step4')}</List.Item>
            </List>
          </Stack>

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
