import '@mantine/dates/styles.css';
import 'dayjs/locale/ru';
import { ActionIcon, Divider, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { DatePickerInput, DatesProvider } from '@mantine/dates';
import { IconCalendar, IconUserMinus } from '@tabler/icons-react';
import type { Qualification } from '@vrtc/contract';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useAssignQualification,
  useCompliance,
  useUnassignQualification,
} from '../../api/qualifications';
import { vrUserOptions } from '../../api/vr-users';
import { FormFooter } from '../../components/FormFooter';
import { QualificationBadge } from '../../components/QualificationBadge';
import { ServerMultiSelect } from '../../components/ServerMultiSelect';
import { useConfirmedAction } from '../../components/use-confirmed-action';
import { dateInputFormat, formatDate } from '../../lib/format';
import { errorText } from '../../lib/error-text';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useResetOnOpen } from '../../lib/use-reset-on-open';
import { endOfDay } from './compliance-state';

export interface AssignmentModalProps {
  qualification: Qualification | undefined;
  onClose: () => void;
}

/** Trainees listed as assigned in the dialog: a qualification assigned to more is read on Compliance. */
const ASSIGNED_SHOWN = 500;

/** Who holds the assignment now, each with a button that takes it away (after a yes). */
function AssignedList({ qualification }: { qualification: Qualification }) {
  const { t, i18n } = useTranslation('qualifications');
  const assigned = useCompliance({
    qualification_id: qualification.id,
    limit: ASSIGNED_SHOWN,
    sort: 'vr_user_name',
  });
  const unassign = useConfirmedAction(useUnassignQualification(), {
    success: t('unassigned'),
    error: t('common:error'),
  });
  const rows = assigned.data?.rows ?? [];
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t('assignedTitle', { count: assigned.data?.total ?? 0 })}
      </Title>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {assigned.isPending ? t('common:loading') : t('noneAssigned')}
        </Text>
      ) : (
        <Stack component="ul" gap={4} p={0} m={0} style={{ listStyle: 'none' }}>
          {rows.map((row) => (
            <Group component="li" key={row.vr_user_id} justify="space-between" wrap="nowrap">
              <div>
                <Text size="sm">{row.vr_user_name}</Text>
                {row.due_at ? (
                  <Text size="xs" c="dimmed">
                    {t('dueOn', { date: formatDate(row.due_at, i18n.language) })}
                  </Text>
                ) : null}
              </div>
              <Group gap="xs" wrap="nowrap">
                <QualificationBadge status={row.status} />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('unassignFrom', { name: row.vr_user_name })}
                  onClick={() =>
                    unassign(
                      { id: qualification.id, vrUserId: row.vr_user_id },
                      {
                        title: t('unassignTitle'),
                        message: t('unassignConfirm', {
                          name: row.vr_user_name,
                          qualification: qualification.name,
                        }),
                        confirmLabel: t('unassign'),
                        danger: true,
                      },
                    )
                  }
                >
                  <IconUserMinus size={18} />
                </ActionIcon>
              </Group>
            </Group>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/**
 * Assigns a qualification to trainees, many at once, with an optional due date (assigning again
 * changes it), and lists who holds it, each of whom can be unassigned.
 */
export function AssignmentModal({ qualification, onClose }: AssignmentModalProps) {
  const { t, i18n } = useTranslation('qualifications');
  const assign = useAssignQualification();
  const [vrUserIds, setVrUserIds] = useState<string[]>([]);
  const [due, setDue] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  useResetOnOpen(Boolean(qualification), qualification?.id, () => {
    setVrUserIds([]);
    setDue(null);
    setMissing(false);
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!qualification) return;
    if (vrUserIds.length === 0) {
      setMissing(true);
      return;
    }
    try {
      await assign.mutateAsync({
        id: qualification.id,
        body: { vr_user_ids: vrUserIds, due_at: due ? endOfDay(due) : null },
      });
      notifySuccess(t('assignedToast', { count: vrUserIds.length }));
      setVrUserIds([]);
    } catch (error) {
      notifyError(errorText(error, t('common:error')));
    }
  }

  return (
    <Modal
      opened={Boolean(qualification)}
      onClose={onClose}
      size="lg"
      title={qualification ? t('assignTitle', { name: qualification.name }) : ''}
    >
      <DatesProvider settings={{ locale: i18n.language === 'en' ? 'en' : 'ru', firstDayOfWeek: 1 }}>
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack>
            <ServerMultiSelect
              label={t('field.trainees')}
              placeholder={t('pickTrainees')}
              options={vrUserOptions}
              value={vrUserIds}
              onChange={(ids) => {
                setVrUserIds(ids);
                setMissing(false);
              }}
              error={missing ? t('form.traineesRequired') : undefined}
              nothingFoundMessage={t('filter.nothingFound')}
              comboboxProps={{ withinPortal: true }}
              data-autofocus
            />
            <DatePickerInput
              label={t('field.dueAt')}
              description={t('form.dueHint')}
              placeholder={t('form.noDue')}
              value={due}
              onChange={setDue}
              clearable
              clearButtonProps={{ 'aria-label': t('common:clear') }}
              valueFormat={dateInputFormat(i18n.language)}
              leftSection={<IconCalendar size={16} />}
              popoverProps={{ withinPortal: true }}
            />
            <FormFooter submitLabel={t('assign')} pending={assign.isPending} onCancel={onClose} />
          </Stack>
        </form>
      </DatesProvider>
      {qualification ? (
        <>
          <Divider my="md" />
          <AssignedList qualification={qualification} />
        </>
      ) : null}
    </Modal>
  );
}
