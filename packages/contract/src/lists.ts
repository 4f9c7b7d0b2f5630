import { Type } from 'typebox';
import { Text } from './common.ts';

/**
 * Every list is paged, sorted and searched on the server. A list query takes `limit` and
 * `offset`, `sort` (one of the list's own fields) with `order`, and `q` (free text the list
 * matches case-insensitively); a list answer carries its rows under the specification's key
 * (`vr_users`, `devices`, …) with `total` (rows matching, all pages), `limit` and `offset` beside.
 */
export const LIST_DEFAULT_LIMIT = 50;
export const LIST_MAX_LIMIT = 500;
/** Deep enough for any real list; bounds the work a single request can ask for. */
export const LIST_MAX_OFFSET = 10_000_000;
export const SEARCH_MAX_LENGTH = 200;

export const SortOrder = Type.Enum(['asc', 'desc']);

/** The query fields every list shares; `sortFields` are the list's sortable columns. */
export function listQueryFields<const Field extends string>(sortFields: readonly Field[]) {
  return {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: LIST_MAX_LIMIT, default: LIST_DEFAULT_LIMIT }),
    ),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: LIST_MAX_OFFSET, default: 0 })),
    sort: Type.Optional(Type.Enum(sortFields)),
    order: Type.Optional(SortOrder),
    q: Type.Optional(
      Text({ maxLength: SEARCH_MAX_LENGTH, description: 'case-insensitive text to match' }),
    ),
  };
}

/** What every list answer carries beside its rows. */
export const listPageFields = {
  total: Type.Integer({ description: 'rows matching the query, on every page' }),
  limit: Type.Integer(),
  offset: Type.Integer(),
};
