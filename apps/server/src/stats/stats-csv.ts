import {
  CSV_BOM,
  csvDecimal,
  csvSeparator,
  csvText,
  inLanguage,
  neutralizeCsvRows,
  type CsvCell,
  type CsvLanguage,
  safeFileNamePart,
  type CsvReader,
  type OrganizationStatsRange,
  type StatsExportQuery,
  type StatsRange,
} from '@vrtc/contract';
import type { Caller } from '../platform/http/caller.ts';
import { organizationStats, type WithOrganizationStats } from './organization-stats.ts';
import { exportRange, type StatsContext } from './stats.service.ts';

export interface CsvFile {
  filename: string;
  /** The file's text, byte-order mark first; sent as UTF-8. */
  body: string;
}

/** The file's words: today's (no reader) first, then a reader's in each language. */
const WORDS = {
  none: {
    title: 'Global statistics',
    metric: ['Metric', 'Value'],
    organization: 'Organization',
    start: 'Start date',
    end: 'End date',
    total: 'Total sessions',
    active: 'Active sessions',
    completed: 'Completed sessions',
    cancelled: 'Cancelled sessions',
    disconnected: 'Disconnected sessions',
    timeout: 'Timeout sessions',
    duration: 'Average duration (seconds)',
    success: 'Success rate %',
    completion: 'Average completion %',
    daily: ['Date', 'Sessions', 'Completed'],
    scenarios: ['Scenario', 'Sessions', 'Completed', 'Success rate %', 'Average completion %'],
    organizations: ['Organization', 'Sessions', 'Success rate %'],
    devices: ['Device type', 'Sessions', 'Devices'],
  },
  ru: {
    title: 'Статистика',
    metric: ['Показатель', 'Значение'],
    organization: 'Организация',
    start: 'Начало периода',
    end: 'Конец периода',
    total: 'Всего сессий',
    active: 'Активные сессии',
    completed: 'Завершённые сессии',
    cancelled: 'Отменённые сессии',
    disconnected: 'Сессии с потерянной связью',
    timeout: 'Сессии с истёкшим временем',
    duration: 'Средняя длительность, с',
    success: 'Доля успешных, %',
    completion: 'Среднее выполнение, %',
    daily: ['Дата', 'Сессии', 'Завершённые'],
    scenarios: ['Сценарий', 'Сессии', 'Завершённые', 'Доля успешных, %', 'Среднее выполнение, %'],
    organizations: ['Организация', 'Сессии', 'Доля успешных, %'],
    devices: ['Тип шлема', 'Сессии', 'Шлемы'],
  },
  en: {
    title: 'Statistics',
    metric: ['Metric', 'Value'],
    organization: 'Organisation',
    start: 'Period start',
    end: 'Period end',
    total: 'Total sessions',
    active: 'Active sessions',
    completed: 'Completed sessions',
    cancelled: 'Cancelled sessions',
    disconnected: 'Disconnected sessions',
    timeout: 'Timed-out sessions',
    duration: 'Average duration (s)',
    success: 'Success rate (%)',
    completion: 'Average completion (%)',
    daily: ['Date', 'Sessions', 'Completed'],
    scenarios: ['Scenario', 'Sessions', 'Completed', 'Success rate (%)', 'Average completion (%)'],
    organizations: ['Organisation', 'Sessions', 'Success rate (%)'],
    devices: ['Headset type', 'Sessions', 'Headsets'],
  },
} satisfies Record<CsvLanguage | 'none', unknown>;

/**
 * The range figures as a CSV file (UTF-8 with a byte-order mark): a summary section, the daily
 * rows, then scenarios, top organisations and device types. For a reader, words and decimal
 * marks in their language and `;` where it writes a decimal comma (csv-reader.ts in the
 * contract); for none, the file as it always was. Text cells are neutralised against formula
 * injection. Dates default to the last 30 days ending today (UTC).
 */
export async function exportStats(
  ctx: StatsContext,
  query: StatsExportQuery,
  reader: CsvReader | null,
): Promise<CsvFile> {
  const stats = await exportRange(ctx, query);
  return {
    filename: `global-stats_${stats.start_date}_${stats.end_date}.csv`,
    body: CSV_BOM + csvText(neutralizeCsvRows(statsRows(stats, reader)), csvSeparator(reader)),
  };
}

/**
 * The caller's organisation's range figures (GET /v1/stats/export) as exportStats writes the
 * global ones, the organisation named under the title, without the top organisations.
 */
export async function exportOrganizationStats(
  ctx: StatsContext & WithOrganizationStats,
  caller: Caller,
  query: StatsExportQuery,
  reader: CsvReader | null,
): Promise<CsvFile> {
  const stats = await organizationStats(ctx, caller, query);
  const name = safeFileNamePart(stats.organization_name);
  return {
    filename: `statistics_${name}_${stats.start_date}_${stats.end_date}.csv`,
    body: CSV_BOM + csvText(neutralizeCsvRows(statsRows(stats, reader)), csvSeparator(reader)),
  };
}

function statsRows(
  stats: StatsRange | OrganizationStatsRange,
  reader: CsvReader | null,
): CsvCell[][] {
  const w = WORDS[reader?.language ?? 'none'];
  const language = reader?.language ?? 'ru';
  // A reader's decimals in their mark; today's file writes numbers as they are.
  const decimal = (value: number) => (reader ? csvDecimal(value, language) : value);
  const scenario = (s: StatsRange['scenario_stats'][number]) =>
    reader ? inLanguage(language, s.scenario_name, s.scenario_name_en) : s.scenario_name;
  return [
    [w.title],
    w.metric,
    ...('organization_name' in stats ? [[w.organization, stats.organization_name]] : []),
    [w.start, stats.start_date],
    [w.end, stats.end_date],
    [w.total, stats.total_sessions],
    [w.active, stats.active_sessions],
    [w.completed, stats.completed_sessions],
    [w.cancelled, stats.cancelled_sessions],
    [w.disconnected, stats.disconnected_sessions],
    [w.timeout, stats.timeout_sessions],
    [w.duration, stats.average_duration_seconds],
    [w.success, decimal(stats.success_rate)],
    [w.completion, decimal(stats.average_completion)],
    [],
    w.daily,
    ...stats.daily.map((day) => [day.date, day.sessions, day.completed]),
    [],
    w.scenarios,
    ...stats.scenario_stats.map((s) => [
      scenario(s),
      s.total_sessions,
      s.completed_sessions,
      decimal(s.success_rate),
      decimal(s.average_completion),
    ]),
    ...('top_organizations' in stats
      ? [
          [],
          w.organizations,
          ...stats.top_organizations.map((o) => [
            o.organization_name,
            o.total_sessions,
            decimal(o.success_rate),
          ]),
        ]
      : []),
    [],
    w.devices,
    ...stats.device_types.map((d) => [d.device_type, d.sessions, d.devices]),
  ];
}
