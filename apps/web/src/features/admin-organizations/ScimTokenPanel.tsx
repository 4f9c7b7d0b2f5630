import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIssueScimToken, useRevokeScimToken, useScimToken } from '../../api/scim';
import { useConfirmedAction } from '../../components/use-confirmed-action';
import { errorText } from '../../lib/error-text';
import { formatDateTime } from '../../lib/format';
import { notifyError } from '../../lib/notify';

/** A value to copy into the directory's settings, with its copy button. */
function Copyable({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation('adminOrganizations');
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code data-testid={testId} style={{ overflowWrap: 'anywhere', flex: 1 }}>
          {value}
        </Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button
              size="compact-sm"
              variant="light"
              color={copied ? 'green' : undefined}
              leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
              onClick={copy}
              aria-label={`${t('scim.copy')}: ${label}`}
            >
              {copied ? t('scim.copied') : t('scim.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

/**
 * The organisation's SCIM token (docs/sso.md): the tenant URL to copy, whether a token exists
 * and when it was last used, issuing (the token is shown here once), rotating and revoking.
 */
export function ScimTokenPanel({ organizationId }: { organizationId: string }) {
  const { t, i18n } = useTranslation('adminOrganizations');
  const state = useScimToken(organizationId);
  const issue = useIssueScimToken(organizationId);
  const revoke = useConfirmedAction(useRevokeScimToken(organizationId), {
    success: t('scim.revoked'),
    error: t('scim.revokeFailed'),
  });
  const [name, setName] = useState('');
  const [shown, setShown] = useState<string>();
  const token = state.data;

  async function issueToken() {
    try {
      const issued = await issue.mutateAsync(name.trim() || 'SCIM');
      setShown(issued.token);
    } catch (error) {
      notifyError(errorText(error, t('scim.issueFailed')));
    }
  }

  return (
    <Stack gap="sm" component="section" aria-labelledby="scim-title">
      <Title order={4} id="scim-title">
        {t('scim.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('scim.hint')}
      </Text>
      {token ? (
        <Copyable label={t('scim.baseUrl')} value={token.base_url} testId="scim-url" />
      ) : null}
      {token?.exists ? (
        <Text size="sm" data-testid="scim-state">
          {t('scim.state', {
            name: token.name,
            created: formatDateTime(token.created_at, i18n.language),
            used: token.last_used_at
              ? formatDateTime(token.last_used_at, i18n.language)
              : t('scim.neverUsed'),
          })}
        </Text>
      ) : token ? (
        <Text size="sm" data-testid="scim-state">
          {t('scim.none')}
        </Text>
      ) : null}
      {shown ? (
        <Alert color="yellow" icon={<IconAlertTriangle />} title={t('scim.shownOnce')}>
          <Copyable label={t('scim.token')} value={shown} testId="scim-token" />
        </Alert>
      ) : null}
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label={t('scim.name')}
          placeholder="Entra ID"
          maxLength={100}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          style={{ flex: '1 1 12rem' }}
        />
        <Button onClick={issueToken} loading={issue.isPending}>
          {token?.exists ? t('scim.rotate') : t('scim.issue')}
        </Button>
        {token?.exists ? (
          <Button
            color="red"
            variant="light"
            onClick={() =>
              revoke(undefined, {
                title: t('scim.revokeTitle'),
                message: t('scim.revokeMessage'),
                confirmLabel: t('scim.revoke'),
                danger: true,
              }).then(() => setShown(undefined))
            }
          >
            {t('scim.revoke')}
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}
