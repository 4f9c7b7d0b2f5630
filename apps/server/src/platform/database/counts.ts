import { sql, type RawBuilder } from 'kysely';

/** count(*) as a number: pg hands bigint back as a string, so every count is cast (decision 016). */
export const countSql = (): RawBuilder<number> => sql<number>`count(*)::int`;

/** The rows meeting `condition`, counted as countSql does. */
export function countWhereSql(condition: RawBuilder<unknown>): RawBuilder<number> {
  return sql<number>`(count(*) FILTER (WHERE ${condition}))::int`;
}
