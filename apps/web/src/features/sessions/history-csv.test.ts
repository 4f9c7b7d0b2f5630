import type { HistorySession } from '@vrtc/contract';
import { describe, expect, it } from 'vitest';
import { buildSessionsCsv, sessionsCsvFileName } from './history-csv';

function session(overrides: Partial<HistorySession>): HistorySession {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    vr_user_name: 'Anna',
    device_name: 'Quest 1',
    scenario_name: 'Fire safety',
    module_name: 'Basics',
    level_name: 'Intro',
    status: 'completed',
    completed_tasks: 2,
    total_tasks: 3,
    duration_seconds: 125,
    started_by_email: 'staff@example.com',
    started_at: '2026-05-10T09:00:00.000Z',
    ended_at: '2026-05-10T09:02:05.000Z',
    success: true,
    device_id: null,
    vr_user_id: null,
    level_number: 1,
    selected_options: [],
    ...overrides,
  };
}

const HEADER =
  'No,VR User,Device,Scenario,Module,Level,Status,Tasks Completed,Total Tasks,Progress %,' +
  'Duration (seconds),Duration (formatted),Started By,Started At,Ended At,Success';

describe('sessions history CSV', () => {
  it('starts with the UTF-8 byte-order mark and the header in the specified order', () => {
    const csv = buildSessionsCsv([session({})]);
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(Array.from(new TextEncoder().encode(csv).slice(0, 3))).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv.slice(1).split('\r\n')[0]).toBe(HEADER);
  });

  it('writes exactly these bytes: quoting, formula neutralising and empty cells', () => {
    const csv = buildSessionsCsv([
      session({}),
      session({
        vr_user_name: 'Smith, John',
        device_name: 'Pico "A"',
        scenario_name: 'Line one\nline two',
        module_name: '=HYPERLINK("http://x")',
        level_name: '+1',
        status: 'cancelled',
        completed_tasks: 1,
        total_tasks: 3,
        duration_seconds: null,
        started_by_email: null,
        ended_at: null,
        success: null,
      }),
      session({
        vr_user_name: '@admin',
        device_name: '-5',
        scenario_name: 'Пожарная безопасность',
        status: 'timeout',
        completed_tasks: 0,
        total_tasks: 0,
        duration_seconds: 7200,
        success: false,
      }),
    ]);
    expect(csv).toBe(
      '\uFEFF' +
        HEADER +
        '\r\n' +
        '1,Anna,Quest 1,Fire safety,Basics,Intro,completed,2,3,67,125,2m 5s,staff@example.com,' +
        '2026-05-10T09:00:00.000Z,2026-05-10T09:02:05.000Z,Yes\r\n' +
        '2,"Smith, John","Pico ""A""","Line one\nline two","\'=HYPERLINK(""http://x"")",\'+1,cancelled,1,3,33,,,,' +
        '2026-05-10T09:00:00.000Z,,\r\n' +
        "3,'@admin,'-5,Пожарная безопасность,Basics,Intro,timeout,0,0,0,7200,120m 0s,staff@example.com," +
        '2026-05-10T09:00:00.000Z,2026-05-10T09:02:05.000Z,No\r\n',
    );
  });

  it('has just the header when there are no rows (the screen refuses to export those)', () => {
    expect(buildSessionsCsv([])).toBe(`\uFEFF${HEADER}\r\n`);
  });

  it('names the file after the organisation and the date, safe for any file system', () => {
    const date = new Date(2026, 4, 9, 23, 30); // local time: 9 May 2026
    expect(sessionsCsvFileName('Acme', date)).toBe('sessions_Acme_2026-05-09.csv');
    expect(sessionsCsvFileName('Acme Training: North/South "HQ"', date)).toBe(
      'sessions_Acme_Training_North_South_HQ_2026-05-09.csv',
    );
    expect(sessionsCsvFileName('ООО «Вектор»', date)).toBe('sessions_ООО_«Вектор»_2026-05-09.csv');
    expect(sessionsCsvFileName('../..', date)).toBe('sessions_organization_2026-05-09.csv');
    expect(sessionsCsvFileName('  ', date)).toBe('sessions_organization_2026-05-09.csv');
  });
});
