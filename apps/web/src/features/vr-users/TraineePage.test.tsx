import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { HistorySession, TrainingRecord, VrUser, VrUserSession } from '@vrtc/contract';
import i18n from 'i18next';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderWithProviders } from '../../test/render';
import { TraineePage } from './TraineePage';

const ID = '00000000-0000-4000-8000-0000000000a1';
const SESSION = '00000000-0000-4000-8000-0000000000c1';
const vrUser: VrUser = {
  id: ID,
  name: 'Ivan Petrov',
  notes: null,
  external_id: null,
  session_count: 3,
  completed_count: 2,
  last_session_at: '2026-05-10T12:00:00.000Z',
  created_at: '2026-05-01T10:00:00.000Z',
};
const names = {
  scenario_name: 'Пожарная безопасность',
  scenario_name_en: 'Fire safety',
  module_name: 'Основы',
  module_name_en: 'Basics',
  level_name: 'Склад',
  level_name_en: 'Depot',
};
const result = (completed: number, success: boolean) => ({
  session_id: SESSION,
  completed_tasks: completed,
  max_tasks: 3,
  success,
  started_at: '2026-05-10T12:00:00.000Z',
  ended_at: '2026-05-10T12:05:00.000Z',
});
const record: TrainingRecord = {
  vr_user: { id: ID, name: 'Ivan Petrov' },
  organization_name: 'Depot North',
  qualifications: [],
  levels: [
    {
      level_id: '00000000-0000-4000-8000-0000000000f1',
      ...names,
      level_number: 1,
      revisions: [2, 3],
      attempts: 3,
      completions: 1,
      best: result(3, true),
      last: result(1, false),
      first_completed_at: '2026-05-09T12:05:00.000Z',
      last_completed_at: '2026-05-09T12:05:00.000Z',
      training_seconds: 900,
    },
  ],
  totals: {
    attempts: 3,
    completions: 1,
    levels_attempted: 1,
    levels_completed: 1,
    training_seconds: 900,
  },
};
const session: VrUserSession = {
  id: SESSION,
  device_id: null,
  device_name: 'Quest 1',
  ...names,
  level_number: 1,
  level_revision: 3,
  status: 'completed',
  completed_tasks: 1,
  max_tasks: 3,
  duration_seconds: 300,
  started_at: '2026-05-10T12:00:00.000Z',
  ended_at: '2026-05-10T12:05:00.000Z',
  success: false,
  started_by_email: 'staff@example.com',
  late_result: false,
  ended_by_server_as: null,
};
const historySession: HistorySession = {
  id: SESSION,
  vr_user_id: ID,
  vr_user_name: 'Ivan Petrov',
  device_id: null,
  device_name: 'Quest 1',
  ...names,
  level_number: 1,
  level_revision: 3,
  status: 'completed',
  completed_tasks: 1,
  total_tasks: 3,
  duration_seconds: 300,
  started_by_email: 'staff@example.com',
  started_at: '2026-05-10T12:00:00.000Z',
  ended_at: '2026-05-10T12:05:00.000Z',
  success: false,
  selected_options: [],
  late_result: false,
  ended_by_server_as: null,
};

function renderPage() {
  const calls = mockFetch({
    [`GET /v1/vr-users/${ID}`]: vrUser,
    [`GET /v1/vr-users/${ID}/record`]: record,
    [`GET /v1/vr-users/${ID}/sessions`]: { sessions: [session], total: 1, limit: 50, offset: 0 },
    'GET /v1/sessions': { sessions: [historySession], total: 1, limit: 500, offset: 0 },
    [`GET /v1/vr-users/${ID}/record/export`]: () =>
      new Response('\uFEFFNo,Scenario\r\n', {
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': 'attachment; filename="training-record_Ivan_Petrov.csv"',
        },
      }),
  });
  renderWithProviders(
    <Routes>
      <Route path="/vr-users/:id" element={<TraineePage />} />
    </Routes>,
    { route: `/vr-users/${ID}` },
  );
  return calls;
}

