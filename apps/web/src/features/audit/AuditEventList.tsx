import { ActionIcon, Code, Stack, Text } from '@mantine/core';
import { IconListDetails } from '@tabler/icons-react';
import type { AuditEvent } from '@vrtc/contract';
import { type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useColumns } from '../../components/use-columns';
import { ACTIONS_COLUMN_ID, DataTable } from '../../components/DataTable';
import { formatDateTime } from '../../lib/format';
import type { TableState } from '../../lib/list-state';
import { actionLabel, actorParts, targetText } from './audit-labels';
import { AUDIT_PAGE_SIZE } from './audit-list-state';
import { OutcomeBadge } from './OutcomeBadge';
import { Tooltip } from '../../components/Tooltip';

/** The table's page and sort: the audit log has neither (it pages by cursor, newest first). */
const NO_TABLE_PAGING: TableState = {
  pageIndex: 0,
  pageSize: AUDIT_PAGE_SIZE,
  setPage: () => {},
  sortFields: [],
  sort: undefined,
  order: 'desc',
  setSort: () => {},
};

/** The email on its own line, breaking after its "@" if it must; the role under it. */
function ActorCell({ event }: { event: AuditEvent }) {
  const { t } = useTranslation();
  const { who, role } = actorParts(t, event.actor);
  const at = who.indexOf('@');
  return (
    <Stack gap={0}>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {at > 0 ? (
          <>
            {who.slice(0, at + 1)}
            <wbr />
            {who.slice(at + 1)}
          </>
        ) : (
          who
        )}
      </Text>
      {role ? (
        <Text size="xs" c="dimmed">
          {role}
        </Text>
      ) : null}
    </Stack>
  );
}

function ActionCell({ event }: { event: AuditEvent }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      <Text size="sm" fw={500}>
        {actionLabel(t, event.action)}
      </Text>
      <Code w="fit-content">{event.action}</Code>
    </Stack>
  );
}

function TargetCell({ event }: { event: AuditEvent }) {
  const { t, i18n } = useTranslation();
  const target = targetText(t, event.target, i18n.language);
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {target.type}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {target.label}
      </Text>
    </Stack>
  );
}

function DetailButton({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <Tooltip label={t('audit:detail.open')}>
      <ActionIcon
        variant="subtle"
        onClick={(event) => {
          event.stopPropagation();
          onOpen();
        }}
        aria-label={t('audit:detail.open')}
      >
        <IconListDetails size={18} />
      </ActionIcon>
    </Tooltip>
  );
}

/**
 * A page of events, newest first: a table on a laptop, the shared list's cards below `cardsBelow`
 * (five columns of words do not fit a tablet without the table scrolling sideways): the action,
 * its outcome, then time, actor and target each under its column's name. A row or card opens the
 * event.
 */
export function AuditEventList({
  events,
  cardsBelow,
  loading,
  onOpen,
  pager,
  empty,
}: {
  events: AuditEvent[];
  cardsBelow: string;
  loading: boolean;
  onOpen: (event: AuditEvent) => void;
  pager: ReactNode;
  empty: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const columns = useColumns<AuditEvent>(
    t,
    () => [
      {
        accessorKey: 'at',
        header: t('audit:col.time'),
        meta: { card: 'fact' },
        cell: ({ row: { original: e } }) => (
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {formatDateTime(e.at, i18n.language)}
          </Text>
        ),
      },
      {
        id: 'actor',
        header: t('audit:col.actor'),
        meta: { card: 'fact' },
        cell: ({ row: { original: e } }) => <ActorCell event={e} />,
      },
      {
        accessorKey: 'action',
        header: t('audit:col.action'),
        meta: { card: 'title' },
        cell: ({ row: { original: e } }) => <ActionCell event={e} />,
      },
      {
        accessorKey: 'outcome',
        header: t('audit:col.outcome'),
        meta: { card: 'status' },
        cell: ({ row: { original: e } }) => <OutcomeBadge outcome={e.outcome} />,
      },
      {
        id: 'target',
        header: t('audit:col.target'),
        meta: { card: 'fact' },
        cell: ({ row: { original: e } }) => <TargetCell event={e} />,
      },
      {
        id: ACTIONS_COLUMN_ID,
        // Not "Actions": beside the Action column that would read as the same word twice.
        header: t('audit:col.details'),
        cell: ({ row: { original: e } }) => <DetailButton onOpen={() => onOpen(e)} />,
      },
    ],
    [onOpen],
  );

  return (
    <DataTable
      rows={events}
      total={events.length}
      loading={loading}
      state={NO_TABLE_PAGING}
      columns={columns}
      getRowId={(row) => row.id}
      onRowClick={onOpen}
      empty={empty}
      pager={pager}
      cardsBelow={cardsBelow}
      label={t('audit:title')}
    />
  );
}
