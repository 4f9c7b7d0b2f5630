import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { HOME_PATH } from '../../auth/next-path';

/**
 * What a signed-in person sees at an address the console has no page for, or at a page their
 * account may not open (an admin screen for staff). Said in place of a silent redirect, so a
 * mistyped or stale link does not look like the console took them somewhere else by itself.
 */
export interface NotFoundPageProps {
  reason?: 'not-found' | 'not-allowed';
}

export function NotFoundPage({ reason = 'not-found' }: NotFoundPageProps) {
  const { t } = useTranslation();
  const allowed = reason === 'not-found';
  return (
    <Stack align="flex-start" gap="sm" maw={560} py="xl" data-testid={`page-${reason}`}>
      <Title order={2}>
        {t(allowed ? 'common:notFound.title' : 'common:notFound.notAllowedTitle')}
      </Title>
      <Text c="dimmed">
        {t(allowed ? 'common:notFound.text' : 'common:notFound.notAllowedText')}
      </Text>
      <Button component={Link} to={HOME_PATH} mt="sm">
        {t('common:notFound.home')}
      </Button>
    </Stack>
  );
}
