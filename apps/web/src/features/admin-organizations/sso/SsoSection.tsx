import { Alert, Anchor, Button, Group, Loader, Modal, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { Organization, SsoConfig } from '@vrtc/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteSso, useSaveSso, useSsoConfig, ssoTestUrl } from '../../../api/sso';
import { errorText } from '../../../lib/error-text';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { CopyValues } from './CopyValues';
import { ExemptAccounts } from './ExemptAccounts';
import { SsoFields } from './SsoFields';
import { bodyOf, formValuesOf, type SsoFormValues } from './sso-form-model';
import { SsoTestResult } from './SsoTestResult';

/** A test sign-in the server sent the admin back from: its id, or why it could not start. */
export interface SsoTestReturn {
  testId: string | null;
  startError: string | null;
}

/** A platform admin's "Single sign-on" of one organisation (docs/sso.md), as a dialog. */
export default function SsoSection({
  organization,
  tested,
  onClose,
}: {
  organization: Organization;
  tested?: SsoTestReturn;
  onClose: () => void;
}) {
  const { t } = useTranslation('adminOrganizations');
  const config = useSsoConfig(organization.id);
  // The whole screen of a phone (Mantine's `xs`), following a turned or resized window.
  const phone = useMediaQuery('(max-width: 575.98px)');
  return (
    <Modal
      opened
      onClose={onClose}
      title={`${t('sso.title')}: ${organization.name}`}
      size="lg"
      fullScreen={phone}
    >
      {config.isPending ? (
        <Loader aria-label={t('sso.loading')} />
      ) : config.error ? (
        <Alert color="red" role="alert">
          {errorText(config.error, t('sso.loadFailed'))}
        </Alert>
      ) : (
        <Stack>
          {tested ? <SsoTestResult organizationId={organization.id} {...tested} /> : null}
          <SsoEditor organizationId={organization.id} config={config.data} onClose={onClose} />
        </Stack>
      )}
    </Modal>
  );
}

function SsoEditor({
  organizationId,
  config,
  onClose,
}: {
  organizationId: string;
  config: SsoConfig | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('adminOrganizations');
  const [values, setValues] = useState<SsoFormValues>(() => formValuesOf(config));
  const save = useSaveSso(organizationId);
  const remove = useDeleteSso(organizationId);
  const onChange = (patch: Partial<SsoFormValues>) => setValues((now) => ({ ...now, ...patch }));

  async function submit() {
    try {
      await save.mutateAsync(bodyOf(values));
      setValues((now) => ({ ...now, client_secret: '', idp_metadata_xml: '' }));
      notifySuccess(t('sso.saved'));
    } catch (error) {
      notifyError(errorText(error, t('sso.saveFailed')));
    }
  }
  async function removeAll() {
    try {
      await remove.mutateAsync();
      notifySuccess(t('sso.removed'));
      onClose();
    } catch (error) {
      notifyError(errorText(error, t('sso.saveFailed')));
    }
  }

  return (
    <Stack>
      <SsoFields
        values={values}
        secretSet={config?.client_secret_set ?? false}
        onChange={onChange}
      />
      {config ? <CopyValues config={config} /> : null}
      {config ? <ExemptAccounts organizationId={organizationId} /> : null}
      <Group justify="space-between" gap="xs">
        <Group gap="xs">
          {config ? (
            <Anchor href={ssoTestUrl(organizationId)} size="sm">
              {t('sso.test')}
            </Anchor>
          ) : null}
          {config ? (
            <Button variant="subtle" color="red" onClick={removeAll} loading={remove.isPending}>
              {t('sso.remove')}
            </Button>
          ) : null}
        </Group>
        <Button onClick={submit} loading={save.isPending}>
          {t('sso.save')}
        </Button>
      </Group>
    </Stack>
  );
}
