import { Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * Previous / "Page 2 of 5" / Next under a list the server pages, with the number of rows on every
 * page (`total`) on the left unless `count` is false.
 */
export function Pager({
  total,
  pageIndex,
  pageSize,
  onPageChange,
  count = true,
}: {
  total: number;
  pageIndex: number;
  pageSize: number;
  onPageChange: (pageIndex: number) => void;
  count?: boolean;
}) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <Group justify={count ? 'space-between' : 'flex-end'} mt="md" data-testid="pager">
      {count ? (
        <Text size="sm" c="dimmed">
          {t('common:rowsTotal', { count: total })}
        </Text>
      ) : null}
      <Group gap="xs">
        <Button
          variant="default"
          size="xs"
          onClick={() => onPageChange(pageIndex - 1)}
          disabled={pageIndex === 0}
        >
          {t('common:previous')}
        </Button>
        {/* "Страница 1 из 1" stays one phrase: in a card too narrow, the buttons wrap around it. */}
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {t('common:page', { page: pageIndex + 1, pages })}
        </Text>
        <Button
          variant="default"
          size="xs"
          onClick={() => onPageChange(pageIndex + 1)}
          disabled={pageIndex >= pages - 1}
        >
          {t('common:next')}
        </Button>
      </Group>
    </Group>
  );
}
