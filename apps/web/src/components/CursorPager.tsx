import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CursorPages } from '../lib/list-state';

/**
 * Newest / Newer / Older under a log paged by cursor (the audit log, an integration's deliveries):
 * such a list only grows, so it has no page count. Older follows the page's `nextCursor`.
 */
export function CursorPager({
  pages,
  nextCursor,
  label,
}: {
  pages: Pick<CursorPages, 'atNewest' | 'hasNewer' | 'showNewest' | 'showNewer' | 'showOlder'>;
  nextCursor: string | null | undefined;
  /** The pager's name for a screen reader: which log's pages these are. */
  label: string;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" gap="xs" mt="md" component="nav" aria-label={label}>
      <Button variant="default" size="xs" onClick={pages.showNewest} disabled={pages.atNewest}>
        {t('common:pager.newest')}
      </Button>
      <Button variant="default" size="xs" onClick={pages.showNewer} disabled={!pages.hasNewer}>
        {t('common:pager.newer')}
      </Button>
      <Button
        variant="default"
        size="xs"
        onClick={() => nextCursor && pages.showOlder(nextCursor)}
        disabled={!nextCursor}
      >
        {t('common:pager.older')}
      </Button>
    </Group>
  );
}
