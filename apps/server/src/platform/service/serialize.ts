/** Timestamps leave the API as ISO-8601 strings. */
export const iso = (value: Date): string => value.toISOString();
export const isoOrNull = (value: Date | null | undefined): string | null =>
  value ? value.toISOString() : null;

/** Trimmed text, or null when empty (optional free-text fields). */
export const textOrNull = (value: string | null | undefined): string | null => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

/**
 * JSON with object keys sorted at every depth: the same content gives the same text whichever
 * order it was built, stored (jsonb keeps its own key order) or sent in. The audit chain hashes
 * it, and a headset's report key hashes its request body with it.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object)
      .filter((key) => object[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(object[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
