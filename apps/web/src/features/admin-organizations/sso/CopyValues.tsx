import { ActionIcon, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import type { SsoConfig } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';

/** What the provider's admin enters there: each value with its copy button. */
export function CopyValues({ config }: { config: SsoConfig }) {
  const { t } = useTranslation('adminOrganizations');
  const values =
    config.protocol === 'oidc'
      ? [{ label: t('sso.redirectUri'), value: config.redirect_uri }]
      : [
          { label: t('sso.acsUrl'), value: config.acs_url },
          { label: t('sso.spEntityId'), value: config.sp_entity_id },
          { label: t('sso.spMetadataUrl'), value: config.sp_metadata_url },
        ];
  return (
    <Stack gap="xs">
      <Text fw={500} size="sm">
        {t('sso.toCopy')}
      </Text>
      {values.map(({ label, value }) => (
        <Group key={label} gap="xs" wrap="nowrap" align="flex-start">
          <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
            <Text size="xs" c="dimmed">
              {label}
            </Text>
            <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              {value}
            </Text>
          </Stack>
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? t('sso.copied') : t('sso.copy')}>
                <ActionIcon
                  variant="subtle"
                  onClick={copy}
                  aria-label={`${t('sso.copy')}: ${label}`}
                >
                  {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        </Group>
      ))}
    </Stack>
  );
}
