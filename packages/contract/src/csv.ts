import type { TrainingRecord } from './vr-users.ts';
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

/** What a CSV cell may hold: null and undefined are written as empty cells. */
export type CsvCell = string | number | boolean | null | undefined;

/** Cells a spreadsheet would misread unless quoted: a comma, quote or line break inside, or a
 * space at either end. */
const NEEDS_QUOTES = /[",\r\n]|^ | $/;

/**
 * One CSV record as RFC 4180 writes it, without its line break: cells joined by commas, quoted
 * (inner quotes doubled) only where they must be. Cells are written as given: neutralise text
 * against formulas first.
 */
export function csvRecord(cells: readonly CsvCell[]): string {
  return cells.map(csvField).join(',');
}

function csvField(cell: CsvCell): string {
  const text = cell === null || cell === undefined ? '' : String(cell);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Records as CSV text, each ending with CRLF (the line break spreadsheets expect). */
export function csvText(records: readonly (readonly CsvCell[])[]): string {
  let text = '';
  for (const record of records) text += `${csvRecord(record)}\r\n`;
  return text;
}

/** Progress percent = completed tasks over max tasks (max treated as 1 if missing), whole. */
export function progressPercent(
  completed: number | null | undefined,
  max: number | null | undefined,
): number {
  const denominator = max && max > 0 ? max : 1;
  return Math.round(((completed ?? 0) / denominator) * 100);
}

/** The History export's columns, in the specification's order (section 9). */
export const HISTORY_CSV_COLUMNS = [
  'No',
  'VR User',
  'Device',
  'Scenario',
  'Module',
  'Level',
  'Status',
  'Tasks Completed',
  'Total Tasks',
  'Progress %',
  'Duration (seconds)',
  'Duration (formatted)',
  'Started By',
  'Started At',
  'Ended At',
  'Success',
  // Beside the specification's 16: the result came from the headset after the server had ended
  // the session as disconnected or timeout (docs/headset-protocol.md, late results).
  'Result Arrived Later',
  // The level's revision the session ran (content changed since shows a higher one on the level).
  'Level Revision',
] as const;

/** "2m 5s": the same minutes-and-seconds reading as the screen, language-neutral for the file. */
export function csvDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '';
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}m ${whole % 60}s`;
}

export type ContentLanguage = 'ru' | 'en';

/**
 * The text of content (a scenario, module, level or option name) in the console's language: the
 * primary text is Russian, the English one optional; each language falls back to the other.
 */
export function inLanguage(
  language: string,
  primary: string,
  english: string | null | undefined,
): string {
  return language.startsWith('en') ? english || primary : primary || english || '';
}

/** What a History CSV row is made of (a HistorySession has it all). */
export interface HistoryCsvSession {
  vr_user_name: string;
  device_name: string;
  scenario_name: string;
  module_name: string;
  level_name: string;
  scenario_name_en?: string | null;
  module_name_en?: string | null;
  level_name_en?: string | null;
  status: string;
  completed_tasks: number;
  total_tasks: number;
  duration_seconds: number | null;
  started_by_email: string | null;
  started_at: string;
  ended_at: string | null;
  success: boolean | null;
  late_result?: boolean;
  level_revision: number;
}

/**
 * One row of the History CSV, `number` counting from 1, content names in `language` as the console
 * shows them, cells already formula-safe.
 */
export function historyCsvRow(
  session: HistoryCsvSession,
  number: number,
  language: string = 'ru',
): Array<string | number> {
  const row = [
    number,
    session.vr_user_name,
    session.device_name,
    inLanguage(language, session.scenario_name, session.scenario_name_en),
    inLanguage(language, session.module_name, session.module_name_en),
    inLanguage(language, session.level_name, session.level_name_en),
    session.status,
    session.completed_tasks,
    session.total_tasks,
    progressPercent(session.completed_tasks, session.total_tasks),
    session.duration_seconds ?? '',
    csvDuration(session.duration_seconds),
    session.started_by_email ?? '',
    session.started_at,
    session.ended_at ?? '',
    session.success === null ? '' : session.success ? 'Yes' : 'No',
    session.late_result ? 'Yes' : 'No',
    session.level_revision,
  ];
  for (let i = 0; i < row.length; i++) row[i] = neutralizeCsvCell(row[i]!);
  return row;
}

/** A name any file system accepts: no path separators, reserved or control characters. */
export function safeFileNamePart(value: string): string {
  const cleaned = value
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- control characters are exactly what a file name must not hold
    .replace(/[\\/:*?"<>|\u0000-\u001f\u007f]+/g, '_')
    .replace(/\s+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[_.]+|[_.]+$/g, '');
  return cleaned.slice(0, 80) || 'organization';
}

/** The training record's export (GET /v1/vr-users/:id/record/export): a row per level, then totals. */
export const TRAINING_RECORD_CSV_COLUMNS = [
  'No',
  'Scenario',
  'Module',
  'Level',
  'Level Number',
  'Revisions',
  'Attempts',
  'Completions',
  'Best Tasks Completed',
  'Best Total Tasks',
  'Best Success',
  'Last Tasks Completed',
  'Last Total Tasks',
  'Last Success',
  'Last Attempt At',
  'First Completed At',
  'Last Completed At',
  'Training Time (seconds)',
  'Training Time (formatted)',
] as const;

/** The record's rows (levels, then a Total row), names in `language`, cells formula-safe. */
export function trainingRecordCsvRows(
  record: TrainingRecord,
  language: string = 'ru',
): Array<Array<string | number>> {
  const yesNo = (value: boolean) => (value ? 'Yes' : 'No');
  const rows: Array<Array<string | number>> = record.levels.map((level, index) => [
    index + 1,
    inLanguage(language, level.scenario_name, level.scenario_name_en),
    inLanguage(language, level.module_name, level.module_name_en),
    inLanguage(language, level.level_name, level.level_name_en),
    level.level_number,
    level.revisions.join(' '),
    level.attempts,
    level.completions,
    level.best.completed_tasks,
    level.best.max_tasks,
    yesNo(level.best.success),
    level.last.completed_tasks,
    level.last.max_tasks,
    yesNo(level.last.success),
    level.last.started_at,
    level.first_completed_at ?? '',
    level.last_completed_at ?? '',
    level.training_seconds,
    csvDuration(level.training_seconds),
  ]);
  const { totals } = record;
  rows.push([
    'Total',
    `${totals.levels_attempted} levels`,
    '',
    `${totals.levels_completed} completed`,
    '',
    '',
    totals.attempts,
    totals.completions,
    ...Array<string>(9).fill(''),
    totals.training_seconds,
    csvDuration(totals.training_seconds),
  ]);
  return neutralizeCsvRows(rows);
}
