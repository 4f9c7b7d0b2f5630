import { Modal, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { useRevokeQualification } from '../../api/qualifications';
import { FormFooter } from '../../components/FormFooter';
import { errorText } from '../../lib/error-text';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useResetOnOpen } from '../../lib/use-reset-on-open';

export interface RevokeQualificationModalProps {
  /** The qualification to take away, with its name as shown; closed when absent. */
  target: { qualificationId: string; name: string } | undefined;
  vrUserId: string;
  vrUserName: string;
  onClose: () => void;
}

/**
 * Takes a qualification away from a trainee (an incident, a failed check on the job), with the
 * reason the record keeps: the status is `revoked` until new pieces are done.
 */
export function RevokeQualificationModal({
  target,
  vrUserId,
  vrUserName,
  onClose,
}: RevokeQualificationModalProps) {
  const { t } = useTranslation('qualifications');
  const revoke = useRevokeQualification();
  const form = useForm({
    initialValues: { reason: '' },
    validate: { reason: (value) => (value.trim() ? null : t('revoke.reasonRequired')) },
  });
  useResetOnOpen(Boolean(target), target?.qualificationId, () => {
    form.setValues({ reason: '' });
    form.clearErrors();
  });

  const submit = form.onSubmit(async ({ reason }) => {
    if (!target) return;
    try {
      await revoke.mutateAsync({
        vrUserId,
        qualificationId: target.qualificationId,
        reason: reason.trim(),
      });
      notifySuccess(t('revoke.done'));
      onClose();
    } catch (error) {
      notifyError(errorText(error, t('common:error')));
    }
  });

  return (
    <Modal opened={Boolean(target)} onClose={onClose} title={t('revoke.title')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">
            {t('revoke.text', { name: vrUserName, qualification: target?.name ?? '' })}
          </Text>
          <Textarea
            label={t('revoke.reason')}
            required
            autosize
            minRows={3}
            maxLength={2000}
            data-autofocus
            {...form.getInputProps('reason')}
          />
          <FormFooter
            submitLabel={t('revoke.submit')}
            pending={revoke.isPending}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
