/** Timestamps leave the API as ISO-8601 strings. */
export const iso = (value: Date): string => value.toISOString();
export const isoOrNull = (value: Date | null | undefined): string | null =>
  value ? value.toISOString() : null;

/** Trimmed text, or null when empty (optional free-text fields). */
export const textOrNull = (value: string | null | undefined): string | null => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};
