import { ActionIcon, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { Passkey } from '@vrtc/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAddPasskey, useRemovePasskey } from '../../api/mfa';
import { errorText } from '../../lib/error-text';
import { formatDate } from '../../lib/format';
import { notifyError, notifySuccess } from '../../lib/notify';

/** The account's passkeys: listed by name, added (the browser makes the key), removed. */
export function PasskeysSection({
  passkeys,
  onCodes,
}: {
  passkeys: Passkey[];
  onCodes: (codes: string[]) => void;
}) {
  const { t, i18n } = useTranslation('mfa');
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const [name, setName] = useState('');
  const format = (iso: string) => formatDate(iso, i18n.language);

  const create = () =>
    add.mutate(name.trim() || t('passkeys.defaultName'), {
      onSuccess: ({ recovery_codes }) => {
        setName('');
        notifySuccess(t('passkeys.added'));
        if (recovery_codes.length > 0) onCodes(recovery_codes);
      },
      onError: (error) =>
        notifyError(
          error instanceof DOMException
            ? t('passkeys.failed')
            : errorText(error, t('common:error')),
        ),
    });

  return (
    <Stack gap="xs">
      <Title order={4}>{t('passkeys.title')}</Title>
      {passkeys.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('passkeys.none')}
        </Text>
      ) : null}
      {passkeys.map((passkey) => (
        <Group key={passkey.id} justify="space-between" wrap="nowrap" data-testid="passkey-row">
          <div style={{ minWidth: 0 }}>
            <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
              {passkey.name}
            </Text>
            <Text size="xs" c="dimmed">
              {passkey.last_used_at
                ? t('passkeys.lastUsed', { date: format(passkey.last_used_at) })
                : t('passkeys.neverUsed')}
            </Text>
          </div>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`${t('passkeys.remove')}: ${passkey.name}`}
            onClick={() =>
              remove.mutate(passkey.id, {
                onSuccess: () => notifySuccess(t('passkeys.removed')),
                onError: (error) => notifyError(errorText(error, t('common:error'))),
              })
            }
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label={t('passkeys.name')}
          placeholder={t('passkeys.defaultName')}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          maxLength={100}
        />
        <Button variant="light" onClick={create} loading={add.isPending}>
          {t('passkeys.add')}
        </Button>
      </Group>
    </Stack>
  );
}
