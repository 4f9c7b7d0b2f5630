import { Divider, Modal, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Organization } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { FormFooter } from '../../components/FormFooter';
import { useResetOnOpen } from '../../lib/use-reset-on-open';
import { errorText } from '../../lib/error-text';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useSaveOrganization } from '../../api/organizations';
import { ScimTokenPanel } from './ScimTokenPanel';

/** Create an organisation (name), or edit one (name and active). */
export function OrganizationFormModal({
  opened,
  organization,
  onClose,
}: {
  opened: boolean;
  organization?: Organization;
  onClose: () => void;
}) {
  const { t } = useTranslation('adminOrganizations');
  const save = useSaveOrganization();
  const form = useForm({
    initialValues: { name: '', active: true, mfa_required: false },
    validate: { name: (value) => (value.trim() ? null : t('nameRequired')) },
  });

  useResetOnOpen(opened, organization?.id, () => {
    form.setValues({
      name: organization?.name ?? '',
      active: organization?.active ?? true,
      mfa_required: organization?.mfa_required ?? false,
    });
    form.clearErrors();
  });

  const submit = form.onSubmit(async (values) => {
    try {
      await save.mutateAsync({
        id: organization?.id,
        name: values.name.trim(),
        active: values.active,
        mfa_required: values.mfa_required,
      });
      notifySuccess(organization ? t('updated') : t('createdToast'));
      onClose();
    } catch (error) {
      notifyError(errorText(error, organization ? t('updateFailed') : t('createFailed')));
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={organization ? t('editTitle') : t('addTitle')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t('name')}
            required
            data-autofocus
            maxLength={200}
            {...form.getInputProps('name')}
          />
          {organization ? (
            <Switch
              label={t('activeLabel')}
              description={t('activeHint')}
              {...form.getInputProps('active', { type: 'checkbox' })}
            />
          ) : null}
          {organization ? (
            <Switch
              label={t('mfaRequiredLabel')}
              description={t('mfaRequiredHint')}
              {...form.getInputProps('mfa_required', { type: 'checkbox' })}
            />
          ) : null}
          <FormFooter
            submitLabel={organization ? t('common:save') : t('common:create')}
            pending={save.isPending}
            onCancel={onClose}
          />
        </Stack>
      </form>
      {organization ? (
        <>
          <Divider my="lg" />
          <ScimTokenPanel organizationId={organization.id} />
        </>
      ) : null}
    </Modal>
  );
}
