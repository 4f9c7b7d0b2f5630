import {
  Badge,
  Button,
  Card,
  FileInput,
  Group,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconFileZip, IconSettings, IconUpload } from '@tabler/icons-react';
import { APP_PLATFORMS, type AppBuild, type AppPlatform } from '@vrtc/contract';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../components/QueryState';
import { formatBytes } from '../../lib/bytes';
import { errorText } from '../../lib/error-text';
import { formatDateTime } from '../../lib/format';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useAppBuilds, useUploadBuild } from '../../api/downloads';

/** The admin's part of /download: each platform's build on the server, uploaded or replaced here. */
export function AppBuildsAdmin() {
  const { t } = useTranslation();
  const builds = useAppBuilds(true);
  return (
    <Card withBorder radius="lg" p="lg" data-testid="app-builds-admin">
      <Group gap="sm" mb={4}>
        <ThemeIcon variant="light" size="lg" radius="md" color="grape">
          <IconSettings size={20} />
        </ThemeIcon>
        <Title order={4}>{t('download:admin.title')}</Title>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        {t('download:admin.subtitle')}
      </Text>
      <QueryState
        isPending={builds.isPending}
        error={builds.data ? null : builds.error}
        onRetry={() => builds.refetch()}
        errorText={t('download:admin.loadFailed')}
      >
        <SimpleGrid type="container" cols={{ base: 1, '720px': 2 }} spacing="lg">
          {APP_PLATFORMS.map((platform) => (
            <PlatformBuild
              key={platform}
              platform={platform}
              build={builds.data?.find((build) => build.platform === platform)}
            />
          ))}
        </SimpleGrid>
      </QueryState>
    </Card>
  );
}

function PlatformBuild({ platform, build }: { platform: AppPlatform; build?: AppBuild }) {
  const { t, i18n } = useTranslation();
  const uploadBuild = useUploadBuild();
  const [file, setFile] = useState<File | null>(null);
  const [version, setVersion] = useState('');
  const [percent, setPercent] = useState(0);
  const [fileError, setFileError] = useState<string>();
  const name = t(`download:platform.${platform}`);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!file) {
      setFileError(t('download:admin.chooseFile'));
      return;
    }
    setPercent(0);
    try {
      await uploadBuild.mutateAsync({ platform, file, version, onProgress: setPercent });
      notifySuccess(t('download:admin.uploaded', { platform: name }));
      setFile(null);
      setVersion('');
    } catch (error) {
      notifyError(errorText(error, t('download:admin.uploadFailed', { platform: name })));
    }
  }

  const busy = uploadBuild.isPending;
  return (
    <Paper withBorder radius="md" p="md" data-testid={`build-${platform}`}>
      <form
        onSubmit={submit}
        noValidate
        aria-label={t('download:admin.formLabel', { platform: name })}
      >
        <Stack gap="sm">
          <Group justify="space-between" gap="xs">
            <Text fw={600}>{name}</Text>
            {build ? (
              // Green says which version headsets get; a build uploaded without one stays gray.
              <Badge variant="light" color={build.version ? 'green' : 'gray'} tt="none">
                {build.version
                  ? t('download:admin.version', { version: build.version })
                  : t('download:admin.noVersion')}
              </Badge>
            ) : (
              <Badge variant="light" color="gray" tt="none">
                {t('download:admin.none')}
              </Badge>
            )}
          </Group>
          {build ? (
            <Text size="sm" c="dimmed" data-testid="build-facts">
              {t('download:admin.facts', {
                size: formatBytes(build.size_bytes, i18n.language),
                date: formatDateTime(build.uploaded_at, i18n.language),
              })}
            </Text>
          ) : (
            <Text size="sm" c="dimmed">
              {t('download:admin.noneText')}
            </Text>
          )}
          <FileInput
            label={build ? t('download:admin.replaceFile') : t('download:admin.file')}
            placeholder={t('download:admin.filePlaceholder')}
            accept=".apk,application/vnd.android.package-archive"
            leftSection={<IconFileZip size={16} />}
            value={file}
            onChange={(chosen) => {
              setFile(chosen);
              setFileError(undefined);
            }}
            clearable
            clearButtonProps={{ 'aria-label': t('common:clear') }}
            error={fileError}
            disabled={busy}
          />
          <TextInput
            label={t('download:admin.versionLabel')}
            description={t('download:admin.versionHint')}
            placeholder="1.4.2"
            maxLength={64}
            value={version}
            onChange={(event) => setVersion(event.currentTarget.value)}
            disabled={busy}
          />
          {busy ? (
            <Progress
              value={percent}
              size="lg"
              radius="xl"
              animated={percent >= 100}
              aria-label={t('download:admin.progress', { percent: Math.round(percent) })}
            />
          ) : null}
          <Group justify="flex-end">
            <Button type="submit" leftSection={<IconUpload size={16} />} loading={busy}>
              {build ? t('download:admin.replace') : t('download:admin.upload')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
