import { Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PASSWORD_RECOMMENDED_LENGTH,
} from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { FormFooter } from '../../components/FormFooter';
import { useChangeOwnPassword } from '../../api/auth';
import { errorCodeOf, errorText } from '../../lib/error-text';
import { notifyError, notifySuccess } from '../../lib/notify';

export interface ChangeOwnPasswordModalProps {
  opened: boolean;
  onClose: () => void;
}

/**
 * The signed-in account's own password: the current one, then the new one typed twice. The new
 * one is held to the rule of every password (the contract's, which the server checks again); a
 * wrong current password is said beside its field.
 */
export function ChangeOwnPasswordModal({ opened, onClose }: ChangeOwnPasswordModalProps) {
  const { t } = useTranslation('password');
  const change = useChangeOwnPassword();
  const form = useForm({
    initialValues: { current: '', password: '', confirm: '' },
    validate: {
      current: (value) => (value === '' ? t('currentRequired') : null),
      password: (value) =>
        value.length < PASSWORD_MIN_LENGTH ? t('tooShort', { count: PASSWORD_MIN_LENGTH }) : null,
      confirm: (value, values) => (value !== values.password ? t('mismatch') : null),
    },
  });

  const close = () => {
    form.reset();
    onClose();
  };

  const submit = form.onSubmit(async (values) => {
    try {
      await change.mutateAsync({ current_password: values.current, new_password: values.password });
      notifySuccess(t('changed'));
      close();
    } catch (error) {
      if (errorCodeOf(error, ['wrong_current_password'])) {
        form.setFieldError('current', t('wrongCurrent'));
      } else {
        notifyError(errorText(error, t('failed')));
      }
    }
  });

  return (
    <Modal opened={opened} onClose={close} title={t('title')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            {t('intro')}
          </Text>
          <PasswordInput
            label={t('current')}
            required
            data-autofocus
            autoComplete="current-password"
            maxLength={PASSWORD_MAX_LENGTH}
            {...form.getInputProps('current')}
          />
          <PasswordInput
            label={t('new')}
            description={t('hint', {
              count: PASSWORD_MIN_LENGTH,
              recommended: PASSWORD_RECOMMENDED_LENGTH,
            })}
            required
            autoComplete="new-password"
            maxLength={PASSWORD_MAX_LENGTH}
            {...form.getInputProps('password')}
          />
          <PasswordInput
            label={t('repeat')}
            required
            autoComplete="new-password"
            maxLength={PASSWORD_MAX_LENGTH}
            {...form.getInputProps('confirm')}
          />
          <FormFooter submitLabel={t('submit')} pending={change.isPending} onCancel={close} />
        </Stack>
      </form>
    </Modal>
  );
}
