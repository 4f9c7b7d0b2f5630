import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ActiveSession, Device, HistorySession, ScenarioTree, VrUser } from '@vrtc/contract';
import i18n from 'i18next';
import { notifications } from '@mantine/notifications';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Route, Routes, useLocation } from 'react-router';
import { RequireAuth } from '../../auth/guards';
import { writeStoredLogin } from '../../auth/storage';
import { mockFetch, renderWithProviders } from '../../test/render';
import { SessionsPage } from './SessionsPage';

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
  created_at: '2026-05-01T10:00:00.000Z',
} satisfies Device;
const scenario: ScenarioTree = {
  id: '00000000-0000-4000-8000-0000000000c1',
  name: 'Fire safety',
  description: 'Evacuation drills',
  active: true,
  access_expires_at: null,
  modules: [
    {
      id: '00000000-0000-4000-8000-0000000000e1',
      name: 'Basics',
      description: '',
      order_index: 0,
      levels: [
        {
          id: '00000000-0000-4000-8000-0000000000f1',
          name: 'Intro',
          level_number: 1,
          description: 'First steps',
          max_tasks: 3,
          options: [
            {
              id: '00000000-0000-4000-8000-0000000000b1',
              name: 'Smoke',
              description: 'Adds smoke',
              order_index: 0,
            },
          ],
        },
      ],
    },
  ],
};
const active: ActiveSession = {
  id: '00000000-0000-4000-8000-000000000099',
  vr_user_name: 'Ivan Petrov',
  device_name: 'Quest 1',
  device_id: device.id,
  scenario_name: 'Fire safety',
  module_name: 'Basics',
  level_name: 'Intro',
  seconds_active: 65,
  completed_tasks: 1,
  max_tasks: 3,
  started_at: new Date().toISOString(),
};

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

function renderSessions(route = '/sessions') {
  writeStoredLogin({ token: 't', user: me });
  return renderWithProviders(
    <RequireAuth>
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

  it('walks the six steps, refuses to go on without a choice, starts and opens the Active tab', async () => {
    const user = userEvent.setup();
    const calls = mockFetch({
      'GET /v1/me': me,
      'GET /v1/vr-users': { vr_users: [vrUser] },
      'GET /v1/devices': { devices: [device] },
      'GET /v1/scenarios-full': { scenarios: [scenario] },
      'POST /v1/sessions/start': { status: 201, body: { id: active.id } },
      'GET /v1/sessions/active': { active_sessions: [active] },
    });
    renderSessions();

    expect(
      await screen.findByText(/Pick an existing VR user or enter a new name/),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Please select a VR user')).toBeInTheDocument();

    await user.click(screen.getByLabelText(/^VR user/, { selector: 'input' }));
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
    expect(within(summary).getByText('Level 1: Intro')).toBeInTheDocument();
    expect(within(summary).getByText('Smoke')).toBeInTheDocument();

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

  it('says when no headset is waiting, with a link to the devices', async () => {
    const user = userEvent.setup();
    mockFetch({
      'GET /v1/me': me,
      'GET /v1/vr-users': { vr_users: [] },
      'GET /v1/devices': { devices: [] },
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
    const routes: Record<string, unknown> = {
      'GET /v1/me': me,
      'GET /v1/sessions/active': { active_sessions: [active] },
      [`POST /v1/sessions/${active.id}/cancel`]: { id: active.id, status: 'cancelled' },
    };
    mockFetch(routes);
    renderSessions('/sessions?tab=active');
    const card = await screen.findByTestId('active-session');
    await user.click(within(card).getByRole('button', { name: 'Cancel session' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText(/Cancel the session of Ivan Petrov on Quest 1/),
    ).toBeInTheDocument();
    routes['GET /v1/sessions/active'] = { active_sessions: [] };
    await user.click(within(dialog).getByRole('button', { name: 'Cancel session' }));
    expect(await screen.findByText('Session cancelled')).toBeInTheDocument();
    expect(await screen.findByText('No active sessions')).toBeInTheDocument();
  });

  it('history warns instead of exporting when there is nothing to export', async () => {
    const user = userEvent.setup();
    mockFetch({
      'GET /v1/me': me,
      'GET /v1/sessions': { sessions: [] as HistorySession[], total: 0, limit: 500, offset: 0 },
    });
    renderSessions('/sessions?tab=history');
    expect(await screen.findByText('No sessions yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('There is no data to export')).toBeInTheDocument();
  });
});
