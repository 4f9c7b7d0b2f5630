import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { IconCertificate } from '@tabler/icons-react';
import type { QualificationHistoryEntry } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime } from '../../lib/format';

/** The certificate of an award, printable, in a tab of its own (it needs no console around it). */
export function CertificateLink({ code, label }: { code: string; label?: string }) {
  const { t } = useTranslation('qualifications');
  return (
    <Anchor
      href={`/certificates/${encodeURIComponent(code)}`}
      target="_blank"
      rel="noopener"
      size="sm"
      data-testid="certificate-link"
    >
      <Group gap={4} component="span" wrap="nowrap">
        <IconCertificate size={14} aria-hidden />
        {label ?? t('record.certificate')}
      </Group>
    </Anchor>
  );
}

/** One line of the history: an award, a signed evaluation (its signature as signed) or a revocation. */
function Entry({ entry }: { entry: QualificationHistoryEntry }) {
  const { t, i18n } = useTranslation('qualifications');
  const at = formatDateTime(entry.at, i18n.language);
  if (entry.kind === 'award') {
    return (
      <Stack gap={2}>
        <Text size="sm" fw={600}>
          {t('record.awarded', { at })}
        </Text>
        <Group gap="sm">
          <Text size="sm">
            {entry.valid_until
              ? t('validUntil', { date: formatDate(entry.valid_until, i18n.language) })
              : t('record.noExpiry')}
          </Text>
          {entry.certificate_code ? <CertificateLink code={entry.certificate_code} /> : null}
        </Group>
      </Stack>
    );
  }
  if (entry.kind === 'evaluation') {
    return (
      <Stack gap={2} data-testid="history-evaluation">
        <Group gap="xs">
          <Text size="sm" fw={600}>
            {t('record.evaluated')}
          </Text>
          <Badge variant="light" color={entry.result === 'pass' ? 'green' : 'red'}>
            {t(`result.${entry.result ?? 'fail'}`)}
          </Badge>
        </Group>
        <Text size="sm">
          {t('record.signature', {
            name: entry.signer_name ?? '',
            email: entry.signer_email ?? '',
            at,
          })}
        </Text>
        <Text size="sm">{t('record.meaning', { meaning: entry.meaning ?? '' })}</Text>
        {entry.notes ? (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
            {entry.notes}
          </Text>
        ) : null}
      </Stack>
    );
  }
  return (
    <Stack gap={2}>
      <Text size="sm" fw={600}>
        {t('record.revoked', { at, by: entry.by_email ?? t('record.unknownAccount') })}
      </Text>
      <Text size="sm">{t('record.reason', { reason: entry.reason ?? '' })}</Text>
    </Stack>
  );
}

/** A qualification's history on the trainee's record, newest first. */
export function QualificationHistory({ history }: { history: QualificationHistoryEntry[] }) {
  const { t } = useTranslation('qualifications');
  if (history.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('record.noHistory')}
      </Text>
    );
  }
  const newestFirst = [...history].sort((a, b) => b.at.localeCompare(a.at));
  return (
    <Stack component="ol" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
      {newestFirst.map((entry, index) => (
        <li key={`${entry.kind}:${entry.at}:${index}`}>
          <Entry entry={entry} />
        </li>
      ))}
    </Stack>
  );
}
