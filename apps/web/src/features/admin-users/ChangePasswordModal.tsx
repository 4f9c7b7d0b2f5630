import { Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Account } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { FormFooter } from '../../components/FormFooter';
import { useResetOnOpen } from '../../lib/use-reset-on-open';
import { errorText } from '../../lib/error-text';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useChangePassword } from '../../api/accounts';
import { MIN_PASSWORD_LENGTH, PASSWORD_RECOMMENDED_LENGTH } from './validation';

/** A new password for an account, typed twice. */
export function ChangePasswordModal({
  account,
  onClose,
}: {
  account?: Account;
  onClose: () => void;
}) {
  const { t } = useTranslation('adminUsers');
  const change = useChangePassword();
  const form = useForm({
    initialValues: { password: '', confirm: '' },
    validate: {
      password: (value) =>
        value.length < MIN_PASSWORD_LENGTH
          ? t('passwordTooShort', { min: MIN_PASSWORD_LENGTH })
          : null,
      confirm: (value, values) => (value !== values.password ? t('passwordMismatch') : null),
    },
  });

  useResetOnOpen(Boolean(account), account?.id, () => {
    form.reset();
  });

  const submit = form.onSubmit(async (values) => {
    if (!account) return;
    try {
      await change.mutateAsync({ id: account.id, body: { new_password: values.password } });
      notifySuccess(t('passwordChanged'));
      onClose();
    } catch (error) {
      notifyError(errorText(error, t('passwordFailed')));
    }
  });

  return (
    <Modal opened={Boolean(account)} onClose={onClose} title={t('passwordTitle')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            {t('passwordFor', { email: account?.email ?? '' })}
          </Text>
          <PasswordInput
            label={t('newPassword')}
            description={t('passwordHint', {
              count: MIN_PASSWORD_LENGTH,
              recommended: PASSWORD_RECOMMENDED_LENGTH,
            })}
            required
            data-autofocus
            autoComplete="new-password"
            maxLength={200}
            {...form.getInputProps('password')}
          />
          <PasswordInput
            label={t('confirmPassword')}
            required
            autoComplete="new-password"
            maxLength={200}
            {...form.getInputProps('confirm')}
          />
          <FormFooter
            submitLabel={t('changePassword')}
            pending={change.isPending}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
