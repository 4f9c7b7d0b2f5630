import { Alert, Button, Code, CopyButton, Group, Modal, Stack } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * A webhook's signing secret, shown the one time the server answers it (on create and on rotate):
 * with a copy button and the warning that it will not be shown again.
 */
export function SecretModal({
  secret,
  rotated,
  onClose,
}: {
  secret: string | undefined;
  /** A rotation's new secret: the old one still signs for a while. */
  rotated: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('integrations');
  return (
    <Modal
      opened={secret !== undefined}
      onClose={onClose}
      closeOnClickOutside={false}
      title={rotated ? t('secret.newTitle') : t('secret.title')}
    >
      <Stack>
        <Alert color="yellow" icon={<IconAlertTriangle />}>
          {t('secret.warning')}
          {rotated ? ` ${t('secret.rotatedNote')}` : null}
        </Alert>
        <Code
          block
          data-testid="integration-secret"
          style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}
        >
          {secret}
        </Code>
        <Group justify="space-between" wrap="wrap">
          <CopyButton value={secret ?? ''}>
            {({ copied, copy }) => (
              <Button
                variant="light"
                color={copied ? 'green' : undefined}
                leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                onClick={copy}
              >
                {copied ? t('secret.copied') : t('secret.copy')}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose} data-autofocus>
            {t('secret.done')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
