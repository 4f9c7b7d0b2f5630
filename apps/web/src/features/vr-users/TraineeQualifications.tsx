import {
  Accordion,
  Badge,
  Button,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconCertificate, IconSignature, IconShieldOff } from '@tabler/icons-react';
import type { RecordQualification } from '@vrtc/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCanChange } from '../../auth/can-change';
import { Fact } from '../../components/Fact';
import { OverdueMark, QualificationBadge } from '../../components/QualificationBadge';
import { lazyDialog } from '../../components/lazy-dialog';
import { useContentText } from '../../lib/content-text';
import { formatDate, formatDateTime } from '../../lib/format';
import { CertificateLink, QualificationHistory } from './QualificationHistory';
import type { RevokeQualificationModalProps } from './RevokeQualificationModal';
import type { SignEvaluationModalProps } from './SignEvaluationModal';

const SignEvaluationModal = lazyDialog<SignEvaluationModalProps>(
  () => import('./SignEvaluationModal').then((module) => module.SignEvaluationModal),
  (props) => props.opened,
  (props) => ({ ...props, opened: false }),
);
const RevokeQualificationModal = lazyDialog<RevokeQualificationModalProps>(
  () => import('./RevokeQualificationModal').then((module) => module.RevokeQualificationModal),
  (props) => Boolean(props.target),
  (props) => ({ ...props, target: undefined }),
);

/** Statuses with something to take away: a revocation of nothing held would only add noise. */
const REVOCABLE = new Set(['qualified', 'expiring', 'expired', 'pending_evaluation']);

/** A row is overdue when its due date has passed and it is neither qualified nor expiring. */
export function isOverdue(q: RecordQualification, now: Date): boolean {
  return (
    q.assigned &&
    q.due_at !== null &&
    new Date(q.due_at) < now &&
    q.status !== 'qualified' &&
    q.status !== 'expiring'
  );
}

interface Actions {
  canChange: boolean;
  onSign: (q: RecordQualification) => void;
  onRevoke: (q: RecordQualification) => void;
}

function QualificationItem({ q, actions }: { q: RecordQualification; actions: Actions }) {
  const { t, i18n } = useTranslation('qualifications');
  const text = useContentText();
  const name = text.name(q);
  return (
    <Card withBorder radius="md" p="sm" component="li" data-testid="trainee-qualification">
      <Group justify="space-between" align="flex-start" gap="xs">
        <Group gap="xs">
          <Title order={4} size="h5">
            {name}
          </Title>
          <QualificationBadge status={q.status} />
          {isOverdue(q, new Date()) ? <OverdueMark /> : null}
          {q.archived ? (
            <Badge variant="outline" color="gray">
              {t('record.archived')}
            </Badge>
          ) : null}
        </Group>
        {actions.canChange && !q.archived ? (
          <Group gap="xs">
            <Button
              size="xs"
              variant="light"
              leftSection={<IconSignature size={14} />}
              onClick={() => actions.onSign(q)}
              aria-label={t('record.signFor', { name })}
            >
              {t('record.sign')}
            </Button>
            {REVOCABLE.has(q.status) ? (
              <Button
                size="xs"
                variant="subtle"
                color="red"
                leftSection={<IconShieldOff size={14} />}
                onClick={() => actions.onRevoke(q)}
                aria-label={t('record.revokeFor', { name })}
              >
                {t('record.revoke')}
              </Button>
            ) : null}
          </Group>
        ) : null}
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" component="dl" m={0} mt="xs">
        <Fact label={t('record.earnedAt')}>{formatDateTime(q.earned_at, i18n.language)}</Fact>
        <Fact label={t('record.validUntil')}>
          {q.earned_at && !q.valid_until
            ? t('record.noExpiry')
            : formatDate(q.valid_until, i18n.language)}
        </Fact>
        <Fact label={t('record.dueAt')}>{formatDate(q.due_at, i18n.language)}</Fact>
        <Fact label={t('record.certificate')}>
          {q.certificate_code ? (
            <CertificateLink code={q.certificate_code} label={t('record.printCertificate')} />
          ) : (
            '—'
          )}
        </Fact>
      </SimpleGrid>
      <Accordion variant="default" mt="xs" chevronPosition="left">
        <Accordion.Item value="history">
          <Accordion.Control>{t('record.history', { count: q.history.length })}</Accordion.Control>
          <Accordion.Panel>
            <QualificationHistory history={q.history} />
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
    </Card>
  );
}

/**
 * The trainee's qualifications on their page: each with its status now, since and until when, its
 * certificate and its history (awards, signed evaluations, revocations). Staff sign an evaluation
 * or revoke from here; an auditor reads the same without those buttons.
 */
export function TraineeQualifications({
  vrUserId,
  vrUserName,
  qualifications,
}: {
  vrUserId: string;
  vrUserName: string;
  qualifications: RecordQualification[];
}) {
  const { t } = useTranslation('qualifications');
  const text = useContentText();
  const canChange = useCanChange();
  const [signing, setSigning] = useState<{ qualificationId?: string }>();
  const [revoking, setRevoking] = useState<{ qualificationId: string; name: string }>();
  const current = qualifications.filter((q) => !q.archived);
  return (
    <Card withBorder padding="md" data-testid="trainee-qualifications">
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h4">
          {t('record.title')}
        </Title>
        {canChange && current.length > 0 ? (
          <Button
            variant="default"
            leftSection={<IconSignature size={16} />}
            onClick={() => setSigning({})}
          >
            {t('record.signEvaluation')}
          </Button>
        ) : null}
      </Group>
      {qualifications.length === 0 ? (
        <Group gap="xs" c="dimmed">
          <IconCertificate size={18} aria-hidden />
          <Text size="sm">{t('record.none')}</Text>
        </Group>
      ) : (
        <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
          {qualifications.map((q) => (
            <QualificationItem
              key={q.qualification_id}
              q={q}
              actions={{
                canChange,
                onSign: (item) => setSigning({ qualificationId: item.qualification_id }),
                onRevoke: (item) =>
                  setRevoking({ qualificationId: item.qualification_id, name: text.name(item) }),
              }}
            />
          ))}
        </Stack>
      )}
      <SignEvaluationModal
        opened={Boolean(signing)}
        vrUserId={vrUserId}
        vrUserName={vrUserName}
        qualifications={current}
        qualificationId={signing?.qualificationId}
        onClose={() => setSigning(undefined)}
      />
      <RevokeQualificationModal
        target={revoking}
        vrUserId={vrUserId}
        vrUserName={vrUserName}
        onClose={() => setRevoking(undefined)}
      />
    </Card>
  );
}
