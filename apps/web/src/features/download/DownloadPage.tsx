import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  List,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconCheck,
  IconCircleCheck,
  IconClockHour4,
  IconCopy,
  IconDeviceVisionPro,
  IconDownload,
  IconRefresh,
} from '@tabler/icons-react';
import type { AppBuild, AppPlatform, DownloadLinks } from '@vrtc/contract';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api-error';
import { formatBytes } from '../../lib/bytes';
import { errorText } from '../../lib/error-text';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { notifySuccess } from '../../lib/notify';
import { useAuth } from '../../auth/AuthProvider';
import { useDownloadLinks } from '../../api/downloads';
import { AppBuildsAdmin } from './AppBuildsAdmin';
import { SdkGuide } from './SdkGuide';
import { Tooltip } from '../../components/Tooltip';

const PLATFORMS: Array<{ platform: AppPlatform; field: 'oculus_url' | 'pico_url' }> = [
  { platform: 'oculus', field: 'oculus_url' },
  { platform: 'pico', field: 'pico_url' },
];

const REQUIREMENTS = ['headset', 'android', 'storage', 'internet'] as const;
const INSTALL_STEPS = ['developerMode', 'download', 'connect', 'install', 'open'] as const;

function NotAvailable({
  error,
  onRetry,
  retrying,
  admin,
}: {
  error?: unknown;
  onRetry: () => void;
  retrying: boolean;
  admin: boolean;
}) {
  const { t } = useTranslation();
  // The server answers null links when no build is uploaded yet (an older one answered 404).
  const noLinks = !error || (error instanceof ApiError && error.status === 404);
  return (
    <Alert color={noLinks ? 'yellow' : 'red'} icon={<IconAlertTriangle />} role="alert" radius="lg">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          {noLinks ? t('download:noBuildYet') : errorText(error, t('download:notAvailable'))}
        </Text>
        {noLinks && admin ? <Text size="sm">{t('download:admin.uploadBelow')}</Text> : null}
        {/* Asking again cannot upload a build: a retry only where the request failed. */}
        {noLinks ? null : (
          <Button
            size="xs"
            variant="light"
            color="red"
            leftSection={<IconRefresh size={14} />}
            onClick={onRetry}
            loading={retrying}
          >
            {t('common:retry')}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

/** What staff install: the build's version (when the admin gave one) and size. */
function buildFacts(t: TFunction, language: string, build: AppBuild | undefined) {
  if (!build) return null;
  const size = formatBytes(build.size_bytes, language);
  return build.version ? t('download:buildFacts', { version: build.version, size }) : size;
}

function BuildButtons({ links }: { links: DownloadLinks }) {
  const { t, i18n } = useTranslation();
  return (
    <SimpleGrid type="container" cols={{ base: 1, '420px': 2 }} spacing="md">
      {PLATFORMS.map(({ platform, field }) => {
        const url = links[field];
        const label = t(`download:for.${platform}`);
        const build = links.builds.find((candidate) => candidate.platform === platform);
        return url ? (
          <Stack key={platform} gap={4}>
            <Button
              component="a"
              href={url}
              download
              size="lg"
              leftSection={<IconDownload size={20} />}
              onClick={() => notifySuccess(t('download:started'))}
            >
              {label}
            </Button>
            <Text size="sm" c="dimmed" ta="center" data-testid={`build-facts-${platform}`}>
              {buildFacts(t, i18n.language, build)}
            </Text>
          </Stack>
        ) : (
          <Tooltip key={platform} label={t('download:noBuild')}>
            <span tabIndex={0} style={{ display: 'block' }}>
              <Button size="lg" fullWidth disabled leftSection={<IconDownload size={20} />}>
                {label}
              </Button>
            </span>
          </Tooltip>
        );
      })}
    </SimpleGrid>
  );
}

function DirectLinks({ links }: { links: DownloadLinks }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      {PLATFORMS.map(({ platform, field }) => {
        const url = links[field];
        return (
          <TextInput
            key={platform}
            label={t(`download:urlLabel.${platform}`)}
            value={url ?? t('download:noBuild')}
            readOnly
            disabled={!url}
            onFocus={(event) => event.currentTarget.select()}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
            rightSection={
              url ? (
                <CopyButton value={url} timeout={2000}>
                  {({ copied, copy }) => (
                    <Tooltip label={copied ? t('download:copied') : t('download:copy')} withArrow>
                      <ActionIcon
                        variant="subtle"
                        color={copied ? 'teal' : 'gray'}
                        onClick={copy}
                        aria-label={t('download:copyLink', {
                          platform: t(`download:platform.${platform}`),
                        })}
                      >
                        {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                      </ActionIcon>
                    </Tooltip>
                  )}
                </CopyButton>
              ) : null
            }
          />
        );
      })}
    </Stack>
  );
}

export function DownloadPage() {
  const { t } = useTranslation();
  const admin = useAuth().state.user?.role === 'admin';
  const links = useDownloadLinks();
  const data = links.data;
  const hasLinks = Boolean(data && (data.oculus_url || data.pico_url));
  const minutes = data ? Math.max(1, Math.floor(data.expires_in_seconds / 60)) : 0;

  return (
    <>
      <PageHeader title={t('download:title')} subtitle={t('download:subtitle')} />
      <Stack gap="lg">
        <Card withBorder radius="lg" p="lg">
          <Group gap="sm" mb="md">
            <ThemeIcon variant="light" size="lg" radius="md">
              <IconDeviceVisionPro size={20} />
            </ThemeIcon>
            <Title order={4}>{t('download:buildsTitle')}</Title>
          </Group>
          <QueryState isPending={links.isPending} error={null}>
            {links.isError || !hasLinks || !data ? (
              <NotAvailable
                error={links.error ?? undefined}
                onRetry={() => links.refetch()}
                retrying={links.isFetching}
                admin={admin}
              />
            ) : (
              <Stack gap="md">
                <BuildButtons links={data} />
                <Group gap={6} c="dimmed">
                  <Group gap={6} wrap="nowrap">
                    <IconClockHour4 size={16} style={{ flexShrink: 0 }} />
                    <Text size="sm">{t('download:expiryNote', { count: minutes })}</Text>
                  </Group>
                  <Button
                    variant="subtle"
                    size="compact-sm"
                    leftSection={<IconRefresh size={14} />}
                    onClick={() => links.refetch()}
                    loading={links.isFetching}
                  >
                    {t('download:newLinks')}
                  </Button>
                </Group>
              </Stack>
            )}
          </QueryState>
        </Card>

        {admin ? <AppBuildsAdmin /> : null}

        <SimpleGrid type="container" cols={{ base: 1, '720px': 2 }} spacing="lg">
          <Card withBorder radius="lg" p="lg">
            <Title order={4} mb="md">
              {t('download:installTitle')}
            </Title>
            <List type="ordered" spacing="sm" size="sm">
              {INSTALL_STEPS.map((step) => (
                <List.Item key={step}>{t(`download:install.${step}`)}</List.Item>
              ))}
            </List>
            <Text size="sm" c="dimmed" mt="md">
              {t('download:adbHint')} <Code>adb install -r vr-training.apk</Code>
            </Text>
          </Card>
          <Card withBorder radius="lg" p="lg">
            <Title order={4} mb="md">
              {t('download:requirementsTitle')}
            </Title>
            <List
              spacing="sm"
              size="sm"
              icon={
                <ThemeIcon color="teal" size={20} radius="xl" variant="light">
                  <IconCircleCheck size={14} />
                </ThemeIcon>
              }
            >
              {REQUIREMENTS.map((item) => (
                <List.Item key={item}>{t(`download:requirements.${item}`)}</List.Item>
              ))}
            </List>
          </Card>
        </SimpleGrid>

        {hasLinks && data ? (
          <Card withBorder radius="lg" p="lg">
            <Title order={4} mb={4}>
              {t('download:directTitle')}
            </Title>
            <Text size="sm" c="dimmed" mb="md">
              {t('download:directText')}
            </Text>
            <DirectLinks links={data} />
          </Card>
        ) : null}

        <SdkGuide />
      </Stack>
    </>
  );
}
