import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ActiveSession, Device, HistorySession, ScenarioTree, VrUser } from '@vrtc/contract';
import i18n from 'i18next';
import { notifications } from '@mantine/notifications';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes, useLocation, useNavigate } from 'react-router';
import { RequireAuth } from '../../auth/guards';
import { listAnswer } from '../../test/lists';
import { mockFetch, renderWithProviders, type FakeRoute } from '../../test/render';
import { SessionsPage } from './SessionsPage';
import { presetRange } from './history-presets';
import { requestsTo } from '../../test/screen';

const me = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'staff@example.com',
  role: 'client' as const,
  organization_id: '00000000-0000-4000-8000-000000000002',
  organization_name: 'Acme',
};
const vrUser: VrUser = {
  id: '00000000-0000-4000-8000-0000000000a1',
  name: 'Ivan Petrov',
  notes: null,
  external_id: null,
  session_count: 0,
  completed_count: 0,
  last_session_at: null,
  created_at: '2026-05-01T10:00:00.000Z',
} as VrUser;
const device = {
  id: '00000000-0000-4000-8000-0000000000d1',
  name: 'Quest 1',
  type: 'quest',
  status: 'waiting',
  last_seen: new Date().toISOString(),
  current_session_id: null,
  organization_id: me.organization_id,
  organization_name: 'Acme',
  movement_type: 'slide',
  battery_percent: 90,
  app_version: null,
  pending_reports: 0,
  created_at: '2026-05-01T10:00:00.000Z',
} satisfies Device;
/** Content in both languages: Russian first, English beside it (the English console's text). */
const scenario: ScenarioTree = {
  id: '00000000-0000-4000-8000-0000000000c1',
  name: 'Пожарная безопасность',
  name_en: 'Fire safety',
  description: 'Учебная эвакуация',
  description_en: 'Evacuation drills',
  active: true,
  access_expires_at: null,
  modules: [
    {
      id: '00000000-0000-4000-8000-0000000000e1',
      name: 'Основы',
      name_en: 'Basics',
      description: '',
      description_en: null,
      order_index: 0,
      levels: [
        {
          id: '00000000-0000-4000-8000-0000000000f1',
          name: 'Вводный',
          name_en: 'Intro',
          level_number: 1,
          description: 'Первые шаги',
          description_en: 'First steps',
          max_tasks: 3,
          options: [
            {
              id: '00000000-0000-4000-8000-0000000000b1',
              name: 'Дым',
              name_en: 'Smoke',
              description: 'Добавляет дым',
              description_en: 'Adds smoke',
              order_index: 0,
            },
          ],
        },
      ],
    },
  ],
};
const thresholds = { offline_after_ms: 15_000, disconnect_after_ms: 60_000 };
const active: ActiveSession = {
  id: '00000000-0000-4000-8000-000000000099',
  vr_user_name: 'Ivan Petrov',
  device_name: 'Quest 1',
  device_id: device.id,
  scenario_name: 'Пожарная безопасность',
  scenario_name_en: 'Fire safety',
  module_name: 'Основы',
  module_name_en: 'Basics',
  level_name: 'Вводный',
  level_name_en: 'Intro',
  selected_options: [],
  seconds_active: 65,
  completed_tasks: 1,
  max_tasks: 3,
  tasks: [],
  started_at: new Date().toISOString(),
  // Heard from a moment ago, by the server's clock (start + seconds active).
  device_last_seen_at: new Date(Date.now() + 64_000).toISOString(),
};

