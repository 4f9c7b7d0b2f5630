import {
  DELIVERY_STATUSES,
  INTEGRATION_EVENTS,
  type DeliveryListQuery,
  type DeliveryStatus,
  type IntegrationEvent,
} from '@vrtc/contract';
import { useCallback, useMemo } from 'react';
import { isUuid, oneOf, useCursorPages, useListState } from '../../lib/list-state';

/** Deliveries a page of the log. */
export const DELIVERY_PAGE_SIZE = 25;

/** The contract's bound of a cursor. */
const CURSOR_MAX = 200;

/**
 * The screen's state in the URL: the organisation an admin looks at (`organization_id`), the
 * integration whose delivery log is open (`log`), that log's filters (`event`, `status`) and its
 * page (`cursor`, the next_cursor of the page before). A reload or a shared link shows the same.
 */
const FILTERS = {
  organization_id: isUuid,
  log: isUuid,
  event: oneOf(INTEGRATION_EVENTS),
  status: oneOf(DELIVERY_STATUSES),
  cursor: (value: string) => value !== '' && value.length <= CURSOR_MAX,
};

export interface DeliveryFilters {
  event?: IntegrationEvent;
  status?: DeliveryStatus;
}

export interface IntegrationsState {
  /** The organisation shown: an admin's choice; staff (and an admin who chose none) their own. */
  organizationId: string | undefined;
  setOrganization(id: string | null): void;
  /** The integration whose delivery log is open. */
  logId: string | undefined;
  openLog(id: string): void;
  closeLog(): void;
  filters: DeliveryFilters;
  setDeliveryFilters(changes: { event?: string | null; status?: string | null }): void;
  /** The delivery log's query: its filters, its page's cursor and the page size. */
  query: DeliveryListQuery;
  atNewest: boolean;
  hasNewer: boolean;
  showNewest(): void;
  showNewer(): void;
  showOlder(nextCursor: string): void;
}

/**
 * The integrations screen's state. The delivery log pages by cursor, newest first, as the audit
 * log does: Older follows next_cursor, Newer goes back to the cursor it came from, Newest starts
 * again from the top. `admin` decides whether the organisation in the URL counts.
 */
export function useIntegrationsState({ admin }: { admin: boolean }): IntegrationsState {
  const list = useListState({
    pageSize: DELIVERY_PAGE_SIZE,
    sortFields: [] as const,
    filters: FILTERS,
  });
  const { organization_id, log, event, status, cursor } = list.filters;
  const { setFilters } = list;
  const writeCursor = useCallback(
    (next: string | null) => setFilters({ cursor: next }),
    [setFilters],
  );
  const { forgetNewer, ...pages } = useCursorPages(cursor, writeCursor);

  const setOrganization = useCallback(
    (id: string | null) => {
      forgetNewer();
      setFilters({ organization_id: id, log: null, event: null, status: null, cursor: null });
    },
    [forgetNewer, setFilters],
  );
  const openLog = useCallback(
    (id: string) => {
      forgetNewer();
      setFilters({ log: id, event: null, status: null, cursor: null });
    },
    [forgetNewer, setFilters],
  );
  const closeLog = useCallback(() => {
    forgetNewer();
    setFilters({ log: null, event: null, status: null, cursor: null });
  }, [forgetNewer, setFilters]);
  const setDeliveryFilters = useCallback(
    (changes: { event?: string | null; status?: string | null }) => {
      forgetNewer();
      setFilters({ ...changes, cursor: null });
    },
    [forgetNewer, setFilters],
  );
  const query = useMemo<DeliveryListQuery>(
    () => ({
      ...(event ? { event } : {}),
      ...(status ? { status } : {}),
      ...(cursor ? { cursor } : {}),
      limit: DELIVERY_PAGE_SIZE,
    }),
    [event, status, cursor],
  );
  const filters = useMemo<DeliveryFilters>(() => ({ event, status }), [event, status]);

  return {
    organizationId: admin ? organization_id : undefined,
    setOrganization,
    logId: log,
    openLog,
    closeLog,
    filters,
    setDeliveryFilters,
    query,
    ...pages,
  };
}
