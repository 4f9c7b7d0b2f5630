import { Alert, Button, Card, Group, Text } from '@mantine/core';
import {
  IconAlertTriangle,
  IconFileSpreadsheet,
  IconFilterOff,
  IconRefresh,
  IconShieldCheck,
  IconTimeline,
} from '@tabler/icons-react';
import type { AuditEvent } from '@vrtc/contract';
import { useCallback, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  auditExportPath,
  exportAuditEvents,
  useAuditEvents,
  useVerifyAudit,
} from '../../api/audit';
import { useAuth } from '../../auth/AuthProvider';
import { CursorPager } from '../../components/CursorPager';
import { Empty } from '../../components/Empty';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { errorText } from '../../lib/error-text';
import { useFileExport } from '../../lib/use-file-export';
import { AuditEventDetail } from './AuditEventDetail';
import { AuditEventList } from './AuditEventList';
import { AuditFilters } from './AuditFilters';
import { useAuditListState, type AuditFilterChanges } from './audit-list-state';

/** Below this width the events are cards: a table of five columns of words does not fit. */
const CARDS_BELOW = '(max-width: 61.99em)';

/** What the admin's "Verify chain" found: every chain holds, or the first event that does not. */
function VerifyResult({ verify }: { verify: ReturnType<typeof useVerifyAudit> }) {
  const { t } = useTranslation();
  const result = verify.data;
  if (verify.isError) {
    return (
      <Alert color="red" icon={<IconAlertTriangle />} role="alert" mb="md">
        {errorText(verify.error, t('audit:verify.failed'))}
      </Alert>
    );
  }
  if (!result || verify.isPending) return null;
  return (
    <Alert
      color={result.ok ? 'green' : 'red'}
      icon={result.ok ? <IconShieldCheck /> : <IconAlertTriangle />}
      role={result.ok ? 'status' : 'alert'}
      mb="md"
      data-testid="audit-verify-result"
    >
      {result.ok ? (
        t('audit:verify.ok', { events: result.events_checked, chains: result.chains_checked })
      ) : (
        <>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {t('audit:verify.broken', { id: result.first_bad_event_id ?? t('common:none') })}
          </Text>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {result.organization_id
              ? t('audit:verify.brokenChain', { organization: result.organization_id })
              : t('audit:verify.brokenPlatform')}
          </Text>
        </>
      )}
    </Alert>
  );
}

/**
 * The audit log: who changed what, when, from where and with what outcome. Staff read their
 * organisation's events, admins every organisation's (or one's, by the organisation filter) and
 * verify the chains. The filters and the page live in the URL; the CSV export takes the same
 * filters.
 */
export function AuditLogPage() {
  const { t } = useTranslation();
  const admin = useAuth().state.user?.role === 'admin';
  const list = useAuditListState({ admin });
  const events = useAuditEvents(list.query);
  const [open, setOpen] = useState<AuditEvent>();
  const rows = events.data?.audit_events ?? [];
  const exportPath = auditExportPath(list.filters);
  const onOpen = useCallback((event: AuditEvent) => setOpen(event), []);
  const verify = useVerifyAudit();

  const csv = useFileExport({
    isEmpty: () => Boolean(events.data) && rows.length === 0 && list.atNewest,
    download: () => exportAuditEvents(list.filters),
    doneText: () => t('common:exported'),
    failedText: () => t('audit:exportFailed'),
  });
  function exportCsv(click: MouseEvent) {
    // The link names the file's address with its filters; the download itself carries the
    // sign-in, which a plain navigation to the address need not.
    click.preventDefault();
    void csv.start();
  }

  const filterFromEvent = (changes: AuditFilterChanges) => {
    setOpen(undefined);
    list.setFilters(changes);
  };

  return (
    <>
      <PageHeader
        title={t('audit:title')}
        subtitle={admin ? t('audit:subtitleAdmin') : t('audit:subtitle')}
        actions={
          admin ? (
            <Button
              variant="default"
              leftSection={<IconShieldCheck size={16} />}
              loading={verify.isPending}
              onClick={() => verify.mutate()}
            >
              {t('audit:verify.button')}
            </Button>
          ) : undefined
        }
      />
      {admin ? <VerifyResult verify={verify} /> : null}
      <Card withBorder radius="lg" p="md">
        <AuditFilters list={list} admin={admin} />
        <Group justify="flex-end" mb="md" gap="sm">
          {list.filtered && rows.length > 0 ? (
            <Button
              variant="subtle"
              color="gray"
              leftSection={<IconFilterOff size={16} />}
              onClick={list.clearFilters}
            >
              {t('audit:filter.showAll')}
            </Button>
          ) : null}
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} />}
            loading={events.isFetching && !events.isPending}
            onClick={() => events.refetch()}
          >
            {t('common:refresh')}
          </Button>
          <Button
            component="a"
            href={exportPath}
            download
            variant="light"
            leftSection={<IconFileSpreadsheet size={16} />}
            onClick={exportCsv}
            loading={csv.exporting}
            data-testid="audit-export"
          >
            {t('audit:export')}
          </Button>
        </Group>
        <QueryState
          isPending={events.isPending}
          error={events.data ? null : events.error}
          onRetry={() => events.refetch()}
        >
          <AuditEventList
            events={rows}
            cardsBelow={CARDS_BELOW}
            loading={events.isPlaceholderData}
            onOpen={onOpen}
            pager={
              <CursorPager
                pages={list}
                nextCursor={events.data?.next_cursor}
                label={t('audit:pager.label')}
              />
            }
            empty={
              <Empty
                icon={<IconTimeline size={28} />}
                title={t('audit:emptyTitle')}
                description={list.filtered ? t('audit:emptyFilteredText') : t('audit:emptyText')}
                action={
                  list.filtered || !list.atNewest ? (
                    <Button
                      variant="light"
                      leftSection={<IconFilterOff size={16} />}
                      onClick={list.clearFilters}
                    >
                      {t('audit:filter.showAll')}
                    </Button>
                  ) : undefined
                }
              />
            }
          />
        </QueryState>
      </Card>
      <AuditEventDetail
        event={open}
        admin={admin}
        onClose={() => setOpen(undefined)}
        onFilter={filterFromEvent}
      />
    </>
  );
}
