import {
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Stack,
  Switch,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Qualification, QualificationBody } from '@vrtc/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSaveQualification } from '../../api/qualifications';
import { useScenarioTree } from '../../api/scenarios';
import { FormFooter } from '../../components/FormFooter';
import { useContentText } from '../../lib/content-text';
import { errorText } from '../../lib/error-text';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useResetOnOpen } from '../../lib/use-reset-on-open';
import { levelOptions } from './level-options';

export interface QualificationFormModalProps {
  opened: boolean;
  qualification?: Qualification;
  onClose: () => void;
}

/** The contract's bounds (qualifications.ts), without loading its schemas. */
export const VALIDITY_DAYS_MAX = 3650;
export const EXPIRING_WITHIN_DAYS_MAX = 365;
const EXPIRING_WITHIN_DAYS_DEFAULT = 30;

interface Values {
  name: string;
  name_en: string;
  description: string;
  level_ids: string[];
  never: boolean;
  validity_days: number | string;
  expiring_within_days: number | string;
  evaluation_required: boolean;
}

const empty: Values = {
  name: '',
  name_en: '',
  description: '',
  level_ids: [],
  never: false,
  validity_days: 365,
  expiring_within_days: EXPIRING_WITHIN_DAYS_DEFAULT,
  evaluation_required: false,
};

/** The form's values as the API takes them. */
export function qualificationBody(values: Values): QualificationBody {
  return {
    name: values.name.trim(),
    name_en: values.name_en.trim() || null,
    description: values.description.trim() || null,
    level_ids: values.level_ids,
    validity_days: values.never ? null : Number(values.validity_days),
    expiring_within_days: Number(values.expiring_within_days),
    evaluation_required: values.evaluation_required,
  };
}

/**
 * Add or edit a qualification: its names, what it requires (levels from the scenarios the
 * organisation may run, perhaps a signed practical evaluation), how long it stays valid (or never
 * lapses) and how early it shows as expiring.
 */
export function QualificationFormModal({
  opened,
  qualification,
  onClose,
}: QualificationFormModalProps) {
  const { t } = useTranslation('qualifications');
  const text = useContentText();
  const tree = useScenarioTree();
  const save = useSaveQualification();
  const form = useForm<Values>({
    initialValues: empty,
    validate: {
      name: (value) => (value.trim() ? null : t('form.nameRequired')),
      level_ids: (value) => (value.length > 0 ? null : t('form.levelsRequired')),
      validity_days: (value, values) =>
        values.never || (Number(value) >= 1 && Number(value) <= VALIDITY_DAYS_MAX)
          ? null
          : t('form.validityRange', { max: VALIDITY_DAYS_MAX }),
      expiring_within_days: (value) =>
        value !== '' && Number(value) >= 0 && Number(value) <= EXPIRING_WITHIN_DAYS_MAX
          ? null
          : t('form.expiringRange', { max: EXPIRING_WITHIN_DAYS_MAX }),
    },
  });

  useResetOnOpen(opened, qualification?.id, () => {
    form.setValues(
      qualification
        ? {
            name: qualification.name,
            name_en: qualification.name_en ?? '',
            description: qualification.description ?? '',
            level_ids: qualification.level_ids,
            never: qualification.validity_days === null,
            validity_days: qualification.validity_days ?? 365,
            expiring_within_days: qualification.expiring_within_days,
            evaluation_required: qualification.evaluation_required,
          }
        : empty,
    );
    form.resetDirty();
  });

  const chosen = form.values.level_ids;
  const levels = useMemo(
    () => levelOptions(tree.data ?? [], text, chosen, t('form.levelUnavailable')),
    [tree.data, text, chosen, t],
  );

  const submit = form.onSubmit(async (values) => {
    try {
      await save.mutateAsync({ id: qualification?.id, body: qualificationBody(values) });
      notifySuccess(qualification ? t('updated') : t('created'));
      onClose();
    } catch (error) {
      notifyError(errorText(error, t('common:error')));
    }
  });

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="lg"
      title={qualification ? t('editTitle') : t('addTitle')}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t('field.name')}
            required
            data-autofocus
            maxLength={200}
            {...form.getInputProps('name')}
          />
          <TextInput label={t('field.nameEn')} maxLength={200} {...form.getInputProps('name_en')} />
          <Textarea
            label={t('field.description')}
            autosize
            minRows={2}
            maxLength={2000}
            {...form.getInputProps('description')}
          />
          <MultiSelect
            label={t('field.levels')}
            description={t('form.levelsHint')}
            required
            searchable
            data={levels}
            nothingFoundMessage={tree.isPending ? t('common:loading') : t('form.noLevels')}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('level_ids')}
          />
          <Checkbox
            label={t('form.never')}
            {...form.getInputProps('never', { type: 'checkbox' })}
          />
          <Group grow align="flex-start">
            <NumberInput
              label={t('field.validityDays')}
              min={1}
              max={VALIDITY_DAYS_MAX}
              allowDecimal={false}
              disabled={form.values.never}
              {...form.getInputProps('validity_days')}
            />
            <NumberInput
              label={t('field.expiringWithin')}
              description={t('form.expiringHint')}
              min={0}
              max={EXPIRING_WITHIN_DAYS_MAX}
              allowDecimal={false}
              {...form.getInputProps('expiring_within_days')}
            />
          </Group>
          <Switch
            label={t('field.evaluation')}
            description={t('form.evaluationHint')}
            {...form.getInputProps('evaluation_required', { type: 'checkbox' })}
          />
          <FormFooter
            submitLabel={qualification ? t('common:save') : t('common:create')}
            pending={save.isPending}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
