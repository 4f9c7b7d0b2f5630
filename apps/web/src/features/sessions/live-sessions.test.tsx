import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type {
  ActiveSession,
  HistorySession,
  LiveEvent,
  SessionDetail,
  SessionTask,
} from '@vrtc/contract';
import i18n from 'i18next';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Route, Routes } from 'react-router';
import { LiveEventsProvider } from '../../api/live-events';
import { RequireAuth } from '../../auth/guards';
import { fakeLiveServer, type FakeLiveServer } from '../../test/live';
import { listAnswer } from '../../test/lists';
import { mockFetch, renderWithProviders } from '../../test/render';
import { SessionsPage } from './SessionsPage';

/**
 * What a supervisor sees of the tasks of a session: on the Active card as the headset reports
 * them (through the live stream, at once), and in a session's detail opened from the History.
 */

const me = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'staff@example.com',
  role: 'client' as const,
  organization_id: '00000000-0000-4000-8000-000000000002',
  organization_name: 'Acme',
};
const SESSION = '00000000-0000-4000-8000-000000000099';
const DEVICE = '00000000-0000-4000-8000-0000000000d1';

const ladder: SessionTask = {
  number: 1,
  key: 'ladder',
  name: 'Climb the ladder',
  result: 'passed',
  score: 92,
  duration_ms: 41_000,
  reported_at: '2026-05-10T12:00:41.000Z',
  occurred_at: null,
};
const fire: SessionTask = {
  number: 2,
  key: null,
  name: 'Fire',
  result: 'failed',
  score: 40,
  duration_ms: null,
  reported_at: '2026-05-10T12:01:30.000Z',
  occurred_at: null,
};

const names = {
  vr_user_name: 'Ivan Petrov',
  device_name: 'Quest 1',
  scenario_name: 'Пожарная безопасность',
  scenario_name_en: 'Fire safety',
  module_name: 'Основы',
  module_name_en: 'Basics',
  level_name: 'Вводный',
  level_name_en: 'Intro',
};
const active: ActiveSession = {
  id: SESSION,
  ...names,
  device_id: DEVICE,
  selected_options: [],
  seconds_active: 65,
  completed_tasks: 1,
  max_tasks: 3,
  tasks: [ladder],
  started_at: new Date().toISOString(),
  // Heard from a moment ago, by the server's clock (start + seconds active).
  device_last_seen_at: new Date(Date.now() + 64_000).toISOString(),
};
const ended: HistorySession = {
  id: SESSION,
  ...names,
  device_id: DEVICE,
  vr_user_id: null,
  level_number: 1,
  level_revision: 1,
  status: 'completed',
  completed_tasks: 3,
  total_tasks: 3,
  duration_seconds: 150,
  started_by_email: me.email,
  started_at: '2026-05-10T12:00:00.000Z',
  ended_at: '2026-05-10T12:02:30.000Z',
  success: true,
  selected_options: [],
  late_result: false,
  ended_by_server_as: null,
};
const skipped: SessionTask = {
  ...ladder,
  number: 3,
  key: null,
  name: null,
  result: 'skipped',
  score: null,
};
const detail: SessionDetail = { ...ended, max_tasks: 3, tasks: [ladder, fire, skipped] };

let live: FakeLiveServer;
let activeFetches: number;

function serve() {
  activeFetches = 0;
  return mockFetch({
    'GET /v1/me': me,
    'GET /v1/events': () => live.connect(),
    'GET /v1/sessions/active': () => {
      activeFetches += 1;
      return { active_sessions: [active], offline_after_ms: 15_000, disconnect_after_ms: 60_000 };
    },
    'GET /v1/sessions': ({ url }) => listAnswer('sessions', [ended], url),
    [`GET /v1/sessions/${SESSION}`]: detail,
    'GET /v1/scenarios-full': { scenarios: [] },
  });
}

function renderSessions(route: string) {
  return renderWithProviders(
    <RequireAuth enrolNow={null}>
      <LiveEventsProvider organizationId={me.organization_id}>
        <Routes>
          <Route path="/sessions" element={<SessionsPage />} />
        </Routes>
      </LiveEventsProvider>
    </RequireAuth>,
    { route },
  );
}

const progress = (task: SessionTask, completed: number): LiveEvent => ({
  type: 'session',
  change: 'progress',
  session_id: SESSION,
  device_id: DEVICE,
  organization_id: me.organization_id,
  status: 'active',
  completed_tasks: completed,
  max_tasks: 3,
  task,
});

