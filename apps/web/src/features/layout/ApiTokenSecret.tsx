import { Alert, Button, Code, CopyButton, Group, Stack } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** A new API token's secret, shown this once: a copy button and the warning that it goes. */
export function ApiTokenSecret({ secret, onDone }: { secret: string; onDone: () => void }) {
  const { t } = useTranslation('apiTokens');
  return (
    <Stack gap="sm">
      <Alert color="yellow" icon={<IconAlertTriangle />} title={t('createdTitle')}>
        {t('shownOnce')}
      </Alert>
      <Code
        block
        data-testid="api-token-secret"
        style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}
      >
        {secret}
      </Code>
      <Group justify="space-between" wrap="wrap">
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button
              variant="light"
              color={copied ? 'green' : undefined}
              leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              onClick={copy}
            >
              {copied ? t('copied') : t('copy')}
            </Button>
          )}
        </CopyButton>
        <Button onClick={onDone}>{t('done')}</Button>
      </Group>
    </Stack>
  );
}
