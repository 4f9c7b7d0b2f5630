import { Badge, Group, Modal, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { IconCalendar } from '@tabler/icons-react';
import type { ScenarioAccessEntry } from '@vrtc/contract';
import { useMemo } from 'react';
import { ServerMultiSelect } from '../../components/ServerMultiSelect';
import { accessExpiryState } from '../../lib/expiry';
import { useTranslation } from 'react-i18next';
import { useContentText } from '../../lib/content-text';
import { FormFooter } from '../../components/FormFooter';
import { useResetOnOpen } from '../../lib/use-reset-on-open';
import { errorText } from '../../lib/error-text';
import { notifyError, notifySuccess } from '../../lib/notify';
import { grantOptions, useGrantAccess, type GrantOption } from '../../api/access';
import { defaultExpiryDay, expiryTimestamp, minExpiryDay } from './expiry-date';
import { formatExpiryDay } from '../../lib/expiry';
import { dateInputFormat } from '../../lib/format';

/** Grant a scenario to organisations until the end (23:59:59 UTC) of the chosen day. */
export function GrantAccessModal({
  entry,
  onClose,
}: {
  entry?: ScenarioAccessEntry;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('adminAccess');
  const content = useContentText();
  const grant = useGrantAccess();
  const form = useForm<{ organization_ids: string[]; expires_on: string | null }>({
    initialValues: { organization_ids: [], expires_on: defaultExpiryDay() },
    validate: {
      organization_ids: (value) => (value.length === 0 ? t('selectOrganizations') : null),
      expires_on: (value) => (value ? null : t('selectDate')),
    },
  });

  useResetOnOpen(Boolean(entry), entry?.scenario_id, () => {
    form.setValues({ organization_ids: [], expires_on: defaultExpiryDay() });
    form.clearErrors();
  });

  // The organisations are found on the server as the admin types, each with its grant of the
  // scenario: a choice says whether it has access already (granting again replaces its expiry).
  const options = useMemo(() => grantOptions(entry?.scenario_id), [entry?.scenario_id]);
  const grantNote = ({ grant }: GrantOption) => {
    if (!grant?.expires_at) return grant?.has_access ? t('state.never') : undefined;
    const date = formatExpiryDay(grant.expires_at, i18n.language);
    return accessExpiryState(grant.expires_at) === 'expired'
      ? t('expiredOn', { date })
      : t('hasAccessUntil', { date });
  };

  const submit = form.onSubmit(async (values) => {
    if (!entry || !values.expires_on) return;
    try {
      await grant.mutateAsync({
        scenarioId: entry.scenario_id,
        body: {
          organization_ids: values.organization_ids,
          expires_at: expiryTimestamp(values.expires_on),
        },
      });
      notifySuccess(t('granted', { count: values.organization_ids.length }));
      onClose();
    } catch (error) {
      notifyError(errorText(error, t('grantFailed')));
    }
  });

  const expiresOn = form.values.expires_on;

  return (
    <Modal
      opened={Boolean(entry)}
      onClose={onClose}
      title={t('grantTitle', {
        scenario: entry ? content.text(entry.scenario_name, entry.scenario_name_en) : '',
      })}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <ServerMultiSelect
            label={t('organizations')}
            placeholder={
              form.values.organization_ids.length ? undefined : t('organizationsPlaceholder')
            }
            description={t('organizationsHint')}
            required
            clearable
            clearButtonProps={{ 'aria-label': t('common:clear') }}
            data-autofocus
            // Focus alone does not open the list over the date field; typing or a click does.
            openOnFocus={false}
            nothingFoundMessage={t('nothingFound')}
            options={options}
            comboboxProps={{ withinPortal: true }}
            renderOption={({ option }) => {
              const note = grantNote(option as GrantOption);
              return (
                <Group gap="xs" justify="space-between" wrap="nowrap" w="100%">
                  <Text size="sm">{option.label}</Text>
                  {note ? (
                    <Badge size="sm" variant="light" color="gray" tt="none">
                      {note}
                    </Badge>
                  ) : null}
                </Group>
              );
            }}
            value={form.values.organization_ids}
            onChange={(ids) => form.setFieldValue('organization_ids', ids)}
            error={form.errors.organization_ids}
          />
          <DatePickerInput
            label={t('expiresOn')}
            placeholder={t('datePlaceholder')}
            required
            clearable
            clearButtonProps={{ 'aria-label': t('common:clear') }}
            minDate={minExpiryDay()}
            valueFormat={dateInputFormat(i18n.language)}
            leftSection={<IconCalendar size={16} />}
            popoverProps={{ withinPortal: true }}
            description={
              expiresOn
                ? t('expiresHint', {
                    date: formatExpiryDay(expiryTimestamp(expiresOn), i18n.language),
                  })
                : undefined
            }
            {...form.getInputProps('expires_on')}
          />
          {entry ? (
            <Text size="xs" c="dimmed">
              {t('renewNote')}
            </Text>
          ) : null}
          <FormFooter submitLabel={t('grant')} pending={grant.isPending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
