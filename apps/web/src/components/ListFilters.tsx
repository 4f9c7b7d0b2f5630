import { Button, Drawer, Group, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAdjustmentsHorizontal } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usePhoneLayout } from './phone-layout';

/**
 * A list's filters, for every list: where they stand on a laptop, and on a phone behind a
 * "Filters" button that opens them in a sheet from the bottom (a dialog: the keyboard stays in
 * it, Escape closes it, focus returns to the button). The button counts the filters chosen.
 * The filters write the URL as they change: closing the sheet keeps them.
 */
export function ListFilters({
  children,
  active,
  query,
}: {
  children: ReactNode;
  /** How many filters narrow the list now. */
  active: number;
  /** The width below which the filters move to the sheet (the phone's by default). */
  query?: string;
}) {
  const { t } = useTranslation();
  const phone = usePhoneLayout(query);
  const [opened, { open, close }] = useDisclosure(false);
  if (!phone) return <>{children}</>;
  return (
    <>
      <Group mb="sm">
        <Button
          variant="default"
          leftSection={<IconAdjustmentsHorizontal size={16} />}
          aria-haspopup="dialog"
          aria-expanded={opened}
          onClick={open}
          data-testid="list-filters-open"
        >
          {/* The count in the words themselves: what is read is what is seen. */}
          {active > 0
            ? t('common:listFilters.openCount', { count: active })
            : t('common:listFilters.open')}
        </Button>
      </Group>
      <Drawer
        opened={opened}
        onClose={close}
        position="bottom"
        size="auto"
        title={t('common:listFilters.title')}
        closeButtonProps={{ 'aria-label': t('common:close') }}
        radius="md"
        data-testid="list-filters-sheet"
      >
        <Stack gap="sm" pb="md">
          {children}
          <Button onClick={close} fullWidth>
            {t('common:listFilters.done')}
          </Button>
        </Stack>
      </Drawer>
    </>
  );
}
