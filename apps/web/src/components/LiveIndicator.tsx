import { Badge, Box, Text, VisuallyHidden } from '@mantine/core';
import { IconBroadcast, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLiveMode } from '../api/live-events';
import { Tooltip } from './Tooltip';

/**
 * Which way the screens keep current: the live stream, or polling every 5 s while it is down.
 * Said in words and with its own icon (not by colour alone), in a status region so that a screen
 * reader hears the change; on a phone the words are read out but only the icon shows.
 */
export function LiveIndicator() {
  const { t } = useTranslation();
  const mode = useLiveMode();
  const live = mode === 'live';
  const label = live ? t('common:live.live') : t('common:live.polling');
  const Icon = live ? IconBroadcast : IconRefresh;
  return (
    <Tooltip
      label={live ? t('common:live.liveHint') : t('common:live.pollingHint')}
      multiline
      w={260}
    >
      <Badge
        role="status"
        data-testid="live-indicator"
        data-mode={mode}
        variant="light"
        color={live ? 'green' : 'gray'}
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

/** The note under a live list: how it keeps current right now. */
export function LiveRefreshNote() {
  const { t } = useTranslation();
  return (
    <Text size="xs" c="dimmed" data-testid="live-refresh-note">
      {useLiveMode() === 'live' ? t('common:live.liveNote') : t('common:autoRefreshNote')}
    </Text>
  );
}
