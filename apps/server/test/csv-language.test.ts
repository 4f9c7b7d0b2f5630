import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness.ts';
import { makeSession, makeTenant, makeVrUser } from './factories.ts';

/**
 * The History and the training record as CSV in the reader's language (issue 42): the console
 * asks with `lang` and its clock's `utc_offset`; a client naming a language only by
 * Accept-Language gets it too; one naming none gets the file as it always was. Each file is
 * read as Excel reads it: the byte-order mark says UTF-8, and the cells are split on the
 * language's list separator (`;` in Russian, whose decimal mark is a comma; `,` in English).
 */
let t: TestApp;
let staff: Awaited<ReturnType<typeof makeTenant>>;
let vrUserId: string;

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(new Date('2026-11-26T12:00:00Z'));
  staff = await makeTenant(t, { organizationName: 'Депо «Север»' });
  const trainee = await makeVrUser(t.db, staff.organization.id, { name: 'Петрова Мария' });
  vrUserId = trainee.id;
  const common = {
    organizationId: staff.organization.id,
    vrUserId,
    vrUserName: trainee.name,
    deviceName: 'Quest 3',
    scenarioName: 'Пожар',
    moduleName: 'Эвакуация',
    levelName: 'Склад',
  };
  // 8 h 30 min 41 s, passed; then 7 min 37 s, disconnected.
  await makeSession(t.db, {
    ...common,
    startedAt: new Date('2026-11-25T21:30:00Z'),
    durationSeconds: 30_641,
  });
  await makeSession(t.db, {
    ...common,
    status: 'disconnected',
    completedTasks: 1,
    startedAt: new Date('2026-11-26T09:05:00Z'),
    durationSeconds: 457,
  });
});
afterAll(() => t.close());

/** The file as Excel opens it in `language`: the BOM read as UTF-8, cells split on its separator. */
function asExcel(body: string, language: 'ru' | 'en' | 'none') {
  expect(body.startsWith('\uFEFF')).toBe(true);
  const delimiter = language === 'ru' ? ';' : ',';
  const rows = Papa.parse<string[]>(body.slice(1), { delimiter, skipEmptyLines: true }).data;
  const [header = [], ...data] = rows;
  for (const row of data) expect(row).toHaveLength(header.length);
  return {
    header,
    rows: data.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i]]))),
  };
}

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ url, headers: { ...staff.headers, ...headers } });

describe('the History CSV in the reader’s language', () => {
  it('is Russian for lang=ru: headers, statuses, да/нет, durations, Moscow times, `;`', async () => {
    const response = await get('/v1/sessions/export?lang=ru&utc_offset=180');
    expect(response.statusCode).toBe(200);
    const { header, rows } = asExcel(response.body, 'ru');
    expect(header).toContain('Начало (UTC+03:00)');
    expect(header).toContain('Окончание (UTC+03:00)');
    expect(rows.map((row) => row['Статус'])).toEqual(['Связь потеряна', 'Завершена']);
    expect(rows.map((row) => row['Успех'])).toEqual(['нет', 'да']);
    expect(rows.map((row) => row['Длительность'])).toEqual(['7 мин 37 с', '8 ч 30 мин']);
    expect(rows.map((row) => row['Начало (UTC+03:00)'])).toEqual([
      '2026-11-26 12:05:00',
      '2026-11-26 00:30:00',
    ]);
    expect(rows[1]!['VR-пользователь']).toBe('Петрова Мария');
  });

  it('is English for an Accept-Language naming English, times in UTC without an offset', async () => {
    const response = await get('/v1/sessions/export', {
      'accept-language': 'de-DE,en-GB;q=0.8,ru;q=0.5',
    });
    const { header, rows } = asExcel(response.body, 'en');
    expect(header).toContain('Started at (UTC)');
    expect(rows.map((row) => row['Status'])).toEqual(['Disconnected', 'Completed']);
    expect(rows.map((row) => row['Success'])).toEqual(['no', 'yes']);
    expect(rows.map((row) => row['Duration'])).toEqual(['7 min 37 s', '8 h 30 min']);
    expect(rows[0]!['Started at (UTC)']).toBe('2026-11-26 09:05:00');
  });

  it('stays as it always was for a client naming no language', async () => {
    const response = await get('/v1/sessions/export');
    const { header, rows } = asExcel(response.body, 'none');
    expect(header[0]).toBe('No');
    expect(header).toContain('Started At');
    expect(rows.map((row) => row['Status'])).toEqual(['disconnected', 'completed']);
    expect(rows.map((row) => row['Success'])).toEqual(['No', 'Yes']);
    expect(rows.map((row) => row['Duration (formatted)'])).toEqual(['7m 37s', '510m 41s']);
    expect(rows[0]!['Started At']).toBe('2026-11-26T09:05:00.000Z');
  });

  it('refuses an offset no clock has with 400', async () => {
    for (const offset of ['900', '-841', '3.5', 'moscow']) {
      const response = await get(`/v1/sessions/export?lang=ru&utc_offset=${offset}`);
      expect(response.statusCode, offset).toBe(400);
      expect(response.json().error).toBe('validation_error');
    }
  });
});

describe('the training record’s CSV in the reader’s language', () => {
  it('names the trainee and the organisation, in Russian with `;`', async () => {
    const response = await get(`/v1/vr-users/${vrUserId}/record/export?lang=ru&utc_offset=180`);
    expect(response.statusCode).toBe(200);
    const { header, rows } = asExcel(response.body, 'ru');
    expect(header.slice(0, 3)).toEqual(['Обучаемый', 'Организация', '№']);
    expect(header).toContain('Первый успех (UTC+03:00)');
    expect(rows.map((row) => [row['Обучаемый'], row['Организация']])).toEqual([
      ['Петрова Мария', 'Депо «Север»'],
      ['Петрова Мария', 'Депо «Север»'],
    ]);
    const [level, total] = rows;
    expect(level).toMatchObject({
      Уровень: 'Склад',
      Попытки: '2',
      Успешные: '1',
      'Последний результат: успех': 'нет',
      'Первый успех (UTC+03:00)': '2026-11-26 09:00:41',
      'Время обучения': '8 ч 38 мин',
    });
    expect(total).toMatchObject({ '№': 'Итого', Попытки: '2', 'Время обучения': '8 ч 38 мин' });
  });

  it('is English for lang=en with `,`, and as it always was for no language', async () => {
    const english = asExcel(
      (await get(`/v1/vr-users/${vrUserId}/record/export?lang=en`)).body,
      'en',
    );
    expect(english.header.slice(0, 3)).toEqual(['Trainee', 'Organisation', 'No']);
    expect(english.rows[0]).toMatchObject({
      Trainee: 'Петрова Мария',
      'Best: success': 'yes',
      'First completed (UTC)': '2026-11-26 06:00:41',
      'Training time': '8 h 38 min',
    });
    const today = asExcel((await get(`/v1/vr-users/${vrUserId}/record/export`)).body, 'none');
    expect(today.header[0]).toBe('No');
    expect(today.rows[0]).toMatchObject({
      'Best Success': 'Yes',
      'First Completed At': '2026-11-26T06:00:41.000Z',
      'Training Time (formatted)': '518m 18s',
    });
  });
});
