import { Button, Card, Code, Group, Loader, Modal, ScrollArea, Text, Title } from '@mantine/core';
import { IconBook } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Where the SDK lives in the repository (and in a release archive). */
export const SDK_PATH = 'sdk/unity';

/**
 * The Unity SDK's guide (sdk/unity/README.md), bundled into the console as text and loaded when
 * asked for: it reads the same offline, behind a firewall, as the rest of the product.
 */
const loadGuide = () => import('../../../../../sdk/unity/README.md?raw').then((m) => m.default);

/** For the developers of training apps: what the SDK is, where it is, and its guide. */
export function SdkGuide() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [guide, setGuide] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  const show = () => {
    setOpen(true);
    if (guide === null)
      loadGuide().then(setGuide, () => {
        setFailed(true);
      });
  };

  return (
    <Card withBorder radius="lg" p="lg">
      <Title order={4} mb={4}>
        {t('download:sdk.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t('download:sdk.text')} <Code>{SDK_PATH}</Code>
      </Text>
      <Group>
        <Button variant="light" leftSection={<IconBook size={16} />} onClick={show}>
          {t('download:sdk.open')}
        </Button>
      </Group>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={t('download:sdk.guideTitle')}
        size="xl"
        scrollAreaComponent={ScrollArea.Autosize}
      >
        {guide !== null ? (
          <Code block style={{ whiteSpace: 'pre-wrap' }} aria-label={t('download:sdk.guideTitle')}>
            {guide}
          </Code>
        ) : failed ? (
          <Text size="sm">{t('download:sdk.failed')}</Text>
        ) : (
          <Loader size="sm" />
        )}
      </Modal>
    </Card>
  );
}
