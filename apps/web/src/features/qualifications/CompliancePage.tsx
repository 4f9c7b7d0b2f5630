import { Button, Card, Text } from '@mantine/core';
import {
  IconCertificate,
  IconFileSpreadsheet,
  IconFilterOff,
  IconListCheck,
} from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { exportCompliance, useCompliance } from '../../api/qualifications';
import { Empty } from '../../components/Empty';
import { PageHeader } from '../../components/PageHeader';
import { Pager } from '../../components/Pager';
import { QueryState } from '../../components/QueryState';
import { formatDate } from '../../lib/format';
import { useKeepPageInRange } from '../../lib/list-state';
import { csvReaderQuery, useFileExport } from '../../lib/use-file-export';
import { ComplianceFilters } from './ComplianceFilters';
import { ComplianceMatrix } from './ComplianceMatrix';
import { ComplianceTotals } from './ComplianceTotals';
import { useComplianceState } from './compliance-state';
import { foldMatrix } from './matrix';

/**
 * Compliance (/compliance): is everyone who must be qualified qualified, and who will have lapsed
 * by a given day. Every assignment's status at "as of" (now by default), folded into a trainees ×
 * qualifications matrix, with the totals by status, the filters in the URL and the same rows as
 * CSV. Staff and the auditor read it; the qualifications themselves are one link away.
 */
export function CompliancePage() {
  const { t, i18n } = useTranslation('qualifications');
  const state = useComplianceState();
  const { list } = state;
  const compliance = useCompliance(state.query);
  const answer = compliance.data?.rows;
  const matrix = useMemo(() => foldMatrix(answer ?? []), [answer]);
  const rows = answer ?? [];
  useKeepPageInRange(list, rows.length, compliance.data?.total);

  const csv = useFileExport({
    isEmpty: () => Boolean(compliance.data) && compliance.data?.total === 0,
    download: () => exportCompliance({ ...state.filters, ...csvReaderQuery() }),
    doneText: () => t('common:exported'),
    failedText: () => t('exportFailed'),
  });

  const asOf = compliance.data?.as_of;
  return (
    <>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          <>
            <Button
              component={Link}
              to="/compliance/qualifications"
              variant="default"
              leftSection={<IconCertificate size={16} />}
            >
              {t('qualificationsLink')}
            </Button>
            <Button
              variant="light"
              leftSection={<IconFileSpreadsheet size={16} />}
              loading={csv.exporting}
              onClick={() => void csv.start()}
              data-testid="compliance-export"
            >
              {t('export')}
            </Button>
          </>
        }
      />
      <Card withBorder radius="lg" p="md">
        <ComplianceFilters state={state} />
        {asOf ? (
          <Text size="sm" c="dimmed" mb="xs" data-testid="compliance-as-of-text">
            {state.asOfDay ? t('asOfDay', { date: formatDate(asOf, i18n.language) }) : t('asOfNow')}
          </Text>
        ) : null}
        {compliance.data ? (
          <ComplianceTotals totals={compliance.data.totals} state={state} />
        ) : null}
        <QueryState
          isPending={compliance.isPending}
          error={compliance.data ? null : compliance.error}
          onRetry={() => compliance.refetch()}
        >
          {rows.length === 0 ? (
            list.filtered ? (
              <Empty
                title={t('noMatches')}
                action={
                  <Button
                    variant="light"
                    leftSection={<IconFilterOff size={16} />}
                    onClick={state.clearFilters}
                  >
                    {t('showAll')}
                  </Button>
                }
              />
            ) : (
              <Empty
                icon={<IconListCheck size={28} />}
                title={t('emptyTitle')}
                description={t('emptyText')}
              />
            )
          ) : (
            <>
              <ComplianceMatrix matrix={matrix} loading={compliance.isPlaceholderData} />
              <Pager
                total={compliance.data?.total ?? 0}
                pageIndex={list.pageIndex}
                pageSize={list.pageSize}
                onPageChange={list.setPage}
              />
            </>
          )}
        </QueryState>
      </Card>
    </>
  );
}
