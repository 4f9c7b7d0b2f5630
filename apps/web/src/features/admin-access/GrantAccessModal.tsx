import { Button, Group, Modal, MultiSelect, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { IconCalendar } from '@tabler/icons-react';
import type { ScenarioAccessEntry } from '@vrtc/contract';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useGrantAccess } from './api';
import { defaultExpiryDay, expiryTimestamp, minExpiryDay } from './expiry-date';
import { formatExpiryDay } from './format';

/** Grant a scenario to organisations until the end (23:59:59 UTC) of the chosen day. */
export function GrantAccessModal({
  entry,
  onClose,
}: {
  entry?: ScenarioAccessEntry;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('adminAccess');
  const grant = useGrantAccess();
  const form = useForm<{ organization_ids: string[]; expires_on: string | null }>({
    initialValues: { organization_ids: [], expires_on: defaultExpiryDay() },
    validate: {
      organization_ids: (value) => (value.length === 0 ? t('selectOrganizations') : null),
      expires_on: (value) => (value ? null : t('selectDate')),
    },
  });

  useEffect(() => {
    if (!entry) return;
    form.setValues({ organization_ids: [], expires_on: defaultExpiryDay() });
    form.clearErrors();
    // Reset only when the dialog opens for another scenario.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [entry?.scenario_id]);

  // Organisations with access are listed apart: granting again sets a new expiry.
  const data = useMemo(() => {
    const organizations = [...(entry?.organizations ?? [])].sort((a, b) =>
      a.organization_name.localeCompare(b.organization_name),
    );
    const item = (o: (typeof organizations)[number]) => ({
      value: o.organization_id,
      label: o.organization_name,
    });
    const groups = [
      { group: t('withoutAccess'), items: organizations.filter((o) => !o.has_access).map(item) },
      { group: t('withAccess'), items: organizations.filter((o) => o.has_access).map(item) },
    ];
    return groups.filter((group) => group.items.length > 0);
  }, [entry, t]);

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
      notifyError(errorMessage(error, t('grantFailed')));
    }
  });

  const expiresOn = form.values.expires_on;

  return (
    <Modal
      opened={Boolean(entry)}
      onClose={onClose}
      title={t('grantTitle', { scenario: entry?.scenario_name ?? '' })}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <MultiSelect
            label={t('organizations')}
            placeholder={
              form.values.organization_ids.length ? undefined : t('organizationsPlaceholder')
            }
            required
            searchable
            clearable
            clearButtonProps={{ 'aria-label': t('common:clear') }}
            data-autofocus
            // Focus alone does not open the list over the date field; typing or a click does.
            openOnFocus={false}
            nothingFoundMessage={t('nothingFound')}
            data={data}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('organization_ids')}
          />
          <DatePickerInput
            label={t('expiresOn')}
            placeholder={t('datePlaceholder')}
            required
            clearable
            clearButtonProps={{ 'aria-label': t('common:clear') }}
            minDate={minExpiryDay()}
            valueFormat="D MMMM YYYY"
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
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" loading={grant.isPending}>
              {t('grant')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
