import {
  Checkbox,
  Modal,
  PasswordInput,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  INTEGRATION_EVENTS,
  INTEGRATION_URL_MAX_LENGTH,
  type Integration,
  type IntegrationEvent,
  type IntegrationKind,
  type IntegrationUpdateBody,
} from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { FormFooter } from '../../components/FormFooter';
import { useResetOnOpen } from '../../lib/use-reset-on-open';
import { useCreateIntegration, useUpdateIntegration } from '../../api/integrations';
import { errorText } from '../../lib/error-text';
import { notifyError, notifySuccess } from '../../lib/notify';
import { eventLabel } from './integration-labels';

/** The LRS credentials' bound in the contract. */
const XAPI_FIELD_MAX = 500;

interface Values {
  kind: IntegrationKind;
  url: string;
  events: IntegrationEvent[];
  key: string;
  secret: string;
  include_names: boolean;
}

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/**
 * Add an integration (a webhook: its URL and events; an LRS: its endpoint, key and secret), or
 * change one (its kind stays; an LRS secret left empty is kept). A new webhook's signing secret
 * comes back in `onCreated`, for the screen to show once.
 */
export function IntegrationFormModal({
  opened,
  integration,
  organizationId,
  onClose,
  onCreated,
}: {
  opened: boolean;
  integration?: Integration;
  /** An admin's chosen organisation; staff create in their own. */
  organizationId: string | undefined;
  onClose: () => void;
  onCreated: (secret: string | null) => void;
}) {
  const { t } = useTranslation('integrations');
  const create = useCreateIntegration();
  const update = useUpdateIntegration();
  const form = useForm<Values>({
    initialValues: {
      kind: 'webhook',
      url: '',
      events: [...INTEGRATION_EVENTS],
      key: '',
      secret: '',
      include_names: false,
    },
    validate: {
      url: (value) =>
        !value.trim()
          ? t('form.urlRequired')
          : isHttpUrl(value.trim())
            ? null
            : t('form.urlInvalid'),
      events: (value, values) =>
        values.kind === 'webhook' && value.length === 0 ? t('form.eventsRequired') : null,
      key: (value, values) =>
        values.kind === 'xapi' && !value.trim() ? t('form.keyRequired') : null,
      secret: (value, values) =>
        values.kind === 'xapi' && !integration && !value.trim() ? t('form.secretRequired') : null,
    },
  });

  useResetOnOpen(opened, integration?.id, () => {
    form.setValues({
      kind: integration?.kind ?? 'webhook',
      url: integration?.url ?? '',
      events: integration ? [...integration.events] : [...INTEGRATION_EVENTS],
      key: integration?.xapi_key ?? '',
      secret: '',
      include_names: integration?.include_names ?? false,
    });
    form.clearErrors();
  });

  const kind = form.values.kind;
  const pending = create.isPending || update.isPending;

  const submit = form.onSubmit(async (values) => {
    const url = values.url.trim();
    try {
      if (integration) {
        const body: IntegrationUpdateBody = { url, include_names: values.include_names };
        if (values.kind === 'webhook') body.events = values.events;
        else {
          body.key = values.key.trim();
          if (values.secret.trim()) body.secret = values.secret.trim();
        }
        await update.mutateAsync({ id: integration.id, body });
        notifySuccess(t('form.updated'));
        onClose();
      } else {
        const answer = await create.mutateAsync(
          values.kind === 'webhook'
            ? {
                kind: 'webhook',
                url,
                events: values.events,
                include_names: values.include_names,
                ...(organizationId ? { organization_id: organizationId } : {}),
              }
            : {
                kind: 'xapi',
                url,
                key: values.key.trim(),
                secret: values.secret.trim(),
                include_names: values.include_names,
                ...(organizationId ? { organization_id: organizationId } : {}),
              },
        );
        notifySuccess(t('form.created'));
        onClose();
        onCreated(answer.secret);
      }
    } catch (error) {
      notifyError(errorText(error, integration ? t('form.updateFailed') : t('form.createFailed')));
    }
  });

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={integration ? t('form.editTitle') : t('form.addTitle')}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          {integration ? null : (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="integration-kind">
                {t('kind.label')}
              </Text>
              <SegmentedControl
                aria-labelledby="integration-kind"
                fullWidth
                data={[
                  { value: 'webhook', label: t('kind.webhook') },
                  { value: 'xapi', label: t('kind.xapi') },
                ]}
                {...form.getInputProps('kind')}
              />
            </Stack>
          )}
          <TextInput
            label={t('form.url')}
            description={kind === 'webhook' ? t('form.urlWebhookHint') : t('form.urlXapiHint')}
            placeholder="https://"
            required
            data-autofocus
            type="url"
            maxLength={INTEGRATION_URL_MAX_LENGTH}
            spellCheck={false}
            autoComplete="off"
            {...form.getInputProps('url')}
          />
          {kind === 'webhook' ? (
            <Checkbox.Group label={t('form.events')} required {...form.getInputProps('events')}>
              <Stack gap="xs" mt="xs">
                {INTEGRATION_EVENTS.map((event) => (
                  <Checkbox
                    key={event}
                    value={event}
                    label={eventLabel(t, event)}
                    description={event}
                  />
                ))}
              </Stack>
            </Checkbox.Group>
          ) : (
            <>
              <Text size="sm" c="dimmed">
                {t('xapiEvents')}
              </Text>
              <TextInput
                label={t('form.key')}
                required
                maxLength={XAPI_FIELD_MAX}
                spellCheck={false}
                autoComplete="off"
                {...form.getInputProps('key')}
              />
              <PasswordInput
                label={t('form.secret')}
                required={!integration}
                description={integration ? t('form.secretKeep') : undefined}
                maxLength={XAPI_FIELD_MAX}
                autoComplete="new-password"
                {...form.getInputProps('secret')}
              />
            </>
          )}
          <Switch
            label={t('includeNames')}
            description={t('includeNamesHint')}
            {...form.getInputProps('include_names', { type: 'checkbox' })}
          />
          <FormFooter
            submitLabel={integration ? t('common:save') : t('common:create')}
            pending={pending}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
