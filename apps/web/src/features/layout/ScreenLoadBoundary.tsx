import { Button, Stack, Text } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { onServerBack } from '../../api/connection';
import { retryFailedScreens } from '../../lib/screen-retry';
import { DangerNotice } from './DangerNotice';

/** A failed screen is tried again this often, and at once when the server answers again. */
export const SCREEN_RETRY_MS = 5000;

function ScreenFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <DangerNotice
      testId="screen-failed"
      icon={<IconPlugConnectedX size={20} aria-hidden />}
      title={t('layout:offline.screenFailed')}
    >
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{t('layout:offline.screenFailedText')}</Text>
        <Button size="xs" variant="light" onClick={onRetry}>
          {t('layout:offline.retryNow')}
        </Button>
      </Stack>
    </DangerNotice>
  );
}

interface State {
  failed: boolean;
}

/**
 * Around the screen: a screen whose code could not be fetched (the server gone) leaves the layout,
 * its menu and the banner in place, says what happened and opens by itself once it can. The
 * screens' loaders start a new download on each try (app/routes.tsx).
 */
export class ScreenLoadBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  private timer: ReturnType<typeof setInterval> | undefined;

  private stopListening: (() => void) | undefined;

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error('A screen could not be shown', error);
    this.stopWaiting();
    this.timer = setInterval(this.retry, SCREEN_RETRY_MS);
    this.stopListening = onServerBack(this.retry);
  }

  override componentWillUnmount() {
    this.stopWaiting();
  }

  private stopWaiting() {
    clearInterval(this.timer);
    this.stopListening?.();
    this.timer = undefined;
    this.stopListening = undefined;
  }

  retry = () => {
    this.stopWaiting();
    retryFailedScreens();
    this.setState({ failed: false });
  };

  override render() {
    return this.state.failed ? <ScreenFailed onRetry={this.retry} /> : this.props.children;
  }
}