afterEach(() => vi.restoreAllMocks());

describe("a trainee's page", () => {
  it('shows the record per level with the revisions trained, the totals and the sessions', async () => {
    await i18n.changeLanguage('en');
    renderPage();
    const table = await screen.findByTestId('training-record');
    const [, row] = within(table).getAllByRole('row');
    expect(within(row!).getByText('Fire safety')).toBeInTheDocument();
    expect(within(row!).getByText('Level 1, revisions 2, 3')).toBeInTheDocument();
    expect(within(row!).getByText('3/3')).toBeInTheDocument();
    expect(within(row!).getByText('passed')).toBeInTheDocument();
    expect(within(row!).getByText('not passed')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Ivan Petrov' })).toBeInTheDocument();
    // The table is named for screen readers; on screen the heading says it once, not its caption.
    const caption = table.querySelector('caption')!;
    expect(caption).toHaveTextContent('Training record');
    expect(caption.firstElementChild?.className).toMatch(/VisuallyHidden/);
    // The print view's header names the organisation and the trainee.
    expect(screen.getByTestId('print-header')).toHaveTextContent('Organization: Depot North');
    expect(screen.getByText('Inspector')).toBeInTheDocument();
    // The session timeline below, with the revision each session ran.
    expect(await screen.findByText('Level 1, revision 3')).toBeInTheDocument();
    expect(screen.getAllByText('Quest 1').length).toBeGreaterThan(0);
    // Who started it, in its own column, and the start's date with its time.
    const sessions = screen.getByRole('columnheader', { name: 'Actions' }).closest('table')!;
    expect(within(sessions).getByRole('columnheader', { name: 'Started by' })).toBeInTheDocument();
    expect(within(sessions).getByText('staff@example.com')).toBeInTheDocument();
    expect(within(sessions).getByText(/^\d{2}\/\d{2}\/2026, \d{2}:\d{2}/)).toBeInTheDocument();
  });

  it('says once that a trainee does not exist, with nothing to export, print or retry', async () => {
    await i18n.changeLanguage('en');
    const gone = { status: 404, body: { error: 'not_found', message: 'VR user not found' } };
    mockFetch({
      [`GET /v1/vr-users/${ID}`]: gone,
      [`GET /v1/vr-users/${ID}/record`]: gone,
      [`GET /v1/vr-users/${ID}/sessions`]: gone,
      'GET /v1/sessions': { sessions: [], total: 0, limit: 500, offset: 0 },
    });
    renderWithProviders(
      <Routes>
        <Route path="/vr-users/:id" element={<TraineePage />} />
      </Routes>,
      { route: `/vr-users/${ID}` },
    );
    expect(await screen.findByTestId('trainee-missing')).toHaveTextContent(
      'There is no such VR user',
    );
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    for (const name of ['Export CSV', 'Print', 'Retry'])
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
  });

  it('prints, and downloads the server CSV in the console language', async () => {
    await i18n.changeLanguage('ru');
    const user = userEvent.setup();
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    URL.createObjectURL = vi.fn(() => 'blob:record');
    URL.revokeObjectURL = vi.fn();
    const saved = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const calls = renderPage();
    expect(await screen.findByText('Уровень 1, ревизии 2, 3')).toBeInTheDocument();
    expect(screen.getAllByText('Пожарная безопасность').length).toBeGreaterThan(0);
    await user.click(screen.getByRole('button', { name: 'Печать' }));
    expect(print).toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Экспорт CSV' }));
    await waitFor(() =>
      expect(calls.map((call) => call.url)).toContain(
        // The file in the console's language, times at this computer's offset.
        `/v1/vr-users/${ID}/record/export?lang=ru&utc_offset=${-new Date().getTimezoneOffset() || 0}`,
      ),
    );
    expect(await screen.findByText('Карточка обучения выгружена')).toBeInTheDocument();
    expect(saved).toHaveBeenCalled();
  });
});
