import { Button, Group, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { API_TOKEN_NAME_MAX_LENGTH } from '@vrtc/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiTokens, useCreateApiToken } from '../../api/api-tokens';
import { errorText } from '../../lib/error-text';
import { notifyError } from '../../lib/notify';
import { ApiTokenList } from './ApiTokenList';
import { ApiTokenSecret } from './ApiTokenSecret';

export interface ApiTokensModalProps {
  opened: boolean;
  onClose: () => void;
}

/** How long a new token lasts, in days; 0: until revoked. */
const LIFETIMES = [0, 30, 90, 365] as const;
const DAY_MS = 24 * 3600 * 1000;

/**
 * The signed-in account's API tokens, opened from the account menu: the ones it holds (revoke
 * each, after a confirmation), and a new one made with a name and a lifetime, whose secret is
 * shown once with a copy button.
 */
export function ApiTokensModal({ opened, onClose }: ApiTokensModalProps) {
  const { t } = useTranslation('apiTokens');
  const tokens = useApiTokens(opened);
  const create = useCreateApiToken();
  const [secret, setSecret] = useState<string | undefined>();
  const form = useForm({
    initialValues: { name: '', lifetime: '90' },
    validate: { name: (value) => (value.trim() === '' ? t('nameRequired') : null) },
  });

  const close = () => {
    form.reset();
    setSecret(undefined);
    onClose();
  };

  const submit = form.onSubmit(async (values) => {
    const days = Number(values.lifetime);
    try {
      const made = await create.mutateAsync({
        name: values.name.trim(),
        ...(days > 0 ? { expires_at: new Date(Date.now() + days * DAY_MS).toISOString() } : {}),
      });
      setSecret(made.token);
      form.reset();
    } catch (error) {
      notifyError(errorText(error, t('createFailed')));
    }
  });

  return (
    <Modal opened={opened} onClose={close} title={t('title')} size="lg">
      <Stack>
        <Text size="sm" c="dimmed">
          {t('intro')}
        </Text>
        {secret !== undefined ? (
          <ApiTokenSecret secret={secret} onDone={() => setSecret(undefined)} />
        ) : (
          <form onSubmit={submit} noValidate>
            <Stack gap="sm">
              <TextInput
                label={t('name')}
                placeholder={t('namePlaceholder')}
                required
                data-autofocus
                maxLength={API_TOKEN_NAME_MAX_LENGTH}
                {...form.getInputProps('name')}
              />
              <NativeSelect
                label={t('lifetime')}
                data={LIFETIMES.map((days) => ({
                  value: String(days),
                  label: days === 0 ? t('never') : t('days', { count: days }),
                }))}
                {...form.getInputProps('lifetime')}
              />
              <Group justify="flex-end">
                <Button type="submit" loading={create.isPending}>
                  {t('create')}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
        <ApiTokenList query={tokens} />
      </Stack>
    </Modal>
  );
}
