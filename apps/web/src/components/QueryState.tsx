import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText as wordError } from '../lib/error-text';

/** Loading and failed-load states of a screen's main query; children render once data is there. */
export function QueryState({
  isPending,
  error,
  onRetry,
  errorText,
  children,
}: {
  isPending: boolean;
  error: unknown;
  onRetry?: () => void;
  /** The screen's own load-error text, e.g. 'Failed to load organizations'. */
  errorText?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  if (isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={t('common:loading')} />
      </Center>
    );
  }
  if (error) {
    return (
      <Alert color="red" icon={<IconAlertTriangle />} role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{wordError(error, errorText ?? t('common:loadError'))}</Text>
          {onRetry ? (
            <Button size="xs" variant="light" color="red" onClick={onRetry}>
              {t('common:retry')}
            </Button>
          ) : null}
        </Stack>
      </Alert>
    );
  }
  return <>{children}</>;
}
