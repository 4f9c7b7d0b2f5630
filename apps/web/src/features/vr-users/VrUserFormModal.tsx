import { Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { VrUser } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { FormFooter } from '../../components/FormFooter';
import { useResetOnOpen } from '../../lib/use-reset-on-open';
import { errorText } from '../../lib/error-text';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useSaveVrUser } from '../../api/vr-users';

export interface VrUserFormModalProps {
  opened: boolean;
  vrUser?: VrUser;
  onClose: () => void;
}

/** Add or edit a VR user: name required, notes and the LMS's learner id (external id) optional. */
export function VrUserFormModal({ opened, vrUser, onClose }: VrUserFormModalProps) {
  const { t } = useTranslation();
  const save = useSaveVrUser();
  const form = useForm({
    initialValues: { name: '', notes: '', externalId: '' },
    validate: { name: (value) => (value.trim() ? null : t('vrUsers:nameRequired')) },
  });

  useResetOnOpen(opened, vrUser?.id, () => {
    form.setValues({
      name: vrUser?.name ?? '',
      notes: vrUser?.notes ?? '',
      externalId: vrUser?.external_id ?? '',
    });
  });

  const submit = form.onSubmit(async (values) => {
    try {
      await save.mutateAsync({
        id: vrUser?.id,
        body: {
          name: values.name.trim(),
          notes: values.notes.trim() || null,
          external_id: values.externalId.trim() || null,
        },
      });
      notifySuccess(vrUser ? t('vrUsers:updated') : t('vrUsers:createdToast'));
      onClose();
    } catch (error) {
      notifyError(errorText(error, t('common:error')));
    }
  });

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={vrUser ? t('vrUsers:editTitle') : t('vrUsers:addTitle')}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t('vrUsers:name')}
            required
            data-autofocus
            maxLength={200}
            {...form.getInputProps('name')}
          />
          <Textarea
            label={t('vrUsers:notes')}
            autosize
            minRows={2}
            maxLength={2000}
            {...form.getInputProps('notes')}
          />
          <TextInput
            label={t('vrUsers:externalId')}
            description={t('vrUsers:externalIdHint')}
            maxLength={255}
            {...form.getInputProps('externalId')}
          />
          <FormFooter
            submitLabel={vrUser ? t('common:save') : t('common:create')}
            pending={save.isPending}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
