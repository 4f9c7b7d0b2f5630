import type { SessionExportQuery, SessionListQuery } from '@vrtc/contract';
import { HISTORY_STATUS_FILTERS } from '../../api/sessions';
import { PAGE_SIZE } from '../../components/DataTable';
import { isIsoDay, isUuid, oneOf, useListState } from '../../lib/list-state';

const STATUSES = HISTORY_STATUS_FILTERS.filter((value) => value !== 'all');
/** History sorts by start time only (newest first unless turned). */
const HISTORY_SORT_FIELDS = ['started_at'] as const satisfies readonly NonNullable<
  SessionListQuery['sort']
>[];

/** The History tab's page, sort and filters, in the URL. */
export function useHistoryList() {
  return useListState({
    pageSize: PAGE_SIZE,
    sortFields: HISTORY_SORT_FIELDS,
    defaultSort: { sort: 'started_at', order: 'desc' },
    filters: {
      status: oneOf(STATUSES),
      from: isIsoDay,
      to: isIsoDay,
      vr_user_id: isUuid,
      device_id: isUuid,
      scenario_id: isUuid,
    },
  });
}

export type HistoryList = ReturnType<typeof useHistoryList>;

/** The filters of the list, as the export (and the page's query) takes them. */
export function historyFilters({ filters }: HistoryList): SessionExportQuery {
  return {
    status: filters.status,
    from: filters.from,
    to: filters.to,
    vr_user_id: filters.vr_user_id,
    device_id: filters.device_id,
    scenario_id: filters.scenario_id,
  };
}

/** Every filter off (the page and sort stay as they are). */
export const NO_HISTORY_FILTERS = {
  status: null,
  from: null,
  to: null,
  vr_user_id: null,
  device_id: null,
  scenario_id: null,
} as const;
