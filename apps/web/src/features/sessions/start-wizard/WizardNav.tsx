import { Button, Group } from '@mantine/core';
import { IconArrowLeft, IconArrowRight, IconPlayerPlay } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Back, and Next (or Start at the last step). */
export function WizardNav({
  first,
  last,
  starting,
  onBack,
  onNext,
  onStart,
}: {
  first: boolean;
  last: boolean;
  starting: boolean;
  onBack: () => void;
  onNext: () => void;
  onStart: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" mt="xl">
      <Button
        variant="default"
        leftSection={<IconArrowLeft size={16} />}
        onClick={onBack}
        disabled={first || starting}
      >
        {t('common:back')}
      </Button>
      {last ? (
        <Button leftSection={<IconPlayerPlay size={16} />} onClick={onStart} loading={starting}>
          {t('sessions:wizard.start')}
        </Button>
      ) : (
        <Button rightSection={<IconArrowRight size={16} />} onClick={onNext}>
          {t('common:next')}
        </Button>
      )}
    </Group>
  );
}
