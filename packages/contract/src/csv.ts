/**
 * CSV helpers shared by the server's statistics export and the console's CSV exports. Pure, no
 * Node or browser APIs.
 */

/** Byte-order mark that makes spreadsheet programs read the file as UTF-8. */
export const CSV_BOM = '\uFEFF';

/** Characters that make a spreadsheet treat a cell as a formula (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell value safe to open in a spreadsheet: text starting with = + - @ (or tab / carriage
 * return) gets a leading single quote so it is shown as text, never evaluated. Numbers, booleans,
 * null and undefined pass through unchanged (a negative number is data, not a formula).
 */
export function neutralizeCsvCell<T>(value: T): T | string {
  return typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : value;
}

/** neutralizeCsvCell applied to every cell of the rows. */
export function neutralizeCsvRows<T>(rows: readonly (readonly T[])[]): (T | string)[][] {
  return rows.map((row) => row.map(neutralizeCsvCell));
}