/** An ended session of the History; `n` spreads them over the days of May 2026. */
function ended(n: number, overrides: Partial<HistorySession> = {}): HistorySession {
  const day = String(n).padStart(2, '0');
  return {
    id: `00000000-0000-4000-8000-0000000001${day}`,
    vr_user_name: n % 2 ? 'Ivan Petrov' : 'Olga Smirnova',
    vr_user_id: n % 2 ? vrUser.id : '00000000-0000-4000-8000-0000000000a2',
    device_name: 'Quest 1',
    device_id: device.id,
    scenario_name: 'Пожарная безопасность',
    scenario_name_en: 'Fire safety',
    module_name: 'Основы',
    module_name_en: 'Basics',
    level_name: 'Вводный',
    level_name_en: 'Intro',
    level_number: 1,
    level_revision: 4,
    status: n % 3 ? 'completed' : 'cancelled',
    completed_tasks: 3,
    total_tasks: 3,
    duration_seconds: 90,
    started_by_email: me.email,
    started_at: `2026-05-${day}T09:00:00.000Z`,
    ended_at: `2026-05-${day}T09:01:30.000Z`,
    success: n % 3 !== 0,
    selected_options: [],
    late_result: false,
    ended_by_server_as: null,
    ...overrides,
  } as HistorySession;
}

/** Sessions 1…12 (one a day), answered as the server would: filtered, newest first, paged. */
const history = Array.from({ length: 12 }, (_, index) => ended(index + 1));
const historyRoute = ({ url }: { url: URL }) =>
  listAnswer('sessions', history, url, {
    defaultSort: 'started_at',
    defaultOrder: 'desc',
    filters: {
      status: (row, value) => row.status === value,
      vr_user_id: (row, value) => row.vr_user_id === value,
      device_id: (row, value) => row.device_id === value,
      from: (row, value) => row.started_at.slice(0, 10) >= value,
      to: (row, value) => row.started_at.slice(0, 10) <= value,
    },
  });

function Where() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <output data-testid="location">{location.pathname + location.search}</output>
      <button type="button" onClick={() => void navigate(-1)}>
        browser back
      </button>
    </>
  );
}

function renderSessions(route = '/sessions') {
  return renderWithProviders(
    <RequireAuth enrolNow={null}>
      <Routes>
        <Route path="/sessions" element={<SessionsPage />} />
      </Routes>
      <Where />
    </RequireAuth>,
    { route },
  );
}

async function choose(user: ReturnType<typeof userEvent.setup>, name: RegExp) {
  await user.click(await screen.findByRole('radio', { name }));
}

