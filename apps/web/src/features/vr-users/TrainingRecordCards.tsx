import { Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { TrainingRecordLevel } from '@vrtc/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDuration, formatTime } from '../../lib/format';
import { LevelName, Result } from './TrainingRecordParts';

/** Date and time with a plain space: a narrow card wraps between them, never inside either. */
function dateTime(value: string | null, language: string) {
  return value
    ? `${formatDate(value, language)}, ${formatTime(value, language)}`
    : formatDate(value, language);
}

function CardFact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" component="dt">
        {label}
      </Text>
      <Text size="sm" component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/**
 * The record's levels on a phone: a card per level, every figure of the table's row labelled
 * under the level's name, so pass or fail is in sight without scrolling the table sideways.
 */
export function TrainingRecordCards({ levels }: { levels: TrainingRecordLevel[] }) {
  const { t, i18n } = useTranslation();
  return (
    <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
      {levels.map((level) => (
        <Paper
          component="li"
          withBorder
          p="sm"
          key={`${level.level_id}:${level.last.session_id}`}
          data-testid="record-card"
        >
          <LevelName level={level} />
          <SimpleGrid cols={2} spacing="xs" verticalSpacing="xs" component="dl" mt="xs" mb={0}>
            <CardFact label={t('vrUsers:record.col.attempts')}>{level.attempts}</CardFact>
            <CardFact label={t('vrUsers:record.col.completions')}>{level.completions}</CardFact>
            <CardFact label={t('vrUsers:record.col.best')}>
              <Result result={level.best} />
            </CardFact>
            <CardFact label={t('vrUsers:record.col.last')}>
              <Result result={level.last} />
              <Text size="xs" c="dimmed" component="span" display="block">
                {dateTime(level.last.started_at, i18n.language)}
              </Text>
            </CardFact>
            <CardFact label={t('vrUsers:record.col.firstCompleted')}>
              {dateTime(level.first_completed_at, i18n.language)}
            </CardFact>
            <CardFact label={t('vrUsers:record.col.lastCompleted')}>
              {dateTime(level.last_completed_at, i18n.language)}
            </CardFact>
            <CardFact label={t('vrUsers:record.col.time')}>
              {formatDuration(t, level.training_seconds)}
            </CardFact>
          </SimpleGrid>
        </Paper>
      ))}
    </Stack>
  );
}
