import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A dialog form's last row: Cancel, then the submit button (its words, its wait). */
export function FormFooter({
  submitLabel,
  pending,
  onCancel,
}: {
  submitLabel: string;
  pending: boolean;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        {t('common:cancel')}
      </Button>
      <Button type="submit" loading={pending}>
        {submitLabel}
      </Button>
    </Group>
  );
}