describe('sessions screen', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });
  // Toasts live in a module-wide store (at most 5 shown): each test starts without old ones.
  beforeEach(() => {
    notifications.clean();
  });

  it("keeps the wizard's step in the URL: Back goes to the previous step, a reload stays with its choices", async () => {
    const user = userEvent.setup();
    mockFetch({
      'GET /v1/me': me,
      'GET /v1/vr-users': ({ url }) =>
        listAnswer('vr_users', [vrUser], url, { search: ['name', 'notes'], defaultSort: 'name' }),
      'GET /v1/devices': ({ url }) =>
        listAnswer('devices', [device], url, {
          defaultSort: 'name',
          filters: { status: (row, value) => row.status === value },
        }),
      'GET /v1/scenarios-full': { scenarios: [scenario] },
    });
    const view = renderSessions();
    await user.type(await screen.findByLabelText(/^VR user/, { selector: 'input' }), 'iva');
    await user.click(await screen.findByRole('option', { name: 'Ivan Petrov', hidden: true }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(
      await screen.findByText('Choose a headset that is switched on and waiting.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/sessions?step=device');

    // The browser's Back is the wizard's Back: the first step again, its choice kept.
    await user.click(screen.getByRole('button', { name: 'browser back' }));
    expect(
      await screen.findByText(/Pick an existing VR user or enter a new name/),
    ).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/sessions$/);
    expect(screen.getByTestId('step-choice-vrUser')).toHaveTextContent('Ivan Petrov');
    view.unmount();

    // A reload shows the step the URL names, with the choices made before it.
    const reloaded = renderSessions('/sessions?step=device');
    expect(
      await screen.findByText('Choose a headset that is switched on and waiting.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('step-choice-vrUser')).toHaveTextContent('Ivan Petrov');
    reloaded.unmount();

    // A step opened without the choices before it (another tab, a shared link) shows the first
    // step that lacks one, never a step with nothing to offer.
    sessionStorage.clear();
    renderSessions('/sessions?step=level');
    expect(
      await screen.findByText(/Pick an existing VR user or enter a new name/),
    ).toBeInTheDocument();
  });

  it('walks the six steps, refuses to go on without a choice, starts and opens the Active tab', async () => {
    const user = userEvent.setup();
    const calls = mockFetch({
      'GET /v1/me': me,
      'GET /v1/vr-users': ({ url }) =>
        listAnswer('vr_users', [vrUser], url, { search: ['name', 'notes'], defaultSort: 'name' }),
      'GET /v1/devices': ({ url }) =>
        listAnswer('devices', [device], url, {
          defaultSort: 'name',
          filters: { status: (row, value) => row.status === value },
        }),
      'GET /v1/scenarios-full': { scenarios: [scenario] },
      'POST /v1/sessions/start': {
        status: 201,
        body: {
          ...ended(1, { id: active.id, status: 'active', ended_at: null, success: null }),
          completed_tasks: 0,
          duration_seconds: null,
          max_tasks: 3,
        },
      },
      'GET /v1/sessions/active': { active_sessions: [active], ...thresholds },
    });
    renderSessions();

    expect(
      await screen.findByText(/Pick an existing VR user or enter a new name/),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Please select a VR user')).toBeInTheDocument();

    // The VR user picker asks the server for the names matching what is typed.
    await user.type(screen.getByLabelText(/^VR user/, { selector: 'input' }), 'iva');
    await waitFor(() =>
      expect(requestsTo(calls, '/v1/vr-users')).toContainEqual({
        q: 'iva',
        limit: '20',
        sort: 'name',
      }),
    );
    await user.click(await screen.findByRole('option', { name: 'Ivan Petrov', hidden: true }));
    await user.click(screen.getByRole('button', { name: 'Next' }));

    expect(
      await screen.findByText('Choose a headset that is switched on and waiting.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Please select a device')).toBeInTheDocument();
    await choose(user, /Quest 1/);
    await user.click(screen.getByRole('button', { name: 'Next' }));

    await choose(user, /Fire safety/);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await choose(user, /Basics/);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Please select a level')).toBeInTheDocument();
    await choose(user, /Level 1: Intro/);
    await user.click(screen.getByRole('button', { name: 'Next' }));

    await user.click(screen.getByRole('checkbox', { name: /Smoke/ }));
    const summary = screen.getByText('Summary').closest('div')!;
    expect(within(summary).getByText('Ivan Petrov')).toBeInTheDocument();
    // The stepper shows what each step picked, on a laptop too.
    expect(screen.getByTestId('step-choice-vrUser')).toHaveTextContent('Ivan Petrov');
    expect(screen.getByTestId('step-choice-level')).toHaveTextContent('Intro');
    expect(within(summary).getByText('Level 1: Intro')).toBeInTheDocument();
    expect(within(summary).getByText('Smoke')).toBeInTheDocument();

    // Waiting headsets only, as many as one answer holds.
    expect(requestsTo(calls, '/v1/devices')[0]).toEqual({
      status: 'waiting',
      limit: '500',
      sort: 'name',
    });

    await user.click(screen.getByRole('button', { name: 'Start session' }));
    expect(await screen.findByText('Session started')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      device_id: device.id,
      level_id: scenario.modules[0]!.levels[0]!.id,
      vr_user_name: 'Ivan Petrov',
      vr_user_id: vrUser.id,
      selected_options: ['00000000-0000-4000-8000-0000000000b1'],
    });

    // The Active tab opens with the running session.
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/sessions?tab=active'),
    );
    const card = await screen.findByTestId('active-session');
    expect(within(card).getByText('Basics - Intro')).toBeInTheDocument();
    expect(within(card).getByText('1/3')).toBeInTheDocument();
    expect(within(card).getByText(/^1m \d+s$/)).toBeInTheDocument();

    // Back on Start, the wizard is on step 1 with nothing chosen.
    await user.click(screen.getByRole('tab', { name: 'Start' }));
    expect(
      await screen.findByText(/Pick an existing VR user or enter a new name/),
    ).toBeInTheDocument();
    expect(screen.getByLabelText(/^VR user/, { selector: 'input' })).toHaveValue('');
  }, 60_000);

  it('finds a trainee by the LMS learner id and shows it beside the name', async () => {
    const user = userEvent.setup();
    const namesake: VrUser = { ...vrUser, id: '00000000-0000-4000-8000-0000000000a2' };
    const learner: VrUser = { ...vrUser, external_id: 'LMS-4711' };
    const calls = mockFetch({
      'GET /v1/me': me,
      'GET /v1/vr-users': ({ url }) =>
        listAnswer('vr_users', [learner, namesake], url, {
          search: ['name', 'notes', 'external_id'],
          defaultSort: 'name',
        }),
      'GET /v1/devices': ({ url }) => listAnswer('devices', [device], url, {}),
      'GET /v1/scenarios-full': { scenarios: [scenario] },
      'GET /v1/sessions/active': { active_sessions: [], ...thresholds },
    });
    renderSessions();

    const picker = await screen.findByLabelText(/^VR user/, { selector: 'input' });
    expect(picker).toHaveAttribute('placeholder', 'Start typing a name or external id');
    await user.type(picker, '4711');
    await waitFor(() =>
      expect(requestsTo(calls, '/v1/vr-users')).toContainEqual({
        q: '4711',
        limit: '20',
        sort: 'name',
      }),
    );
    await user.click(
      await screen.findByRole('option', { name: 'Ivan Petrov (LMS-4711)', hidden: true }),
    );
    expect(picker).toHaveValue('Ivan Petrov (LMS-4711)');
    expect(screen.queryByRole('option', { name: 'Ivan Petrov', hidden: true })).toBeNull();
  }, 60_000);

  it('says what is missing in one toast at a time, gone as soon as it is chosen', async () => {
    const user = userEvent.setup();
    mockFetch({
      'GET /v1/me': me,
      'GET /v1/vr-users': ({ url }) =>
        listAnswer('vr_users', [vrUser], url, { search: ['name', 'notes'], defaultSort: 'name' }),
      'GET /v1/devices': ({ url }) =>
        listAnswer('devices', [device], url, {
          defaultSort: 'name',
          filters: { status: (row, value) => row.status === value },
        }),
      'GET /v1/scenarios-full': { scenarios: [scenario] },
    });
    renderSessions();
    await screen.findByText(/Pick an existing VR user or enter a new name/);
    const next = () => user.click(screen.getByRole('button', { name: 'Next' }));
    // Well before a toast's own 5 s: gone because its cause is, not because it timed out.
    const gone = (text: string) =>
      waitFor(() => expect(screen.queryByText(text)).not.toBeInTheDocument(), { timeout: 2000 });
    // A replaced toast may still be sliding out; then only one is left.
    const once = (text: string) =>
      waitFor(() => expect(screen.getAllByText(text)).toHaveLength(1), { timeout: 2000 });

    await next();
    await next();
    await next();
    await once('Please select a VR user');

    // Another way of naming the VR user: that message no longer applies, the new one replaces it.
    await user.click(screen.getByRole('radio', { name: 'New VR user' }));
    await gone('Please select a VR user');
    await next();
    await next();
    await once("Please enter the VR user's name");
    await user.type(screen.getByRole('textbox', { name: /VR user/ }), 'Anna');
    await gone("Please enter the VR user's name");

    await next();
    await screen.findByText('Choose a headset that is switched on and waiting.');
    await next();
    await next();
    await once('Please select a device');
    await choose(user, /Quest 1/);
    await gone('Please select a device');
  }, 60_000);

  it('goes back to the headsets, refreshed, when the chosen one is taken before the start', async () => {
    const user = userEvent.setup();
    const other = { ...device, id: '00000000-0000-4000-8000-0000000000d2', name: 'Pico 2' };
    let waiting = [device];
    const calls = mockFetch({
      'GET /v1/me': me,
      'GET /v1/vr-users': ({ url }) => listAnswer('vr_users', [vrUser], url, {}),
      'GET /v1/devices': ({ url }) => listAnswer('devices', waiting, url, { defaultSort: 'name' }),
      'GET /v1/scenarios-full': { scenarios: [scenario] },
      'POST /v1/sessions/start': () => {
        // Another console started a session on it meanwhile.
        waiting = [other];
        return {
          status: 409,
          body: { error: 'device_busy', message: 'Device already has an active session' },
        };
      },
    });
    renderSessions();
    await user.click(await screen.findByLabelText(/^VR user/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Ivan Petrov', hidden: true }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await choose(user, /Quest 1/);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await choose(user, /Fire safety/);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await choose(user, /Basics/);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await choose(user, /Level 1: Intro/);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const devicesBefore = requestsTo(calls, '/v1/devices').length;
    await user.click(screen.getByRole('button', { name: 'Start session' }));

    // Back on the headset step, nothing chosen, the list asked again, and the reason in words.
    expect(
      await screen.findByText('Choose a headset that is switched on and waiting.'),
    ).toBeInTheDocument();
    const reason =
      'Another session is already running on this headset. Choose another headset: the list has been refreshed.';
    expect(await screen.findByRole('alert')).toHaveTextContent(reason);
    expect(await screen.findByRole('radio', { name: /Pico 2/ })).not.toBeChecked();
    expect(screen.queryByRole('radio', { name: /Quest 1/ })).not.toBeInTheDocument();
    expect(requestsTo(calls, '/v1/devices').length).toBeGreaterThan(devicesBefore);
    expect(screen.queryByText('Device already has an active session')).not.toBeInTheDocument();
    // The other choices stand: a new headset is enough to start.
    await choose(user, /Pico 2/);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('radio', { name: /Fire safety/ })).toBeChecked();
  }, 60_000);

  it('says in Russian why a start was refused, with the content in Russian', async () => {
    await i18n.changeLanguage('ru');
    try {
      const user = userEvent.setup();
      mockFetch({
        'GET /v1/me': me,
        'GET /v1/vr-users': ({ url }) => listAnswer('vr_users', [vrUser], url, {}),
        'GET /v1/devices': ({ url }) => listAnswer('devices', [device], url, {}),
        'GET /v1/scenarios-full': { scenarios: [scenario] },
        'POST /v1/sessions/start': {
          status: 409,
          body: { error: 'device_not_waiting', message: 'Device is offline' },
        },
      });
      renderSessions();
      await user.click(await screen.findByLabelText(/^VR-пользователь/, { selector: 'input' }));
      await user.click(await screen.findByRole('option', { name: 'Ivan Petrov', hidden: true }));
      await user.click(screen.getByRole('button', { name: 'Далее' }));
      await choose(user, /Quest 1/);
      await user.click(screen.getByRole('button', { name: 'Далее' }));
      await choose(user, /Пожарная безопасность/);
      expect(screen.queryByText('Fire safety')).not.toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Далее' }));
      await choose(user, /Основы/);
      await user.click(screen.getByRole('button', { name: 'Далее' }));
      await choose(user, /Уровень 1: Вводный/);
      await user.click(screen.getByRole('button', { name: 'Далее' }));
      expect(await screen.findByRole('checkbox', { name: /Дым/ })).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Запустить сессию' }));
      expect(await screen.findByRole('alert')).toHaveTextContent(
        'Шлем не в режиме ожидания: он выключен или ещё не готов. Выберите другой шлем: список обновлён.',
      );
    } finally {
      await i18n.changeLanguage('en');
    }
  }, 60_000);

  it('says when no headset is waiting, with a link to the devices', async () => {
    const user = userEvent.setup();
    mockFetch({
      'GET /v1/me': me,
      'GET /v1/vr-users': { vr_users: [], total: 0, limit: 20, offset: 0 },
      'GET /v1/devices': { devices: [], total: 0, limit: 500, offset: 0 },
      'GET /v1/scenarios-full': { scenarios: [scenario] },
    });
    renderSessions();
    await user.click(await screen.findByRole('radio', { name: 'New VR user' }));
    await user.type(screen.getByLabelText(/Name of the new VR user/), 'Olga');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText(/No headset is waiting right now/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Devices' })).toHaveAttribute('href', '/devices');
  });

  it('cancels an active session after confirmation', async () => {
    const user = userEvent.setup();
    const routes: Record<string, FakeRoute> = {
      'GET /v1/me': me,
      'GET /v1/sessions/active': { active_sessions: [active], ...thresholds },
      [`POST /v1/sessions/${active.id}/cancel`]: ended(1, { id: active.id, status: 'cancelled' }),
    };
    mockFetch(routes);
    renderSessions('/sessions?tab=active');
    const card = await screen.findByTestId('active-session');
    await user.click(within(card).getByRole('button', { name: 'Cancel session' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText(/Cancel the session of Ivan Petrov on Quest 1/),
    ).toBeInTheDocument();
    routes['GET /v1/sessions/active'] = { active_sessions: [], ...thresholds };
    await user.click(within(dialog).getByRole('button', { name: 'Cancel session' }));
    expect(await screen.findByText('Session cancelled')).toBeInTheDocument();
    expect(await screen.findByText('No active sessions')).toBeInTheDocument();
  });

  it('history warns instead of exporting when there is nothing to export', async () => {
    const user = userEvent.setup();
    const calls = mockFetch({
      'GET /v1/me': me,
      'GET /v1/sessions': { sessions: [] as HistorySession[], total: 0, limit: 10, offset: 0 },
    });
    renderSessions('/sessions?tab=history');
    expect(await screen.findByText('No sessions yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('There is no data to export')).toBeInTheDocument();
    expect(calls.some((call) => call.url.startsWith('/v1/sessions/export'))).toBe(false);
  });

  it('history shows a late result as its final result, marked as arrived later', async () => {
    const late = ended(1, { late_result: true, ended_by_server_as: 'disconnected' });
    mockFetch({
      'GET /v1/me': me,
      'GET /v1/sessions': { sessions: [late, ended(2)], total: 2, limit: 10, offset: 0 },
    });
    renderSessions('/sessions?tab=history');
    const rows = await screen.findAllByRole('row');
    const marked = within(rows[1]!).getByText('result arrived later');
    expect(within(rows[1]!).getByText('Completed')).toBeInTheDocument();
    expect(marked.closest('[data-late-result]')).toHaveAttribute(
      'title',
      "The server had ended the session as Disconnected; the headset's result arrived later.",
    );
    expect(within(rows[2]!).queryByText('result arrived later')).not.toBeInTheDocument();
    // Each row names the level's revision the session ran.
    expect(within(rows[1]!).getByText('Level 1, revision 4')).toBeInTheDocument();
  });

  it('history asks the server for each page and filter, and keeps them in the URL', async () => {
    const user = userEvent.setup();
    const calls = mockFetch({
      'GET /v1/me': me,
      'GET /v1/sessions': historyRoute,
      'GET /v1/scenarios-full': { scenarios: [scenario] },
      'GET /v1/vr-users': ({ url }) =>
        listAnswer('vr_users', [vrUser], url, { search: ['name'], defaultSort: 'name' }),
      'GET /v1/devices': ({ url }) => listAnswer('devices', [device], url, { search: ['name'] }),
    });
    renderSessions('/sessions?tab=history');
    await screen.findByText('12 rows');
    expect(requestsTo(calls, '/v1/sessions')).toEqual([
      { limit: '10', offset: '0', sort: 'started_at', order: 'desc' },
    ]);
    expect(screen.getAllByRole('row')).toHaveLength(11);

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(3));
    expect(requestsTo(calls, '/v1/sessions').at(-1)).toMatchObject({ offset: '10' });
    expect(screen.getByTestId('location')).toHaveTextContent('/sessions?tab=history&page=2');

    // Oldest first.
    await user.click(screen.getByRole('button', { name: 'Started' }));
    await waitFor(() =>
      expect(requestsTo(calls, '/v1/sessions').at(-1)).toEqual({
        limit: '10',
        offset: '0',
        sort: 'started_at',
        order: 'asc',
      }),
    );

    await user.click(screen.getByLabelText('Status', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Cancelled', hidden: true }));
    await screen.findByText('4 rows');
    expect(requestsTo(calls, '/v1/sessions').at(-1)).toMatchObject({
      status: 'cancelled',
      offset: '0',
    });

    await user.type(screen.getByLabelText('VR user', { selector: 'input' }), 'ivan');
    await user.click(await screen.findByRole('option', { name: 'Ivan Petrov', hidden: true }));
    await screen.findByText('2 rows');
    expect(requestsTo(calls, '/v1/sessions').at(-1)).toMatchObject({
      status: 'cancelled',
      vr_user_id: vrUser.id,
    });
    expect(screen.getByTestId('location')).toHaveTextContent(
      `/sessions?tab=history&sort=started_at&order=asc&status=cancelled&vr_user_id=${vrUser.id}`,
    );

    // The headset and scenario pickers filter too.
    await user.click(screen.getByLabelText('Headset', { selector: 'input' }));
    expect(
      await screen.findByRole('option', { name: 'Quest 1', hidden: true }),
    ).toBeInTheDocument();
    await user.click(screen.getByLabelText('Scenario', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Fire safety', hidden: true }));
    await waitFor(() =>
      expect(requestsTo(calls, '/v1/sessions').at(-1)).toMatchObject({
        scenario_id: scenario.id,
      }),
    );

    // Nothing left: the empty state clears every filter.
    await user.click(screen.getByLabelText('Status', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Timeout', hidden: true }));
    expect(await screen.findByText('No sessions match these filters.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear the filters' }));
    await screen.findByText('12 rows');
    expect(requestsTo(calls, '/v1/sessions').at(-1)).toEqual({
      limit: '10',
      offset: '0',
      sort: 'started_at',
      order: 'asc',
    });
  }, 60_000);

  it("history keeps the open session's detail in the URL: Back closes it, a link opens it", async () => {
    const user = userEvent.setup();
    mockFetch({ 'GET /v1/me': me, 'GET /v1/sessions': historyRoute });
    const view = renderSessions('/sessions?tab=history');
    const rows = await screen.findAllByRole('row');
    await user.click(within(rows[1]!).getAllByRole('cell')[0]!);
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    const opened = screen.getByTestId('location').textContent ?? '';
    expect(opened).toMatch(/^\/sessions\?tab=history&session=[0-9a-f-]{36}$/);
    await user.click(screen.getByRole('button', { name: 'browser back' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/sessions\?tab=history$/);
    view.unmount();

    renderSessions(opened);
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
  });

  it('history presets set the days in the URL and show which is chosen', async () => {
    const user = userEvent.setup();
    const calls = mockFetch({
      'GET /v1/me': me,
      'GET /v1/sessions': historyRoute,
      'GET /v1/scenarios-full': { scenarios: [scenario] },
    });
    renderSessions('/sessions?tab=history&status=completed');
    await screen.findByRole('group', { name: 'Quick choice of days' });
    const presets = within(screen.getByRole('group', { name: 'Quick choice of days' }));
    expect(presets.getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Today',
      '7 days',
      '30 days',
      'This month',
    ]);

    await user.click(presets.getByRole('button', { name: '7 days' }));
    const week = presetRange('7d');
    await waitFor(() =>
      expect(requestsTo(calls, '/v1/sessions').at(-1)).toMatchObject({
        status: 'completed',
        from: week.from,
        to: week.to,
      }),
    );
    expect(screen.getByTestId('location')).toHaveTextContent(
      `/sessions?tab=history&status=completed&from=${week.from}&to=${week.to}`,
    );
    expect(presets.getByRole('button', { name: '7 days' })).toHaveAttribute('aria-pressed', 'true');
    expect(presets.getByRole('button', { name: '30 days' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );

    await user.click(presets.getByRole('button', { name: 'This month' }));
    const month = presetRange('month');
    expect(screen.getByTestId('location')).toHaveTextContent(`from=${month.from}&to=${month.to}`);
    expect(presets.getByRole('button', { name: 'This month' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(presets.getByRole('button', { name: '7 days' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });

  it('history presets are worded in Russian', async () => {
    await i18n.changeLanguage('ru');
    try {
      mockFetch({
        'GET /v1/me': me,
        'GET /v1/sessions': historyRoute,
        'GET /v1/scenarios-full': { scenarios: [scenario] },
      });
      renderSessions('/sessions?tab=history');
      const group = await screen.findByRole('group', { name: 'Быстрый выбор дат' });
      expect(
        within(group)
          .getAllByRole('button')
          .map((button) => button.textContent),
      ).toEqual(['Сегодня', '7 дней', '30 дней', 'Этот месяц']);
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  describe('history export', () => {
    let saved: { href: string; download: string } | undefined;
    let blobs: Blob[];
    beforeEach(() => {
      saved = undefined;
      blobs = [];
      URL.createObjectURL = vi.fn((blob: Blob) => {
        blobs.push(blob);
        return 'blob:history';
      });
      URL.revokeObjectURL = vi.fn();
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
        this: HTMLAnchorElement,
      ) {
        saved = { href: this.href, download: this.download };
      });
    });
    afterEach(() => vi.restoreAllMocks());

    it('downloads the server file with the filters of the URL', async () => {
      const user = userEvent.setup();
      const file = '\uFEFFNo,VR User\r\n1,Ivan Petrov\r\n';
      const name = 'sessions_Acme_2026-05-31_completed_2026-05-01..2026-05-31_vr-user.csv';
      const calls = mockFetch({
        'GET /v1/me': me,
        'GET /v1/sessions': historyRoute,
        'GET /v1/scenarios-full': { scenarios: [scenario] },
        'GET /v1/vr-users': { vr_users: [], total: 0, limit: 20, offset: 0 },
        'GET /v1/devices': { devices: [], total: 0, limit: 20, offset: 0 },
        'GET /v1/sessions/export': () =>
          new Response(file, {
            headers: {
              'content-type': 'text/csv; charset=utf-8',
              'content-disposition': `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`,
            },
          }),
      });
      renderSessions(
        `/sessions?tab=history&status=completed&from=2026-05-01&to=2026-05-31&vr_user_id=${vrUser.id}`,
      );
      await screen.findByText('4 rows');
      // The VR user of a link is named from the sessions it matched.
      expect(screen.getByLabelText('VR user', { selector: 'input' })).toHaveValue('Ivan Petrov');
      expect(screen.getByRole('button', { name: /Days/ })).toHaveTextContent(
        '01/05/2026 – 31/05/2026',
      );

      await user.click(screen.getByRole('button', { name: 'Export CSV' }));
      expect(await screen.findByText('Exported 4 sessions')).toBeInTheDocument();
      // The file in the (English) console's language, times at this computer's offset.
      expect(requestsTo(calls, '/v1/sessions/export')).toEqual([
        {
          status: 'completed',
          from: '2026-05-01',
          to: '2026-05-31',
          vr_user_id: vrUser.id,
          lang: 'en',
          utc_offset: String(-new Date().getTimezoneOffset() || 0),
        },
      ]);
      expect(saved).toEqual({ href: 'blob:history', download: name });
      // The server's bytes, byte-order mark included.
      const bytes = await blobs[0]!.arrayBuffer();
      expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)).toBe(file);
      // Nothing is fetched page by page for the file.
      expect(requestsTo(calls, '/v1/sessions')).toHaveLength(1);
    });

    it('says when the export fails', async () => {
      const user = userEvent.setup();
      mockFetch({
        'GET /v1/me': me,
        'GET /v1/sessions': historyRoute,
        'GET /v1/scenarios-full': { scenarios: [scenario] },
        'GET /v1/sessions/export': { status: 503, body: {} },
      });
      renderSessions('/sessions?tab=history');
      await screen.findByText('12 rows');
      await user.click(screen.getByRole('button', { name: 'Export CSV' }));
      expect(await screen.findByText('Failed to export the sessions')).toBeInTheDocument();
      expect(saved).toBeUndefined();
    });
  });
});
