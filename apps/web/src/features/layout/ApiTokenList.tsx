import { Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import type { ApiTokenList as Tokens } from '@vrtc/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useRevokeApiToken } from '../../api/api-tokens';
import { confirmAction } from '../../components/confirm';
import { errorText } from '../../lib/error-text';
import { formatDateTime } from '../../lib/format';
import { notifyError, notifySuccess } from '../../lib/notify';

/** The account's API tokens, newest first, each with when it was made, used and ends. */
export function ApiTokenList({ query }: { query: UseQueryResult<Tokens> }) {
  const { t, i18n } = useTranslation('apiTokens');
  const revoke = useRevokeApiToken();
  const when = (value: string | null, none: string) =>
    value === null ? none : formatDateTime(value, i18n.language);

  const ask = async (id: string, name: string) => {
    const confirmed = await confirmAction({
      title: t('revokeTitle'),
      message: t('revokeMessage', { name }),
      confirmLabel: t('revoke'),
      danger: true,
    });
    if (!confirmed) return;
    try {
      await revoke.mutateAsync(id);
      notifySuccess(t('revoked', { name }));
    } catch (error) {
      notifyError(errorText(error, t('revokeFailed')));
    }
  };

  const tokens = query.data?.api_tokens ?? [];
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t('yours')}
      </Title>
      {query.isPending ? <Loader size="sm" aria-label={t('loading')} /> : null}
      {query.isError ? <Text c="red">{t('loadFailed')}</Text> : null}
      {query.isSuccess && tokens.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('none')}
        </Text>
      ) : null}
      {tokens.map((token) => (
        <Paper key={token.id} withBorder p="sm" component="section" aria-label={token.name}>
          <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {token.name}
              </Text>
              <Text size="xs" c="dimmed">
                {t('created', { when: when(token.created_at, '') })}
              </Text>
              <Text size="xs" c="dimmed">
                {t('lastUsed', { when: when(token.last_used_at, t('unused')) })}
              </Text>
              <Text size="xs" c="dimmed">
                {t('expires', { when: when(token.expires_at, t('noEnd')) })}
              </Text>
            </Stack>
            <Button
              variant="light"
              color="red"
              size="xs"
              onClick={() => void ask(token.id, token.name)}
              aria-label={t('revokeNamed', { name: token.name })}
            >
              {t('revoke')}
            </Button>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
