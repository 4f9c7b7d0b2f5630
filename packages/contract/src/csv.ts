import {
  CSV_SESSION_STATUS,
  csvDurationIn,
  csvLocalDateTime,
  csvTimeHeading,
  csvYesNo,
  type CsvReader,
} from './csv-reader.ts';
import type { SessionStatus } from './common.ts';
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

/** Cells a spreadsheet would misread unless quoted: a separator, quote or line break inside, or
 * a space at either end. */
const NEEDS_QUOTES = { ',': /[",\r\n]|^ | $/, ';': /[";\r\n]|^ | $/ } as const;

/**
 * One CSV record as RFC 4180 writes it, without its line break: cells joined by the separator
 * (a comma unless the reader's spreadsheet splits on `;`, csv-reader.ts), quoted (inner quotes
 * doubled) only where they must be. Cells are written as given: neutralise text against formulas
 * first.
 */
export function csvRecord(cells: readonly CsvCell[], separator: ',' | ';' = ','): string {
  const needsQuotes = NEEDS_QUOTES[separator];
  return cells
    .map((cell) => {
      const text = cell === null || cell === undefined ? '' : String(cell);
      return needsQuotes.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
    })
    .join(separator);
}

/** Records as CSV text, each ending with CRLF (the line break spreadsheets expect). */
export function csvText(
  records: readonly (readonly CsvCell[])[],
  separator: ',' | ';' = ',',
): string {
  let text = '';
  for (const record of records) text += `${csvRecord(record, separator)}\r\n`;
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

/** The History CSV's headings for a reader, in their language, times in their offset. */
export function historyCsvHeadings(reader: CsvReader | null): readonly string[] {
  if (!reader) return HISTORY_CSV_COLUMNS;
  const time = (heading: string) => csvTimeHeading(heading, reader);
  return reader.language === 'ru'
    ? [
        '№',
        'VR-пользователь',
        'Шлем',
        'Сценарий',
        'Модуль',
        'Уровень',
        'Статус',
        'Выполнено заданий',
        'Всего заданий',
        'Прогресс, %',
        'Длительность, с',
        'Длительность',
        'Запустил',
        time('Начало'),
        time('Окончание'),
        'Успех',
        'Результат пришёл позже',
        'Ревизия уровня',
      ]
    : [
        'No',
        'VR user',
        'Headset',
        'Scenario',
        'Module',
        'Level',
        'Status',
        'Tasks completed',
        'Total tasks',
        'Progress (%)',
        'Duration (s)',
        'Duration',
        'Started by',
        time('Started at'),
        time('Ended at'),
        'Success',
        'Result arrived later',
        'Level revision',
      ];
}

/**
 * One row of the History CSV, `number` counting from 1, cells already formula-safe. For a reader,
 * in their language (content names, status, yes/no, duration) and offset; for none, as the file
 * always was (status codes, Yes/No, UTC ISO times, content names in Russian).
 */
export function historyCsvRow(
  session: HistoryCsvSession,
  number: number,
  reader: CsvReader | null = null,
): Array<string | number> {
  const language = reader?.language ?? 'ru';
  const yesNo = (value: boolean) => (reader ? csvYesNo(value, language) : value ? 'Yes' : 'No');
  const time = (iso: string | null) => (reader ? csvLocalDateTime(iso, reader) : (iso ?? ''));
  const row = [
    number,
    session.vr_user_name,
    session.device_name,
    inLanguage(language, session.scenario_name, session.scenario_name_en),
    inLanguage(language, session.module_name, session.module_name_en),
    inLanguage(language, session.level_name, session.level_name_en),
    reader
      ? (CSV_SESSION_STATUS[language][session.status as SessionStatus] ?? session.status)
      : session.status,
    session.completed_tasks,
    session.total_tasks,
    progressPercent(session.completed_tasks, session.total_tasks),
    session.duration_seconds ?? '',
    reader
      ? csvDurationIn(session.duration_seconds, language)
      : csvDuration(session.duration_seconds),
    session.started_by_email ?? '',
    time(session.started_at),
    time(session.ended_at),
    session.success === null ? '' : yesNo(session.success),
    yesNo(Boolean(session.late_result)),
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

/**
 * The record's headings for a reader: the trainee and the organisation first (a file a reader
 * forwards still says whose record it is), then the levels' columns in their language.
 */
export function trainingRecordCsvHeadings(reader: CsvReader | null): readonly string[] {
  if (!reader) return TRAINING_RECORD_CSV_COLUMNS;
  const time = (heading: string) => csvTimeHeading(heading, reader);
  return reader.language === 'ru'
    ? [
        'Обучаемый',
        'Организация',
        '№',
        'Сценарий',
        'Модуль',
        'Уровень',
        'Номер уровня',
        'Ревизии',
        'Попытки',
        'Успешные',
        'Лучший результат: выполнено заданий',
        'Лучший результат: всего заданий',
        'Лучший результат: успех',
        'Последний результат: выполнено заданий',
        'Последний результат: всего заданий',
        'Последний результат: успех',
        time('Последняя попытка'),
        time('Первый успех'),
        time('Последний успех'),
        'Время обучения, с',
        'Время обучения',
      ]
    : [
        'Trainee',
        'Organisation',
        'No',
        'Scenario',
        'Module',
        'Level',
        'Level number',
        'Revisions',
        'Attempts',
        'Completions',
        'Best: tasks completed',
        'Best: total tasks',
        'Best: success',
        'Last: tasks completed',
        'Last: total tasks',
        'Last: success',
        time('Last attempt'),
        time('First completed'),
        time('Last completed'),
        'Training time (s)',
        'Training time',
      ];
}

/**
 * The record's rows (levels, then a Total row), cells formula-safe. For a reader, in their
 * language and offset, each row naming the trainee and the organisation; for none, as the file
 * always was (content names in Russian, Yes/No, UTC ISO times).
 */
export function trainingRecordCsvRows(
  record: TrainingRecord,
  reader: CsvReader | null = null,
): Array<Array<string | number>> {
  const language = reader?.language ?? 'ru';
  const yesNo = (value: boolean) => (reader ? csvYesNo(value, language) : value ? 'Yes' : 'No');
  const time = (iso: string | null) => (reader ? csvLocalDateTime(iso, reader) : (iso ?? ''));
  const duration = (seconds: number) =>
    reader ? csvDurationIn(seconds, language) : csvDuration(seconds);
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
    time(level.last.started_at),
    time(level.first_completed_at),
    time(level.last_completed_at),
    level.training_seconds,
    duration(level.training_seconds),
  ]);
  const { totals } = record;
  const words = !reader
    ? ['Total', `${totals.levels_attempted} levels`, `${totals.levels_completed} completed`]
    : language === 'ru'
      ? [
          'Итого',
          `Уровней начато: ${totals.levels_attempted}`,
          `Уровней пройдено: ${totals.levels_completed}`,
        ]
      : [
          'Total',
          `Levels attempted: ${totals.levels_attempted}`,
          `Levels completed: ${totals.levels_completed}`,
        ];
  rows.push([
    words[0]!,
    words[1]!,
    '',
    words[2]!,
    '',
    '',
    totals.attempts,
    totals.completions,
    ...Array<string>(9).fill(''),
    totals.training_seconds,
    duration(totals.training_seconds),
  ]);
  const whose = reader ? [record.vr_user.name, record.organization_name] : [];
  return neutralizeCsvRows(rows.map((row) => [...whose, ...row]));
}
