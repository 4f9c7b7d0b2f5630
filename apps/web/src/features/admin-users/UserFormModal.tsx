import { Alert, Modal, PasswordInput, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { Account } from '@vrtc/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFooter } from '../../components/FormFooter';
import { useResetOnOpen } from '../../lib/use-reset-on-open';
import { errorText } from '../../lib/error-text';
import type { PickerOption } from '../../api/lists';
import { organizationOptions } from '../../api/organizations';
import { useCurrentUser } from '../../auth/AuthProvider';
import { ServerSelect } from '../../components/ServerSelect';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useCreateAccount, useUpdateAccount } from '../../api/accounts';
import { isEmail, MIN_PASSWORD_LENGTH, PASSWORD_RECOMMENDED_LENGTH } from './validation';
import { AccountSwitches, type AccountValues as Values } from './AccountSwitches';

/**
 * Create an account (email, password, role, organisation) or edit one (email, role,
 * organisation, active, exempt from single sign-on). A missing required field shows 'Please fill in all required fields'.
 */
export function UserFormModal({
  opened,
  account,
  defaultOrganization,
  onClose,
}: {
  opened: boolean;
  account?: Account;
  /** A new account's organisation to begin with (the screen's organisation filter). */
  defaultOrganization?: PickerOption;
  onClose: () => void;
}) {
  const { t } = useTranslation('adminUsers');
  const me = useCurrentUser();
  const create = useCreateAccount();
  const update = useUpdateAccount();
  const [missingFields, setMissingFields] = useState(false);
  const isSelf = account?.id === me.id;

  const form = useForm<Values>({
    initialValues: {
      email: '',
      password: '',
      role: 'client',
      organization_id: null,
      active: true,
      sso_exempt: false,
    },
    validate: (values) => {
      const errors: Record<string, boolean | string> = {};
      if (!values.email.trim()) errors.email = true;
      else if (!isEmail(values.email)) errors.email = t('emailInvalid');
      if (!account) {
        if (!values.password) errors.password = true;
        else if (values.password.length < MIN_PASSWORD_LENGTH)
          errors.password = t('passwordTooShort', { min: MIN_PASSWORD_LENGTH });
      }
      if (!values.organization_id) errors.organization_id = true;
      return errors;
    },
  });

  useResetOnOpen(opened, account?.id, () => {
    setMissingFields(false);
    form.setValues({
      email: account?.email ?? '',
      password: '',
      role: account?.role ?? 'client',
      organization_id: account?.organization_id ?? defaultOrganization?.value ?? null,
      active: account?.active ?? true,
      sso_exempt: account?.sso_exempt ?? false,
    });
    form.clearErrors();
  });

  // The summary goes away once every required field is filled.
  const showMissing = missingFields && Object.values(form.errors).some((error) => error === true);

  const submit = form.onSubmit(
    async (values) => {
      setMissingFields(false);
      const email = values.email.trim();
      const organizationId = values.organization_id!;
      try {
        if (account) {
          await update.mutateAsync({
            id: account.id,
            body: {
              email,
              role: values.role,
              organization_id: organizationId,
              active: values.active,
              // Only when changed: it means nothing where the organisation has no single sign-on.
              ...(values.sso_exempt !== (account.sso_exempt ?? false)
                ? { sso_exempt: values.sso_exempt }
                : {}),
            },
          });
          notifySuccess(t('updated'));
        } else {
          await create.mutateAsync({
            email,
            password: values.password,
            role: values.role,
            organization_id: organizationId,
          });
          notifySuccess(t('createdToast'));
        }
        onClose();
      } catch (error) {
        notifyError(errorText(error, account ? t('updateFailed') : t('createFailed')));
      }
    },
    (errors) => setMissingFields(Object.values(errors).some((error) => error === true)),
  );

  return (
    <Modal opened={opened} onClose={onClose} title={account ? t('editTitle') : t('addTitle')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          {showMissing ? (
            <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
              {t('requiredFields')}
            </Alert>
          ) : null}
          <TextInput
            type="email"
            label={t('email')}
            placeholder="name@example.com"
            required
            data-autofocus
            autoComplete="off"
            maxLength={254}
            {...form.getInputProps('email')}
          />
          {account ? null : (
            <PasswordInput
              label={t('password')}
              description={t('passwordHint', {
                count: MIN_PASSWORD_LENGTH,
                recommended: PASSWORD_RECOMMENDED_LENGTH,
              })}
              required
              autoComplete="new-password"
              maxLength={200}
              {...form.getInputProps('password')}
            />
          )}
          <Select
            label={t('role')}
            required
            allowDeselect={false}
            disabled={isSelf}
            description={isSelf ? t('selfRoleHint') : undefined}
            data={[
              { value: 'client', label: t('common:role.client') },
              { value: 'admin', label: t('common:role.admin') },
              { value: 'auditor', label: t('common:role.auditor') },
            ]}
            {...form.getInputProps('role')}
          />
          <ServerSelect
            label={t('organization')}
            placeholder={t('organizationPlaceholder')}
            required
            nothingFoundMessage={t('nothingFound')}
            options={organizationOptions}
            valueLabel={
              form.values.organization_id === account?.organization_id
                ? account?.organization_name
                : form.values.organization_id === defaultOrganization?.value
                  ? defaultOrganization?.label
                  : undefined
            }
            {...form.getInputProps('organization_id')}
            value={form.values.organization_id}
            onChange={(id) => form.setFieldValue('organization_id', id)}
          />
          {account ? <AccountSwitches form={form} isSelf={isSelf} /> : null}
          <FormFooter
            submitLabel={account ? t('common:save') : t('common:create')}
            pending={create.isPending || update.isPending}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
