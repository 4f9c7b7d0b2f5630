import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SessionDetail, VrUser, VrUserSession } from '@vrtc/contract';
import i18n from 'i18next';
import { useLocation, useNavigate } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders } from '../../test/render';
import { VrUserSessionsModal } from './VrUserSessionsModal';

const vrUser = {
  id: '00000000-0000-4000-8000-0000000000a1',
  name: 'Ivan Petrov',
  notes: null,
  external_id: null,
  session_count: 1,
  completed_count: 0,
  last_session_at: '2026-05-10T12:00:00.000Z',
  created_at: '2026-05-01T10:00:00.000Z',
} as VrUser;
const names = {
  device_name: 'Quest 1',
  scenario_name: 'Пожарная безопасность',
  scenario_name_en: 'Fire safety',
  module_name: 'Основы',
  module_name_en: 'Basics',
  level_name: 'Вводный',
  level_name_en: 'Intro',
};
const session = {
  id: '00000000-0000-4000-8000-000000000099',
  device_id: null,
  ...names,
  level_number: 2,
  level_revision: 5,
  status: 'disconnected',
  completed_tasks: 1,
  max_tasks: 2,
  duration_seconds: 70,
  started_at: '2026-05-10T12:00:00.000Z',
  ended_at: '2026-05-10T12:01:10.000Z',
  success: false,
  started_by_email: 'staff@example.com',
  late_result: false,
  ended_by_server_as: null,
} satisfies VrUserSession;
const detail: SessionDetail = {
  ...names,
  id: session.id,
  vr_user_name: vrUser.name,
  vr_user_id: vrUser.id,
  device_id: null,
  level_number: 2,
  level_revision: 5,
  status: 'disconnected',
  completed_tasks: 1,
  total_tasks: 2,
  max_tasks: 2,
  duration_seconds: 70,
  started_by_email: 'staff@example.com',
  started_at: '2026-05-10T12:00:00.000Z',
  ended_at: '2026-05-10T12:01:10.000Z',
  success: false,
  selected_options: [],
  late_result: false,
  ended_by_server_as: null,
  tasks: [],
};

describe("a VR user's sessions", () => {
  beforeAll(() => i18n.changeLanguage('en'));

  it("open a session's detail, which says when the headset told no task detail", async () => {
    const user = userEvent.setup();
    mockFetch({
      [`GET /v1/vr-users/${vrUser.id}/sessions`]: {
        sessions: [session],
        total: 1,
        limit: 50,
        offset: 0,
      },
      [`GET /v1/sessions/${session.id}`]: detail,
    });
    renderWithProviders(<VrUserSessionsModal vrUser={vrUser} onClose={() => {}} />);
    // The row says which revision of the level was trained, and so does the detail.
    expect(await screen.findByText('Level 2, revision 5')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Session details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Session of Ivan Petrov' });
    expect(
      await within(dialog).findByText(
        'The headset reported the number of tasks done, without detail for each task.',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('Disconnected')).toBeInTheDocument();
    expect(within(dialog).getByTestId('level-revision')).toHaveTextContent('Level 2, revision 5');
    // Task 1 done without detail, task 2 never reached.
    expect(
      within(dialog)
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('aria-label')),
    ).toEqual(['Task 1 · done', 'Task 2 · not started']);
  });

  it('keeps the open detail in the URL: Back closes it, a link opens it', async () => {
    const user = userEvent.setup();
    mockFetch({
      [`GET /v1/vr-users/${vrUser.id}/sessions`]: {
        sessions: [session],
        total: 1,
        limit: 50,
        offset: 0,
      },
      [`GET /v1/sessions/${session.id}`]: detail,
    });
    const view = renderWithProviders(
      <>
        <VrUserSessionsModal vrUser={vrUser} onClose={() => {}} />
        <Browser />
      </>,
      { route: '/vr-users' },
    );
    await user.click(await screen.findByRole('button', { name: 'Session details' }));
    // Mantine fades the dialog in: wait until the user can see it, not only until it exists.
    await waitFor(() =>
      expect(screen.getByRole('dialog', { name: 'Session of Ivan Petrov' })).toBeVisible(),
    );
    expect(screen.getByTestId('location')).toHaveTextContent(`/vr-users?session=${session.id}`);
    // The browser's Back closes the detail and stays on the screen.
    await user.click(screen.getByRole('button', { name: 'browser back' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Session of Ivan Petrov' })).toBeNull(),
    );
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/vr-users$/);
    view.unmount();

    // A reload (or a shared link) with the id opens the same detail; closing takes it off the URL.
    renderWithProviders(
      <>
        <VrUserSessionsModal vrUser={vrUser} onClose={() => {}} />
        <Browser />
      </>,
      { route: `/vr-users?session=${session.id}` },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Session of Ivan Petrov' });
    expect(await within(dialog).findByText('Disconnected')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/vr-users$/));
  });
});

/** The address bar and the browser's Back button. */
function Browser() {
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
