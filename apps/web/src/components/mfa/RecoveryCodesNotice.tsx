import { Alert, Button, Code, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** New recovery codes, shown this once, until the person says they are saved. */
export function RecoveryCodesNotice({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation('mfa');
  return (
    <Alert color="yellow" title={t('recovery.title')} data-testid="recovery-codes">
      <Stack gap="xs">
        <Text size="sm">{t('recovery.intro')}</Text>
        <SimpleGrid cols={2} spacing={4}>
          {codes.map((code) => (
            <Code key={code}>{code}</Code>
          ))}
        </SimpleGrid>
        <Button size="xs" variant="light" onClick={onDone}>
          {t('recovery.done')}
        </Button>
      </Stack>
    </Alert>
  );
}
