import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Table,
  TableScrollContainer,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconArrowLeft, IconDownload, IconPrinter } from '@tabler/icons-react';
import type { TrainingRecord } from '@vrtc/contract';
import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import {
  exportVrUserRecord,
  useVrUser,
  useVrUserRecord,
  useVrUserRecordSessions,
} from '../../api/vr-users';
import { PageHeader } from '../../components/PageHeader';
import { ApiError } from '../../lib/api-error';
import { QueryState } from '../../components/QueryState';
import { usePhoneLayout } from '../../components/phone-layout';
import { csvReaderQuery, useFileExport } from '../../lib/use-file-export';
import { formatDateTime, formatDuration } from '../../lib/format';
import classes from './TraineePage.module.css';
import { TrainingRecordCards } from './TrainingRecordCards';
import { TrainingRecordPaper } from './TrainingRecordPaper';
import { LevelName, Result } from './TrainingRecordParts';
import { VrUserSessionTimeline } from './VrUserSessionTimeline';

// The qualifications (and their dictionary) load with the record, not with the VR users list.
const TraineeQualifications = lazy(() =>
  import('./TraineeQualifications').then((module) => ({ default: module.TraineeQualifications })),
);

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" component="dt">
        {label}
      </Text>
      <Text fw={600} component="dd" m={0}>
        {children}
      </Text>
    </Stack>
  );
}

