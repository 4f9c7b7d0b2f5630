import { Type } from 'typebox';
import type { SessionStatus } from './common.ts';

/**
 * Who reads a CSV file, and how their spreadsheet reads it (issue 42). A reader who names a
 * language (the console's `lang`, or an Accept-Language naming ru or en) gets the file in it:
 * headers, statuses, yes/no and durations in words, date-times in the reader's offset (named in
 * the header) and, where the language writes a decimal comma, `;` between cells, as Russian Excel
 * splits them. A client that names no language gets the file as it always was (English column
 * names, status codes, UTC ISO times, commas), so scripts and integrations keep working. Pure: no
 * Node or browser APIs.
 */

export type CsvLanguage = 'ru' | 'en';

export interface CsvReader {
  language: CsvLanguage;
  /** Minutes east of UTC the reader's times are written in (Moscow +180). */
  utcOffsetMinutes: number;
}

/** The widest offsets in use (UTC−14:00 … UTC+14:00), in minutes. */
export const CSV_UTC_OFFSET_LIMIT = 14 * 60;

/** Query fields of every export a person reads: the language, and the offset of their clock. */
export const csvReaderFields = {
  lang: Type.Optional(Type.Enum(['ru', 'en'])),
  /** Minutes east of UTC to write times in (the console sends its own); UTC without it. */
  utc_offset: Type.Optional(
    Type.Integer({ minimum: -CSV_UTC_OFFSET_LIMIT, maximum: CSV_UTC_OFFSET_LIMIT }),
  ),
};

/**
 * The first of ru and en an Accept-Language header prefers (by q, then order), or undefined when
 * it names neither (or is absent, or is `*`).
 */
export function acceptedCsvLanguage(header: string | undefined): CsvLanguage | undefined {
  if (!header) return undefined;
  let best: { language: CsvLanguage; q: number } | undefined;
  for (const part of header.split(',')) {
    const [tag = '', ...params] = part.trim().split(';');
    const primary = tag.trim().toLowerCase().split('-')[0];
    if (primary !== 'ru' && primary !== 'en') continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { language: primary, q };
  }
  return best?.language;
}

/** The reader a request names, or null for a client that names no language (today's file). */
export function csvReaderFor(
  lang: CsvLanguage | undefined,
  acceptLanguage: string | undefined,
  utcOffset: number | undefined,
): CsvReader | null {
  const language = lang ?? acceptedCsvLanguage(acceptLanguage);
  return language ? { language, utcOffsetMinutes: utcOffset ?? 0 } : null;
}

/** `;` where the language's decimal mark is a comma (Russian), else `,`; `,` for no reader. */
export function csvSeparator(reader: CsvReader | null): ',' | ';' {
  return reader?.language === 'ru' ? ';' : ',';
}

/** "UTC", "UTC+03:00", "UTC-05:30" as a header names the offset its times are in. */
export function csvOffsetName(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const sign = minutes > 0 ? '+' : '-';
  const whole = Math.abs(minutes);
  const hh = String(Math.floor(whole / 60)).padStart(2, '0');
  const mm = String(whole % 60).padStart(2, '0');
  return `UTC${sign}${hh}:${mm}`;
}

/** A column heading for date-times: "Начало (UTC+03:00)". */
export function csvTimeHeading(heading: string, reader: CsvReader): string {
  return `${heading} (${csvOffsetName(reader.utcOffsetMinutes)})`;
}

/**
 * An instant as the reader's spreadsheet takes it for a date-time: "2026-11-26 14:05:00" in the
 * reader's offset (Excel reads this form in every locale); empty when there is none.
 */
export function csvLocalDateTime(iso: string | null | undefined, reader: CsvReader): string {
  if (!iso) return '';
  const time = Date.parse(iso);
  if (!Number.isFinite(time)) return '';
  const shifted = new Date(time + reader.utcOffsetMinutes * 60_000).toISOString();
  return `${shifted.slice(0, 10)} ${shifted.slice(11, 19)}`;
}

const DURATION_WORDS: Record<CsvLanguage, { h: string; min: string; s: string }> = {
  ru: { h: 'ч', min: 'мин', s: 'с' },
  en: { h: 'h', min: 'min', s: 's' },
};

/** "7 мин 37 с", from an hour on "8 ч 30 мин", as the console reads durations; empty when none. */
export function csvDurationIn(seconds: number | null | undefined, language: CsvLanguage): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '';
  const whole = Math.max(0, Math.floor(seconds));
  const words = DURATION_WORDS[language];
  if (whole >= 3600) {
    return `${Math.floor(whole / 3600)} ${words.h} ${Math.floor((whole % 3600) / 60)} ${words.min}`;
  }
  return `${Math.floor(whole / 60)} ${words.min} ${whole % 60} ${words.s}`;
}

/** yes/no in the reader's language, as the compliance file writes them. */
export function csvYesNo(value: boolean, language: CsvLanguage): string {
  if (language === 'ru') return value ? 'да' : 'нет';
  return value ? 'yes' : 'no';
}

/** A number with the language's decimal mark: 85,5 in Russian, 85.5 in English. */
export function csvDecimal(value: number, language: CsvLanguage): string {
  const text = String(value);
  return language === 'ru' ? text.replace('.', ',') : text;
}

/** A session's status as the console names it. */
export const CSV_SESSION_STATUS: Record<CsvLanguage, Record<SessionStatus, string>> = {
  ru: {
    active: 'Активна',
    completed: 'Завершена',
    cancelled: 'Отменена',
    disconnected: 'Связь потеряна',
    timeout: 'Время истекло',
  },
  en: {
    active: 'Active',
    completed: 'Completed',
    cancelled: 'Cancelled',
    disconnected: 'Disconnected',
    timeout: 'Timeout',
  },
};
