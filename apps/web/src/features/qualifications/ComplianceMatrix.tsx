import { Anchor, Card, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { ComplianceRow } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { OverdueMark, QualificationBadge } from '../../components/QualificationBadge';
import { usePhoneLayout } from '../../components/phone-layout';
import { formatDate } from '../../lib/format';
import type { Matrix } from './matrix';

/** A cell's status, its overdue mark, and the date that matters to it (valid until, or due). */
function Standing({ row }: { row: ComplianceRow }) {
  const { t, i18n } = useTranslation('qualifications');
  const date =
    row.valid_until && row.status !== 'revoked'
      ? t('validUntil', { date: formatDate(row.valid_until, i18n.language) })
      : row.due_at
        ? t('dueOn', { date: formatDate(row.due_at, i18n.language) })
        : null;
  return (
    <Stack gap={4} align="flex-start">
      <Group gap={4} wrap="wrap">
        <QualificationBadge status={row.status} />
        {row.overdue ? <OverdueMark /> : null}
      </Group>
      {date ? (
        <Text size="xs" c="dimmed">
          {date}
        </Text>
      ) : null}
    </Stack>
  );
}

function TraineeLink({ id, name }: { id: string; name: string }) {
  const { t } = useTranslation('qualifications');
  return (
    <Anchor
      component={Link}
      to={`/vr-users/${id}`}
      fw={500}
      aria-label={t('openTrainee', { name })}
    >
      {name}
    </Anchor>
  );
}

/** On a phone: a card per trainee, each qualification a line with its standing. */
function MatrixCards({ matrix }: { matrix: Matrix }) {
  const { t } = useTranslation('qualifications');
  return (
    <Stack
      component="ul"
      gap="sm"
      p={0}
      m={0}
      style={{ listStyle: 'none' }}
      aria-label={t('matrix')}
    >
      {matrix.lines.map((line) => (
        <Card
          component="li"
          withBorder
          radius="md"
          p="sm"
          key={line.vrUserId}
          data-testid="compliance-card"
        >
          <TraineeLink id={line.vrUserId} name={line.vrUserName} />
          <Stack component="dl" gap="xs" m={0} mt="xs">
            {matrix.qualifications
              .filter((qualification) => line.cells[qualification.id])
              .map((qualification) => (
                <div key={qualification.id}>
                  <Text component="dt" size="sm" c="dimmed">
                    {qualification.name}
                  </Text>
                  <Text component="dd" m={0} mt={2}>
                    <Standing row={line.cells[qualification.id]!} />
                  </Text>
                </div>
              ))}
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

/**
 * The trainees × qualifications matrix: a line per trainee, a column per qualification, each cell
 * the trainee's standing (words and colour) or a dash where the qualification is not assigned.
 */
export function ComplianceMatrix({ matrix, loading }: { matrix: Matrix; loading: boolean }) {
  const { t } = useTranslation('qualifications');
  const phone = usePhoneLayout();
  if (phone) return <MatrixCards matrix={matrix} />;
  return (
    <div style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={t('matrix')}>
      <Table
        striped
        verticalSpacing="sm"
        horizontalSpacing="xs"
        fz="sm"
        aria-busy={loading || undefined}
        style={loading ? { opacity: 0.6 } : undefined}
        data-testid="compliance-matrix"
      >
        <Table.Caption m={0} p={0}>
          <VisuallyHidden>{t('matrix')}</VisuallyHidden>
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('col.trainee')}</Table.Th>
            {matrix.qualifications.map((qualification) => (
              <Table.Th scope="col" key={qualification.id} miw={140}>
                {qualification.name}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {matrix.lines.map((line) => (
            <Table.Tr key={line.vrUserId}>
              <Table.Th scope="row" fw={400}>
                <TraineeLink id={line.vrUserId} name={line.vrUserName} />
              </Table.Th>
              {matrix.qualifications.map((qualification) => {
                const row = line.cells[qualification.id];
                return (
                  <Table.Td key={qualification.id}>
                    {row ? (
                      <Standing row={row} />
                    ) : (
                      <Text size="sm" c="dimmed">
                        <span aria-hidden>—</span>
                        <VisuallyHidden>{t('notAssigned')}</VisuallyHidden>
                      </Text>
                    )}
                  </Table.Td>
                );
              })}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}
