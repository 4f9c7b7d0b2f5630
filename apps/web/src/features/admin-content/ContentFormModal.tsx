import { Modal, NumberInput, SimpleGrid, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  LEVEL_NUMBER_MAX,
  MAX_TASKS_DEFAULT,
  MAX_TASKS_MAX,
  MAX_TASKS_MIN,
  NAME_MAX_LENGTH,
  ORDER_INDEX_MAX,
} from '@vrtc/contract';

/** The contract's Description schema allows 5000 characters. */
const DESCRIPTION_MAX_LENGTH = 5000;
import { useTranslation } from 'react-i18next';
import { FormFooter } from '../../components/FormFooter';
import { useResetOnOpen } from '../../lib/use-reset-on-open';
import { errorText } from '../../lib/error-text';
import { notifyError, notifySuccess } from '../../lib/notify';
import {
  useSaveContent,
  type ContentItem,
  type ContentKind,
  type SaveContentArgs,
} from '../../api/content';

interface Values {
  name: string;
  description: string;
  name_en: string;
  description_en: string;
  active: boolean;
  order_index: number | string;
  level_number: number | string;
  max_tasks: number | string;
}

/**
 * Why a whole-number field is refused, or null: the number is never rewritten into range (the
 * inputs do not clamp), so 0 stays 0 and is refused with the rule it breaks.
 */
function wholeNumberError(
  value: number | string,
  min: number,
  max: number,
  messages: { min: string; max: string },
): string | null {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) return messages.min;
  return value > max ? messages.max : null;
}

export interface ContentFormTarget {
  kind: ContentKind;
  item?: ContentItem;
  parentId?: string;
  /** Prefill of a new item: the next order index or level number. */
  next?: number;
}

/** Create or edit a scenario, module, level or level option. */
export function ContentFormModal({
  target,
  onClose,
}: {
  target?: ContentFormTarget;
  onClose: () => void;
}) {
  const { t } = useTranslation('adminContent');
  const save = useSaveContent();
  const kind = target?.kind ?? 'scenario';
  const item = target?.item;

  const form = useForm<Values>({
    initialValues: {
      name: '',
      description: '',
      name_en: '',
      description_en: '',
      active: true,
      order_index: 0,
      level_number: 1,
      max_tasks: MAX_TASKS_DEFAULT,
    },
    validate: {
      name: (value) => (value.trim() ? null : t('nameRequired')),
      order_index: (value) =>
        kind === 'module' || kind === 'option'
          ? wholeNumberError(value, 0, ORDER_INDEX_MAX, {
              min: t('orderMin'),
              max: t('orderMax', { max: ORDER_INDEX_MAX }),
            })
          : null,
      level_number: (value) =>
        kind === 'level'
          ? wholeNumberError(value, 1, LEVEL_NUMBER_MAX, {
              min: t('levelNumberMin'),
              max: t('levelNumberMax', { max: LEVEL_NUMBER_MAX }),
            })
          : null,
      max_tasks: (value) =>
        kind === 'level'
          ? wholeNumberError(value, MAX_TASKS_MIN, MAX_TASKS_MAX, {
              min: t('maxTasksMin'),
              max: t('maxTasksMax', { max: MAX_TASKS_MAX }),
            })
          : null,
    },
  });

  useResetOnOpen(Boolean(target), target, () => {
    if (!target) return;
    const source = target.item as Partial<Record<keyof Values, unknown>> | undefined;
    form.setValues({
      name: (source?.name as string) ?? '',
      description: (source?.description as string) ?? '',
      name_en: (source?.name_en as string | null) ?? '',
      description_en: (source?.description_en as string | null) ?? '',
      active: (source?.active as boolean) ?? true,
      order_index: (source?.order_index as number) ?? target.next ?? 0,
      level_number: (source?.level_number as number) ?? target.next ?? 1,
      max_tasks: (source?.max_tasks as number) ?? MAX_TASKS_DEFAULT,
    });
    form.clearErrors();
  });

  const submit = form.onSubmit(async (values) => {
    if (!target) return;
    // Blank English text is sent as null: no English text (it removes one the item had).
    const text = {
      name: values.name.trim(),
      description: values.description.trim(),
      name_en: values.name_en.trim() || null,
      description_en: values.description_en.trim() || null,
    };
    const parentId = target.parentId ?? '';
    let args: SaveContentArgs;
    if (kind === 'scenario') {
      args = item
        ? { kind, id: item.id, body: { ...text, active: values.active } }
        : { kind, body: text };
    } else if (kind === 'level') {
      const body = {
        ...text,
        level_number: Number(values.level_number),
        max_tasks: Number(values.max_tasks),
      };
      args = item ? { kind, id: item.id, body } : { kind, parentId, body };
    } else {
      const body = { ...text, order_index: Number(values.order_index) };
      if (kind === 'module') args = item ? { kind, id: item.id, body } : { kind, parentId, body };
      else args = item ? { kind, id: item.id, body } : { kind, parentId, body };
    }
    try {
      await save.mutateAsync(args);
      notifySuccess(t(item ? `updated.${kind}` : `created.${kind}`));
      onClose();
    } catch (error) {
      notifyError(errorText(error, item ? t('updateFailed') : t('createFailed')));
    }
  });

  return (
    <Modal
      opened={Boolean(target)}
      onClose={onClose}
      title={t(item ? `editTitle.${kind}` : `addTitle.${kind}`)}
      size="lg"
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <Stack gap="sm">
              <TextInput
                label={t('name')}
                description={t('primaryHint')}
                required
                data-autofocus
                maxLength={NAME_MAX_LENGTH}
                {...form.getInputProps('name')}
              />
              <Textarea
                label={t('description')}
                autosize
                minRows={2}
                maxRows={6}
                maxLength={DESCRIPTION_MAX_LENGTH}
                {...form.getInputProps('description')}
              />
            </Stack>
            <Stack gap="sm">
              <TextInput
                label={t('nameEn')}
                description={t('englishHint')}
                maxLength={NAME_MAX_LENGTH}
                lang="en"
                {...form.getInputProps('name_en')}
              />
              <Textarea
                label={t('descriptionEn')}
                autosize
                minRows={2}
                maxRows={6}
                maxLength={DESCRIPTION_MAX_LENGTH}
                lang="en"
                {...form.getInputProps('description_en')}
              />
            </Stack>
          </SimpleGrid>
          {kind === 'module' || kind === 'option' ? (
            <NumberInput
              label={t('orderIndex')}
              description={t('orderHint')}
              required
              min={0}
              max={ORDER_INDEX_MAX}
              clampBehavior="none"
              allowDecimal={false}
              {...form.getInputProps('order_index')}
            />
          ) : null}
          {kind === 'level' ? (
            <>
              <NumberInput
                label={t('levelNumber')}
                required
                min={1}
                max={LEVEL_NUMBER_MAX}
                clampBehavior="none"
                allowDecimal={false}
                {...form.getInputProps('level_number')}
              />
              <NumberInput
                label={t('maxTasks')}
                description={t('maxTasksHint')}
                required
                min={MAX_TASKS_MIN}
                max={MAX_TASKS_MAX}
                clampBehavior="none"
                allowDecimal={false}
                {...form.getInputProps('max_tasks')}
              />
            </>
          ) : null}
          {kind === 'scenario' && item ? (
            <Switch
              label={t('activeLabel')}
              description={t('activeHint')}
              {...form.getInputProps('active', { type: 'checkbox' })}
            />
          ) : null}
          <FormFooter
            submitLabel={item ? t('common:save') : t('common:create')}
            pending={save.isPending}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
