import type { AuditEventExportQuery, AuditEventListQuery } from '@vrtc/contract';
import { useCallback, useMemo } from 'react';
import { isIsoDay, isUuid, useCursorPages, useListState } from '../../lib/list-state';
import { isActionFilter } from './audit-labels';

/** Events a page: a log is read in longer runs than the console's tables of 10. */
export const AUDIT_PAGE_SIZE = 25;

/** The contract's bounds of a target id and of a cursor. */
const TARGET_ID_MAX = 200;
const CURSOR_MAX = 200;

/**
 * The audit log's filters as URL parameters (the list query's own names), and the page shown:
 * `cursor`, the next_cursor of the page before it. A reload or a shared link shows the same
 * filters and the same page.
 */
const AUDIT_FILTERS = {
  organization_id: isUuid,
  actor_id: isUuid,
  action: isActionFilter,
  target_id: (value: string) => value.trim() !== '' && value.length <= TARGET_ID_MAX,
  from: isIsoDay,
  to: isIsoDay,
  cursor: (value: string) => value.length <= CURSOR_MAX,
};

export type AuditFilterName = Exclude<keyof typeof AUDIT_FILTERS, 'cursor'>;
export type AuditFilterChanges = Partial<Record<AuditFilterName, string | null>>;

export interface AuditListState {
  /** The filters in the URL (an admin's organisation included), as the list and export take them. */
  filters: AuditEventExportQuery;
  /** Sets or removes filters, back to the newest page. */
  setFilters(changes: AuditFilterChanges): void;
  clearFilters(): void;
  filtered: boolean;
  /** The list endpoint's query: the filters, the page's cursor and the page size. */
  query: AuditEventListQuery;
  /** True on the newest page (no cursor). */
  atNewest: boolean;
  /** A page newer than this one is known (paged to in this visit). */
  hasNewer: boolean;
  showNewest(): void;
  showNewer(): void;
  showOlder(nextCursor: string): void;
}

/**
 * The audit log's list state. It pages by cursor, newest first (a log that only grows would shift
 * under offsets): Older follows the page's next_cursor, Newer goes back to the cursor it came
 * from. A page opened from a link knows no newer cursor; Newest starts again from the top.
 * `admin` decides whether the organisation filter counts (staff read their own organisation's).
 */
export function useAuditListState({ admin }: { admin: boolean }): AuditListState {
  const list = useListState({
    pageSize: AUDIT_PAGE_SIZE,
    sortFields: [] as const,
    filters: AUDIT_FILTERS,
  });
  const { cursor, organization_id, ...shared } = list.filters;
  const { setFilters: writeFilters } = list;
  const writeCursor = useCallback(
    (next: string | null) => writeFilters({ cursor: next }),
    [writeFilters],
  );
  const { forgetNewer, ...pages } = useCursorPages(cursor, writeCursor);

  const filtersKey = JSON.stringify([shared, admin && organization_id]);
  const filters = useMemo<AuditEventExportQuery>(
    () => ({ ...shared, ...(admin && organization_id ? { organization_id } : {}) }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the filters change when their values do (filtersKey), not with every render's new object
    [filtersKey],
  );

  const setFilters = useCallback(
    (changes: AuditFilterChanges) => {
      forgetNewer();
      writeFilters({ ...changes, cursor: null });
    },
    [forgetNewer, writeFilters],
  );
  const clearFilters = useCallback(
    () =>
      setFilters({
        organization_id: null,
        actor_id: null,
        action: null,
        target_id: null,
        from: null,
        to: null,
      }),
    [setFilters],
  );
  const query = useMemo<AuditEventListQuery>(
    () => ({ ...filters, ...(cursor ? { cursor } : {}), limit: AUDIT_PAGE_SIZE }),
    [filters, cursor],
  );

  return {
    filters,
    setFilters,
    clearFilters,
    filtered: Object.keys(filters).length > 0,
    query,
    ...pages,
  };
}
