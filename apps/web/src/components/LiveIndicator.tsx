import { Badge, Box, Text, VisuallyHidden } from '@mantine/core';
import { IconBroadcast, IconPlugConnectedX, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useServerConnection } from '../api/connection';
import { useLiveMode } from '../api/live-events';
import { formatDuration } from '../lib/format';
import { useNow } from '../lib/useNow';
import { Tooltip } from './Tooltip';

const LOOK = {
  live: {
    icon: IconBroadcast,
    color: 'green',
    label: 'common:live.live',
    hint: 'common:live.liveHint',
  },
  polling: {
    icon: IconRefresh,
    color: 'gray',
    label: 'common:live.polling',
    hint: 'common:live.pollingHint',
  },
  // Polling every 5 s is no comfort when no poll is answered: the badge says so.
  offline: {
    icon: IconPlugConnectedX,
    color: 'red',
    label: 'common:live.offline',
    hint: 'common:live.offlineHint',
  },
} as const;

/**
 * Which way the screens keep current: the live stream, or polling every 5 s while it is down.
 * Said in words and with its own icon (not by colour alone), in a status region so that a screen
 * reader hears the change; on a phone the words are read out but only the icon shows.
 */
export function LiveIndicator() {
  const { t } = useTranslation();
  const liveMode = useLiveMode();
  const mode = useServerConnection().reachable ? liveMode : 'offline';
  const look = LOOK[mode];
  const label = t(look.label);
  const Icon = look.icon;
  return (
    <Tooltip label={t(look.hint)} multiline w={260}>
      <Badge
        role="status"
        data-testid="live-indicator"
        data-mode={mode}
        variant="light"
        color={look.color}
        size="lg"
        radius="sm"
        tt="none"
        leftSection={<Icon size={14} aria-hidden />}
        style={{ flexShrink: 0 }}
      >
        <Text span inherit visibleFrom="sm">
          {label}
        </Text>
        <Box component="span" hiddenFrom="sm">
          <VisuallyHidden>{label}</VisuallyHidden>
        </Box>
      </Badge>
    </Tooltip>
  );
}

/**
 * The note under a live list: how it keeps current right now, or, while the server cannot be
 * reached, that what the list shows is that old.
 */
export function LiveRefreshNote() {
  const { t } = useTranslation();
  const mode = useLiveMode();
  const connection = useServerConnection();
  if (!connection.reachable) return <StaleNote lastReachedAt={connection.lastReachedAt} />;
  return (
    <Text size="xs" c="dimmed" data-testid="live-refresh-note">
      {mode === 'live' ? t('common:live.liveNote') : t('common:autoRefreshNote')}
    </Text>
  );
}

function StaleNote({ lastReachedAt }: { lastReachedAt: number | undefined }) {
  const { t } = useTranslation();
  const now = useNow(1000).getTime();
  return (
    <Text size="xs" c="red.8" fw={500} data-testid="live-refresh-note" data-stale="true">
      {lastReachedAt === undefined
        ? t('common:live.staleNote')
        : t('common:live.staleNoteFor', {
            duration: formatDuration(t, (now - lastReachedAt) / 1000),
          })}
    </Text>
  );
}
