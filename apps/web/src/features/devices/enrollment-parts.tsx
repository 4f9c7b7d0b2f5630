import {
  ActionIcon,
  Anchor,
  Center,
  CopyButton,
  Group,
  List,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { IconCheck, IconCircleCheck, IconCopy } from '@tabler/icons-react';
import type { Device } from '@vrtc/contract';
import { QRCodeSVG } from 'qrcode.react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { StatusBadge } from '../../components/StatusBadge';
import { Tooltip } from '../../components/Tooltip';
import { formatDateTime } from '../../lib/format';

/** What the QR code carries: the console's address with the code, e.g. https://host/enroll?code=AB12CD34. */
export function enrollmentUrl(origin: string, code: string): string {
  return `${origin}/enroll?code=${encodeURIComponent(code)}`;
}

/** The enrolment code as text to type (with a copy button and its expiry) and as a QR code. */
export function EnrollmentCode({
  code,
  expiresAt,
  origin,
}: {
  code: string;
  expiresAt: string;
  origin: string;
}) {
  const { t, i18n } = useTranslation();
  return (
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
              date: formatDateTime(expiresAt, i18n.language),
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
  );
}

/** The headsets that joined while the dialog was open, or that it is still waiting. */
export function JoinedHeadsets({ joined }: { joined: Device[] }) {
  const { t } = useTranslation();
  return (
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
  );
}

/** How to enrol a headset, step by step (the first links to the downloads). */
export function EnrollmentSteps({ origin, onClose }: { origin: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
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
  );
}
