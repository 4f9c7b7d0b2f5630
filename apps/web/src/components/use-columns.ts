import type { TFunction } from 'i18next';
import { useLanguageMemo } from '../lib/use-language-memo';
import type { ColumnDef } from './table-model';

/** A table's columns, built again when the language (or one of `keys`) changes: useLanguageMemo. */
export function useColumns<Row>(
  t: TFunction<never, never>,
  build: () => ColumnDef<Row, unknown>[],
  keys: readonly unknown[] = [],
): ColumnDef<Row, unknown>[] {
  return useLanguageMemo(t, build, keys);
}