/** The strip's segments, as a screen reader names them. */
const segments = (card: HTMLElement) =>
  within(within(card).getByRole('list', { name: /Tasks of the session|Задания сессии/ }))
    .getAllByRole('listitem')
    .map((item) => item.getAttribute('aria-label'));

beforeEach(() => {
  live = fakeLiveServer();
});
afterEach(() => live.close());

describe('the Active card, task by task', () => {
  beforeEach(() => i18n.changeLanguage('en'));

  it('shows the current task and a strip of every task, and a task done at once', async () => {
    serve();
    renderSessions('/sessions?tab=active');
    const card = await screen.findByTestId('active-session');
    expect(within(card).getByTestId('current-task')).toHaveTextContent('Task 2 of 3');
    expect(within(card).getByTestId('last-task')).toHaveTextContent(
      'Task 1: Climb the ladder · passed · score 92',
    );
    expect(segments(card)).toEqual([
      'Task 1: Climb the ladder · passed · score 92',
      'Task 2 · in progress',
      'Task 3 · not started',
    ]);
    expect(within(card).getByTestId('task-summary')).toHaveTextContent('1 passed · 2 to go');
    // Not by colour alone: each segment says its state in data and words, with its own mark.
    expect(
      within(card)
        .getAllByRole('listitem')
        .map((item) => item.dataset.state),
    ).toEqual(['passed', 'current', 'pending']);

    // The stream opens: the note says the list is live.
    await waitFor(() => expect(live.open).toBe(true));
    act(() => live.ready());
    expect(await screen.findByText('The list updates live, as things change')).toBeInTheDocument();
    await waitFor(() => expect(activeFetches).toBe(2));

    // The headset reports task 2: the card shows it without reading the list again.
    act(() => live.send(progress(fire, 2)));
    await waitFor(() =>
      expect(within(card).getByTestId('current-task')).toHaveTextContent('Task 3 of 3'),
    );
    expect(within(card).getByTestId('completed-tasks')).toHaveTextContent('2/3');
    expect(segments(card)).toEqual([
      'Task 1: Climb the ladder · passed · score 92',
      'Task 2: Fire · failed · score 40',
      'Task 3 · in progress',
    ]);
    expect(within(card).getByTestId('last-task')).toHaveTextContent(
      'Task 2: Fire · failed · score 40',
    );
    expect(within(card).getByTestId('task-summary')).toHaveTextContent(
      '1 passed · 1 failed · 1 to go',
    );
    expect(activeFetches).toBe(2);
  });

  it('says it in Russian', async () => {
    await i18n.changeLanguage('ru');
    serve();
    renderSessions('/sessions?tab=active');
    const card = await screen.findByTestId('active-session');
    expect(within(card).getByTestId('current-task')).toHaveTextContent('Задание 2 из 3');
    expect(segments(card)).toEqual([
      'Задание 1: Climb the ladder · пройдено · баллы: 92',
      'Задание 2 · выполняется',
      'Задание 3 · не начато',
    ]);
    expect(within(card).getByTestId('task-summary')).toHaveTextContent('пройдено: 1 · осталось: 2');
  });
});

describe("a session's detail", () => {
  beforeEach(() => i18n.changeLanguage('en'));

  it('opens from the History with the task timeline: results, scores, time spent', async () => {
    const user = userEvent.setup();
    const calls = serve();
    renderSessions('/sessions?tab=history');
    const row = await screen.findByRole('row', { name: /Ivan Petrov/ }, { timeout: 5_000 });
    await user.click(within(row).getByRole('button', { name: 'Session details' }));

    const dialog = await screen.findByRole('dialog', { name: 'Session of Ivan Petrov' });
    const timeline = await within(dialog).findByTestId('task-timeline');
    const rows = within(timeline)
      .getAllByRole('row')
      .slice(1)
      .map((tr) =>
        within(tr)
          .getAllByRole('cell')
          .slice(0, 4)
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      ['Task 1: Climb the ladder', 'passed', '92', '0m 41s'],
      ['Task 2: Fire', 'failed', '40', '—'],
      ['Task 3', 'skipped', '—', '0m 41s'],
    ]);
    expect(within(dialog).getByText('Fire safety')).toBeInTheDocument();
    expect(within(dialog).getByText('3/3 (100%)')).toBeInTheDocument();
    expect(within(dialog).getByTestId('task-summary')).toHaveTextContent(
      '1 passed · 1 failed · 1 skipped',
    );
    expect(calls.some((call) => call.url === `/v1/sessions/${SESSION}`)).toBe(true);
  });
});
