import {
  PasswordInput,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SsoFormValues } from './sso-form-model';

/** The single sign-on form's fields: the protocol's own, then domains and how people sign in. */
export function SsoFields({
  values,
  secretSet,
  onChange,
}: {
  values: SsoFormValues;
  secretSet: boolean;
  onChange: (patch: Partial<SsoFormValues>) => void;
}) {
  const { t } = useTranslation('adminOrganizations');
  const text = (field: keyof SsoFormValues) => ({
    value: values[field] as string,
    onChange: (event: { currentTarget: { value: string } }) =>
      onChange({ [field]: event.currentTarget.value }),
  });
  return (
    <Stack gap="sm">
      <SegmentedControl
        aria-label={t('sso.protocol')}
        value={values.protocol}
        onChange={(protocol) => onChange({ protocol: protocol as SsoFormValues['protocol'] })}
        data={[
          { value: 'oidc', label: 'OpenID Connect' },
          { value: 'saml', label: 'SAML 2.0' },
        ]}
      />
      {values.protocol === 'oidc' ? (
        <>
          <TextInput label={t('sso.issuer')} required {...text('issuer')} />
          <TextInput label={t('sso.clientId')} required {...text('client_id')} />
          <PasswordInput
            label={t('sso.clientSecret')}
            description={secretSet ? t('sso.secretKept') : undefined}
            required
            autoComplete="off"
            {...text('client_secret')}
          />
        </>
      ) : (
        <>
          <Textarea
            label={t('sso.metadataXml')}
            description={t('sso.metadataHint')}

            minRows={3}
            {...text('idp_metadata_xml')}
          />
          <TextInput label={t('sso.entryPoint')} {...text('entry_point')} />
          <Textarea
            label={t('sso.certificate')}

            minRows={2}
            {...text('idp_certificate')}
          />
        </>
      )}
      <TextInput
        label={t('sso.domains')}
        description={t('sso.domainsHint')}
        required
        {...text('domains')}
      />
      <Switch
        label={t('sso.enforced')}
        description={t('sso.enforcedHint')}
        checked={values.enforced}
        onChange={(event) => onChange({ enforced: event.currentTarget.checked })}
      />
      <Switch
        label={t('sso.jit')}
        description={t('sso.jitHint')}
        checked={values.jit}
        onChange={(event) => onChange({ jit: event.currentTarget.checked })}
      />
      <Select
        label={t('sso.defaultRole')}
        allowDeselect={false}
        value={values.default_role}
        onChange={(role) => onChange({ default_role: (role ?? 'client') as 'client' | 'auditor' })}
        data={[
          { value: 'client', label: t('sso.roleClient') },
          { value: 'auditor', label: t('sso.roleAuditor') },
        ]}
      />
    </Stack>
  );
}