function RecordTable({ record }: { record: TrainingRecord }) {
  const { t, i18n } = useTranslation();
  const { totals } = record;
  const phone = usePhoneLayout();
  return (
    <Stack>
      <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="sm" component="dl" m={0}>
        <Fact label={t('vrUsers:record.totals.attempts')}>{totals.attempts}</Fact>
        <Fact label={t('vrUsers:record.totals.completions')}>{totals.completions}</Fact>
        <Fact label={t('vrUsers:record.totals.levelsAttempted')}>{totals.levels_attempted}</Fact>
        <Fact label={t('vrUsers:record.totals.levelsCompleted')}>{totals.levels_completed}</Fact>
        <Fact label={t('vrUsers:record.totals.time')}>
          {formatDuration(t, totals.training_seconds)}
        </Fact>
      </SimpleGrid>
      {record.levels.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg">
          {t('vrUsers:record.empty')}
        </Text>
      ) : phone ? (
        <TrainingRecordCards levels={record.levels} />
      ) : (
        // A phone scrolls the table sideways: the keyboard can too (the region takes focus).
        <TableScrollContainer
          minWidth={860}
          type="native"
          tabIndex={0}
          role="region"
          aria-label={t('vrUsers:record.title')}
        >
          <Table striped verticalSpacing="xs" data-testid="training-record">
            {/* The heading above says it on screen and on paper; the caption names it for readers. */}
            <Table.Caption m={0} p={0}>
              <VisuallyHidden>{t('vrUsers:record.title')}</VisuallyHidden>
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('vrUsers:record.col.content')}</Table.Th>
                <Table.Th>{t('vrUsers:record.col.attempts')}</Table.Th>
                <Table.Th>{t('vrUsers:record.col.completions')}</Table.Th>
                <Table.Th>{t('vrUsers:record.col.best')}</Table.Th>
                <Table.Th>{t('vrUsers:record.col.last')}</Table.Th>
                <Table.Th>{t('vrUsers:record.col.firstCompleted')}</Table.Th>
                <Table.Th>{t('vrUsers:record.col.lastCompleted')}</Table.Th>
                <Table.Th>{t('vrUsers:record.col.time')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {record.levels.map((level) => (
                <Table.Tr key={`${level.level_id}:${level.last.session_id}`}>
                  <Table.Td>
                    <LevelName level={level} />
                  </Table.Td>
                  <Table.Td>{level.attempts}</Table.Td>
                  <Table.Td>{level.completions}</Table.Td>
                  <Table.Td>
                    <Result result={level.best} />
                  </Table.Td>
                  <Table.Td>
                    <Result result={level.last} />
                    <Text size="xs" c="dimmed">
                      {formatDateTime(level.last.started_at, i18n.language)}
                    </Text>
                  </Table.Td>
                  <Table.Td>{formatDateTime(level.first_completed_at, i18n.language)}</Table.Td>
                  <Table.Td>{formatDateTime(level.last_completed_at, i18n.language)}</Table.Td>
                  <Table.Td>{formatDuration(t, level.training_seconds)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScrollContainer>
      )}
    </Stack>
  );
}

/**
 * A trainee's page (/vr-users/:id): the training record an inspector asks for, its CSV (the
 * server's file) and a print view (an A4 page with signature lines), above the trainee's sessions.
 */
export function TraineePage() {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  const vrUser = useVrUser(id);
  const record = useVrUserRecord(id);
  const recordSessions = useVrUserRecordSessions(id);
  const name = record.data?.vr_user.name ?? vrUser.data?.name ?? '';

  const csv = useFileExport({
    download: () => exportVrUserRecord(id, csvReaderQuery()),
    doneText: () => t('vrUsers:record.exported'),
    failedText: () => t('vrUsers:record.exportFailed'),
  });

  // A trainee that does not exist (deleted, or a wrong link): said once, with nothing to export,
  // print or retry.
  if ([vrUser.error, record.error].some((e) => e instanceof ApiError && e.status === 404)) {
    return <MissingTrainee />;
  }

  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/vr-users" size="sm" className={classes.noPrint}>
        <Group gap={4} component="span">
          <IconArrowLeft size={14} aria-hidden />
          {t('vrUsers:record.back')}
        </Group>
      </Anchor>
      <div className={classes.noPrint}>
        <PageHeader
          title={name}
          subtitle={[
            t('vrUsers:record.title'),
            vrUser.data?.external_id && `${t('vrUsers:externalId')}: ${vrUser.data.external_id}`,
          ]
            .filter(Boolean)
            .join(' · ')}
          actions={
            <>
              <Button
                variant="default"
                leftSection={<IconDownload size={16} />}
                loading={csv.exporting}
                disabled={!record.data}
                onClick={() => void csv.start()}
              >
                {t('vrUsers:record.export')}
              </Button>
              <Button
                variant="default"
                leftSection={<IconPrinter size={16} />}
                // The paper lists every session: printing waits for them.
                disabled={!record.data || !recordSessions.data}
                onClick={() => window.print()}
              >
                {t('vrUsers:record.print')}
              </Button>
            </>
          }
        />
      </div>
      <Card withBorder padding="md" className={classes.noPrint}>
        <QueryState
          isPending={record.isPending}
          error={record.error}
          onRetry={() => record.refetch()}
        >
          {record.data ? <RecordTable record={record.data} /> : null}
        </QueryState>
      </Card>
      {record.data ? (
        <div className={classes.noPrint}>
          <Suspense fallback={null}>
            <TraineeQualifications
              vrUserId={id}
              vrUserName={name}
              qualifications={record.data.qualifications}
            />
          </Suspense>
        </div>
      ) : null}
      {record.data && recordSessions.data ? (
        <TrainingRecordPaper record={record.data} sessions={recordSessions.data} />
      ) : null}
      <Card withBorder padding="md" className={classes.noPrint}>
        <Title order={3} size="h4" mb="sm">
          {t('vrUsers:record.sessions')}
        </Title>
        <VrUserSessionTimeline vrUserId={id} />
      </Card>
    </Stack>
  );
}

function MissingTrainee() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/vr-users" size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} aria-hidden />
          {t('vrUsers:record.back')}
        </Group>
      </Anchor>
      <Alert color="yellow" role="alert" data-testid="trainee-missing">
        {t('vrUsers:record.missing')}
      </Alert>
    </Stack>
  );
}
