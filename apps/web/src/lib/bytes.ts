import { dateLocale } from '../i18n';

/**
 * Apart from lib/format.ts, which re-exports from the contract: error texts use this on the login
 * page, whose bundle has no room for the contract's schemas.
 */
const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/** A size in the language's units: "512 Б", "1,5 МБ", "2 GB" (powers of 1024). */
export function formatBytes(bytes: number, language: string): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return new Intl.NumberFormat(dateLocale(language), {
    style: 'unit',
    unit: BYTE_UNITS[unit],
    // "12 B" (short would say "12 byte" in English).
    unitDisplay: unit === 0 ? 'narrow' : 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}
