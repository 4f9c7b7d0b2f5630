import { Modal, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Account } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { FormFooter } from '../../components/FormFooter';
import { useResetOnOpen } from '../../lib/use-reset-on-open';
import { errorText } from '../../lib/error-text';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useResetAccountMfa } from '../../api/accounts';

/** The reason's limit in the contract (MfaResetBody). */
const REASON_MAX_LENGTH = 500;

/**
 * A platform admin removes every second factor of an account whose holder lost them: the dialog
 * says what happens and asks why (the audit log keeps the reason).
 */
export function ResetMfaModal({ account, onClose }: { account?: Account; onClose: () => void }) {
  const { t } = useTranslation('adminUsers');
  const reset = useResetAccountMfa();
  const form = useForm({
    initialValues: { reason: '' },
    validate: { reason: (value) => (value.trim() ? null : t('mfaReset.reasonRequired')) },
  });

  useResetOnOpen(Boolean(account), account?.id, () => {
    form.reset();
  });

  const submit = form.onSubmit(async (values) => {
    if (!account) return;
    try {
      await reset.mutateAsync({ id: account.id, body: { reason: values.reason.trim() } });
      notifySuccess(t('mfaReset.done', { email: account.email }));
      onClose();
    } catch (error) {
      notifyError(errorText(error, t('mfaReset.failed')));
    }
  });

  return (
    <Modal opened={Boolean(account)} onClose={onClose} title={t('mfaReset.title')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">{t('mfaReset.what', { email: account?.email ?? '' })}</Text>
          <Text size="sm" c="dimmed">
            {t('mfaReset.after')}
          </Text>
          <Textarea
            label={t('mfaReset.reason')}
            description={t('mfaReset.reasonHint')}
            required
            data-autofocus
            autosize
            minRows={2}
            maxLength={REASON_MAX_LENGTH}
            {...form.getInputProps('reason')}
          />
          <FormFooter
            submitLabel={t('mfaReset.submit')}
            pending={reset.isPending}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
