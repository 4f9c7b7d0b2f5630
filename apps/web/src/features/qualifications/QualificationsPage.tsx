import { Anchor, Badge, Button, Group, Text } from '@mantine/core';
import {
  IconArrowLeft,
  IconCertificate,
  IconPlus,
  IconSchool,
  IconUserPlus,
} from '@tabler/icons-react';
import type { Qualification } from '@vrtc/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDeleteQualification, useQualificationList } from '../../api/qualifications';
import { useCanChange } from '../../auth/can-change';
import { PAGE_SIZE } from '../../components/DataTable';
import { ListCard, ListSearch } from '../../components/ListCard';
import { PageHeader } from '../../components/PageHeader';
import { ExportForLmsDialog } from '../../components/ExportForLmsDialog';
import { actionsColumn } from '../../components/RowActions';
import { lazyDialog } from '../../components/lazy-dialog';
import { useColumns } from '../../components/use-columns';
import { useConfirmedAction } from '../../components/use-confirmed-action';
import { useListState } from '../../lib/list-state';
import type { AssignmentModalProps } from './AssignmentModal';
import type { QualificationFormModalProps } from './QualificationFormModal';

const QualificationFormModal = lazyDialog<QualificationFormModalProps>(
  () => import('./QualificationFormModal').then((module) => module.QualificationFormModal),
  (props) => props.opened,
  (props) => ({ ...props, opened: false }),
);
const AssignmentModal = lazyDialog<AssignmentModalProps>(
  () => import('./AssignmentModal').then((module) => module.AssignmentModal),
  (props) => Boolean(props.qualification),
  (props) => ({ ...props, qualification: undefined }),
);

/** The qualification's sort fields (the contract's, without its schemas). */
const SORT_FIELDS = ['name', 'validity_days', 'created_at'] as const;

/**
 * The organisation's qualifications (/compliance/qualifications): what each requires and for how
 * long, how many trainees it is assigned to; staff add, edit, assign and archive them, the auditor
 * reads them.
 */
export function QualificationsPage() {
  const { t } = useTranslation('qualifications');
  const canChange = useCanChange();
  const list = useListState({
    pageSize: PAGE_SIZE,
    sortFields: SORT_FIELDS,
    defaultSort: { sort: 'name', order: 'asc' },
  });
  const qualifications = useQualificationList(list.query);
  const [editing, setEditing] = useState<{ qualification?: Qualification }>();
  const [assigning, setAssigning] = useState<Qualification>();
  const [exporting, setExporting] = useState<Qualification>();
  const archive = useConfirmedAction(useDeleteQualification(), {
    success: t('archived'),
    error: t('common:error'),
  });

  const columns = useColumns<Qualification>(
    t,
    () => [
      {
        accessorKey: 'name',
        header: t('field.name'),
        cell: (c) => (
          <div>
            <Text size="sm" fw={500}>
              {c.row.original.name}
            </Text>
            {c.row.original.name_en ? (
              <Text size="xs" c="dimmed" lang="en">
                {c.row.original.name_en}
              </Text>
            ) : null}
          </div>
        ),
      },
      {
        id: 'levels',
        header: t('field.levels'),
        meta: { card: 'fact' },
        cell: (c) => t('levelCount', { count: c.row.original.level_ids.length }),
      },
      {
        accessorKey: 'validity_days',
        header: t('field.validity'),
        meta: { card: 'fact' },
        cell: (c) =>
          c.row.original.validity_days === null
            ? t('never')
            : t('days', { count: c.row.original.validity_days }),
      },
      {
        id: 'evaluation',
        header: t('field.evaluation'),
        meta: { card: 'fact' },
        cell: (c) =>
          c.row.original.evaluation_required ? (
            <Badge variant="light" color="blue">
              {t('evaluationRequired')}
            </Badge>
          ) : (
            t('evaluationNotRequired')
          ),
      },
      {
        accessorKey: 'assigned_count',
        header: t('field.assigned'),
        meta: { card: 'fact' },
      },
      ...(canChange
        ? [
            actionsColumn<Qualification>(t, (qualification) => [
              {
                label: t('assign'),
                ariaLabel: t('assignTo', { name: qualification.name }),
                icon: IconUserPlus,
                onClick: () => setAssigning(qualification),
              },
              {
                label: t('lms:exportButton'),
                ariaLabel: `${t('lms:exportButton')}: ${qualification.name}`,
                icon: IconSchool,
                onClick: () => setExporting(qualification),
              },
              { kind: 'edit', onClick: () => setEditing({ qualification }) },
              {
                kind: 'delete',
                label: t('archive'),
                onClick: () =>
                  archive(qualification.id, {
                    title: t('archiveTitle'),
                    message: t('archiveConfirm', { name: qualification.name }),
                    confirmLabel: t('archive'),
                    danger: true,
                  }),
              },
            ]),
          ]
        : []),
    ],
    [canChange],
  );

  const add = canChange ? (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({})}>
      {t('add')}
    </Button>
  ) : undefined;

  return (
    <>
      <Anchor component={Link} to="/compliance" size="sm" mb="xs" display="inline-block">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} aria-hidden />
          {t('backToCompliance')}
        </Group>
      </Anchor>
      <PageHeader
        title={t('qualificationsTitle')}
        subtitle={t('qualificationsSubtitle')}
        actions={add}
      />
      <ListCard
        query={qualifications}
        toolbar={<ListSearch list={list} label={t('searchQualifications')} mb="md" />}
        rows={qualifications.data?.qualifications ?? []}
        total={qualifications.data?.total ?? 0}
        state={list}
        columns={columns}
        getRowId={(qualification) => qualification.id}
        label={t('qualificationsTitle')}
        noMatches={t('noQualificationMatches')}
        empty={{
          icon: <IconCertificate size={28} />,
          title: t('emptyQualificationsTitle'),
          description: t('emptyQualificationsText'),
          action: add,
        }}
      />
      <QualificationFormModal
        opened={Boolean(editing)}
        qualification={editing?.qualification}
        onClose={() => setEditing(undefined)}
      />
      <AssignmentModal qualification={assigning} onClose={() => setAssigning(undefined)} />
      {exporting ? (
        <ExportForLmsDialog
          opened
          onClose={() => setExporting(undefined)}
          target={{ qualification_id: exporting.id }}
          name={exporting.name}
        />
      ) : null}
    </>
  );
}
