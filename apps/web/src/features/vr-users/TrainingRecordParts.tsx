import { Badge, Group, Stack, Text } from '@mantine/core';
import type { TrainingRecordLevel, TrainingResult } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { useContentText } from '../../lib/content-text';

/** A result as "2/3" with whether it passed. */
export function Result({ result }: { result: TrainingResult }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="wrap" miw={90}>
      <Text size="sm">
        {result.completed_tasks}/{result.max_tasks}
      </Text>
      <Badge size="sm" variant="light" color={result.success ? 'green' : 'gray'}>
        {result.success ? t('vrUsers:record.passed') : t('vrUsers:record.notPassed')}
      </Badge>
    </Group>
  );
}

export function LevelName({ level }: { level: TrainingRecordLevel }) {
  const { t } = useTranslation();
  const content = useContentText();
  const [only] = level.revisions;
  return (
    <Stack gap={0}>
      <Text size="sm" fw={500}>
        {content.text(level.scenario_name, level.scenario_name_en)}
      </Text>
      <Text size="xs">
        {content.text(level.module_name, level.module_name_en)} —{' '}
        {content.text(level.level_name, level.level_name_en)}
      </Text>
      <Text size="xs" c="dimmed">
        {level.revisions.length === 1
          ? t('common:levelRevision', { number: level.level_number, revision: only })
          : t('vrUsers:record.levelRevisions', {
              number: level.level_number,
              revisions: level.revisions.join(', '),
            })}
      </Text>
    </Stack>
  );
}

/**
 * An address that may wrap after its "@" (a <wbr>: nothing is added to what is copied), as the
 * History shows it.
 */
export function EmailWithBreak({ email }: { email: string }) {
  const at = email.indexOf('@');
  if (at < 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </>
  );
}
