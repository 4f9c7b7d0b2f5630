import type { ComplianceExportQuery, ComplianceQuery } from '@vrtc/contract';
import { useMemo } from 'react';
import { isQualificationStatus } from '../../components/QualificationBadge';
import { isIsoDay, isUuid, useListState } from '../../lib/list-state';

/**
 * Rows of the compliance view asked for a page: one row is a trainee's standing in one
 * qualification, and the screen folds a page into the trainees × qualifications matrix, so a page
 * holds many trainees' whole lines.
 */
export const COMPLIANCE_PAGE_ROWS = 200;

/**
 * The compliance view's filters as URL parameters, so a reload or a shared link ("who will have
 * lapsed by the audit on 1 March") shows the same: status, qualification, overdue, the search (`q`)
 * and `as_of`, a day.
 */
const COMPLIANCE_FILTERS = {
  status: isQualificationStatus,
  qualification_id: isUuid,
  overdue: (value: string) => value === 'true',
  as_of: isIsoDay,
};

/**
 * The moment a day stands for: its end in the browser's time zone, so "as of the audit day"
 * counts everyone who lapses at any time that day as lapsed.
 */
export function endOfDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, date, 23, 59, 59, 999).toISOString();
}

export function useComplianceState() {
  const list = useListState({
    pageSize: COMPLIANCE_PAGE_ROWS,
    sortFields: [] as const,
    filters: COMPLIANCE_FILTERS,
  });
  const { status, qualification_id, overdue, as_of } = list.filters;
  const { q } = list;
  const filters = useMemo<ComplianceExportQuery>(
    () => ({
      ...(status ? { status } : {}),
      ...(qualification_id ? { qualification_id } : {}),
      ...(overdue ? { overdue: true } : {}),
      ...(as_of ? { as_of: endOfDay(as_of) } : {}),
      ...(q ? { q } : {}),
    }),
    [status, qualification_id, overdue, as_of, q],
  );
  const { limit, offset } = list.query;
  const query = useMemo<ComplianceQuery>(
    () => ({ ...filters, limit, offset }),
    [filters, limit, offset],
  );
  const clearFilters = () =>
    list.setParams(
      { status: null, qualification_id: null, overdue: null, as_of: null },
      { resetList: true },
    );
  return { list, asOfDay: as_of, filters, query, clearFilters };
}

export type ComplianceState = ReturnType<typeof useComplianceState>;
