import type { HistorySession } from '@vrtc/contract';
import { CSV_BOM, neutralizeCsvCell } from '@vrtc/contract';
import Papa from 'papaparse';
import { progressPercent } from '../../lib/format';

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
] as const;

/** "2m 5s": the same minutes-and-seconds reading as the screen, language-neutral for the file. */
export function csvDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '';
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}m ${whole % 60}s`;
}

function successCell(success: boolean | null): string {
  if (success === null) return '';
  return success ? 'Yes' : 'No';
}

/**
 * The History CSV: UTF-8 byte-order mark, header row, one row per session; fields quoted when they
 * hold commas, quotes or line breaks, and text starting with = + - @ neutralised against formula
 * injection. Times are the server's ISO 8601 (UTC) timestamps. Lines end with CRLF (RFC 4180).
 */
export function buildSessionsCsv(sessions: readonly HistorySession[]): string {
  const rows = sessions.map((session, index) => [
    index + 1,
    session.vr_user_name,
    session.device_name,
    session.scenario_name,
    session.module_name,
    session.level_name,
    session.status,
    session.completed_tasks,
    session.total_tasks,
    progressPercent(session.completed_tasks, session.total_tasks),
    session.duration_seconds ?? '',
    csvDuration(session.duration_seconds),
    session.started_by_email ?? '',
    session.started_at,
    session.ended_at ?? '',
    successCell(session.success),
  ]);
  const csv = Papa.unparse(
    { fields: [...HISTORY_CSV_COLUMNS], data: rows.map((row) => row.map(neutralizeCsvCell)) },
    { newline: '\r\n', quotes: false, escapeFormulae: false },
  );
  // Every line, the last included, ends with CRLF (papaparse ends a header-only file with one).
  return `${CSV_BOM}${csv.replace(/\r\n$/, '')}\r\n`;
}

/** A name any file system accepts: no path separators, reserved or control characters. */
export function safeFileNamePart(value: string): string {
  const cleaned = value
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex
    .replace(/[\\/:*?"<>|\u0000-\u001f\u007f]+/g, '_')
    .replace(/\s+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[_.]+|[_.]+$/g, '');
  return cleaned.slice(0, 80) || 'organization';
}

/** Local calendar date as YYYY-MM-DD. */
export function isoLocalDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** e.g. sessions_Acme_Training_2026-05-10.csv */
export function sessionsCsvFileName(organizationName: string, date: Date): string {
  return `sessions_${safeFileNamePart(organizationName)}_${isoLocalDate(date)}.csv`;
}
