/**
 * PostgreSQL's verdicts on a write, read from the error's SQLSTATE (and constraint name): the
 * one place the codes are spelled, whatever the driver (pg, or PGlite on its thread).
 */
interface DatabaseError {
  code?: unknown;
  constraint?: unknown;
}

const sqlState = (error: unknown) =>
  typeof error === 'object' && error !== null ? (error as DatabaseError) : {};

/** A unique index refused the row (23505); `constraint` narrows it to one index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const { code, constraint: violated } = sqlState(error);
  return code === '23505' && (constraint === undefined || violated === constraint);
}

/** A foreign key refused the row: what it references is gone (23503). */
export function isForeignKeyViolation(error: unknown): boolean {
  return sqlState(error).code === '23503';
}
