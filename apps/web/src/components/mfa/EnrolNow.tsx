import { Box, Button, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/AuthProvider';
import { SecurityPanel } from './SecurityPanel';

/**
 * The only page of an account that must have a second factor and has none (its sign-in reaches
 * nothing else, 403 mfa_enrolment_required): it enrols one, then the console opens.
 */
export function EnrolNow() {
  const { t } = useTranslation('mfa');
  const { refresh, logout } = useAuth();
  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Box w="100%" maw={560}>
        <Paper withBorder shadow="sm" p="xl" radius="lg">
          <Stack>
            <Title order={2}>{t('title')}</Title>
            <Text>{t('enrolNow')}</Text>
            <SecurityPanel onEnrolled={() => void refresh()} />
            <Group justify="flex-end">
              <Button variant="subtle" onClick={() => void logout()}>
                {t('step.back')}
              </Button>
            </Group>
          </Stack>
        </Paper>
      </Box>
    </Center>
  );
}
