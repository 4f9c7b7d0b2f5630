import {
  Button,
  Group,
  Modal,
  NumberInput,
  Stack,
  Switch,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  LEVEL_NUMBER_MAX,
  MAX_TASKS_DEFAULT,
  MAX_TASKS_MAX,
  ORDER_INDEX_MAX,
} from '@vrtc/contract';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useSaveContent, type ContentBody, type ContentItem, type ContentKind } from './api';

interface Values {
  name: string;
  description: string;
  active: boolean;
  order_index: number | string;
  level_number: number | string;
  max_tasks: number | string;
}

const isWhole = (value: number | string, min: number) =>
  typeof value === 'number' && Number.isInteger(value) && value >= min;

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
      active: true,
      order_index: 0,
      level_number: 1,
      max_tasks: MAX_TASKS_DEFAULT,
    },
    validate: {
      name: (value) => (value.trim() ? null : t('nameRequired')),
      order_index: (value) =>
        (kind === 'module' || kind === 'option') && !isWhole(value, 0) ? t('orderMin') : null,
      level_number: (value) =>
        kind === 'level' && !isWhole(value, 1) ? t('levelNumberMin') : null,
      max_tasks: (value) => (kind === 'level' && !isWhole(value, 1) ? t('maxTasksMin') : null),
    },
  });

  useEffect(() => {
    if (!target) return;
    const source = target.item as Partial<Record<keyof Values, unknown>> | undefined;
    form.setValues({
      name: (source?.name as string) ?? '',
      description: (source?.description as string) ?? '',
      active: (source?.active as boolean) ?? true,
      order_index: (source?.order_index as number) ?? target.next ?? 0,
      level_number: (source?.level_number as number) ?? target.next ?? 1,
      max_tasks: (source?.max_tasks as number) ?? MAX_TASKS_DEFAULT,
    });
    form.clearErrors();
    // Reset only when the dialog opens for another item.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target]);

  const submit = form.onSubmit(async (values) => {
    if (!target) return;
    const name = values.name.trim();
    const description = values.description.trim();
    let body: ContentBody;
    if (kind === 'scenario')
      body = item ? { name, description, active: values.active } : { name, description };
    else if (kind === 'level') {
      body = {
        name,
        description,
        level_number: Number(values.level_number),
        max_tasks: Number(values.max_tasks),
      };
    } else body = { name, description, order_index: Number(values.order_index) };
    try {
      await save.mutateAsync({ kind, id: item?.id, parentId: target.parentId, body });
      notifySuccess(t(item ? `updated.${kind}` : `created.${kind}`));
      onClose();
    } catch (error) {
      notifyError(errorMessage(error, item ? t('updateFailed') : t('createFailed')));
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
          <TextInput
            label={t('name')}
            required
            data-autofocus
            maxLength={200}
            {...form.getInputProps('name')}
          />
          <Textarea
            label={t('description')}
            autosize
            minRows={2}
            maxRows={6}
            maxLength={5000}
            {...form.getInputProps('description')}
          />
          {kind === 'module' || kind === 'option' ? (
            <NumberInput
              label={t('orderIndex')}
              description={t('orderHint')}
              required
              min={0}
              max={ORDER_INDEX_MAX}
              allowDecimal={false}
              allowNegative={false}
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
                allowDecimal={false}
                allowNegative={false}
                {...form.getInputProps('level_number')}
              />
              <NumberInput
                label={t('maxTasks')}
                description={t('maxTasksHint')}
                required
                min={1}
                max={MAX_TASKS_MAX}
                allowDecimal={false}
                allowNegative={false}
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
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {item ? t('common:save') : t('common:create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
