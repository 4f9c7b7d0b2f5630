import { Switch } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { Role } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { useSsoConfig } from '../../api/sso';

export interface AccountValues {
  email: string;
  password: string;
  role: Role;
  organization_id: string | null;
  active: boolean;
  sso_exempt: boolean;
}

/**
 * An existing account's switches: active, and, for staff of an organisation with single sign-on,
 * exempt from it (break-glass: signs in by password even when single sign-on is required).
 * Platform admins always sign in by password, so they have no such switch.
 */
export function AccountSwitches({
  form,
  isSelf,
}: {
  form: UseFormReturnType<AccountValues>;
  isSelf: boolean;
}) {
  const { t } = useTranslation('adminUsers');
  const organizationId = form.values.organization_id;
  return (
    <>
      <Switch
        label={t('activeLabel')}
        description={isSelf ? t('selfActiveHint') : t('activeHint')}
        disabled={isSelf}
        {...form.getInputProps('active', { type: 'checkbox' })}
      />
      {organizationId && form.values.role !== 'admin' ? (
        <SsoExemptSwitch form={form} organizationId={organizationId} />
      ) : null}
    </>
  );
}

function SsoExemptSwitch({
  form,
  organizationId,
}: {
  form: UseFormReturnType<AccountValues>;
  organizationId: string;
}) {
  const { t } = useTranslation('adminUsers');
  const sso = useSsoConfig(organizationId);
  if (!sso.data) return null;
  return (
    <Switch
      label={t('ssoExemptLabel')}
      description={sso.data.enforced ? t('ssoExemptHintEnforced') : t('ssoExemptHint')}
      {...form.getInputProps('sso_exempt', { type: 'checkbox' })}
    />
  );
}
