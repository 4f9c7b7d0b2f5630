import { sql, type RawBuilder } from 'kysely';

/**
 * How a session ended, in SQL over a sessions alias: the one rule every reader of the record
 * (the statistics, the training record, qualifications) counts by, so they agree to the session.
 */

/** The session ended: any status but active. */
export function endedSql(sessionAlias: string): RawBuilder<boolean> {
  return sql<boolean>`(${sql.ref(`${sessionAlias}.status`)} <> 'active')`;
}

/** The session is a success (only ever set on completed sessions). */
export function succeededSql(sessionAlias: string): RawBuilder<boolean> {
  return sql<boolean>`(${sql.ref(`${sessionAlias}.success`)} IS TRUE)`;
}
