import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import i18n from 'i18next';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listAnswer } from '../../test/lists';
import { mockFetch, renderWithProviders, type FakeRequest } from '../../test/render';
import { OrganizationsPage } from './OrganizationsPage';
import { requestsTo } from '../../test/screen';

const UI_TIMEOUT = 60_000;

const clinic = {
  id: '00000000-0000-4000-8000-0000000000a1',
  name: 'City Clinic',
  active: true,
  mfa_required: false,
  created_at: '2026-04-01T10:00:00.000Z',
  stats: {
    total_users: 3,
    total_vr_users: 12,
    total_sessions: 40,
    active_sessions: 1,
    success_rate: 62.5,
    total_devices: 5,
    online_devices: 2,
  },
};
const academy = {
  ...clinic,
  id: '00000000-0000-4000-8000-0000000000a2',
  name: 'Fire Academy',
  active: false,
  stats: {
    ...clinic.stats,
    total_sessions: 10,
    active_sessions: 0,
    total_devices: 3,
    online_devices: 0,
  },
};

/** The server's list: the page's organisations, and the summary of all of them. */
const summary = {
  total: 57,
  active: 41,
  total_sessions: 1234,
  total_devices: 80,
  online_devices: 9,
};
const organizationsRoute = ({ url }: FakeRequest) => ({
  ...listAnswer(
    'organizations',
    [clinic, academy].map((organization) => ({
      ...organization,
      total_sessions: organization.stats.total_sessions,
    })),
    url,
    { search: ['name'], defaultSort: 'name' },
  ),
  summary,
});

describe('admin organisations screen', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
    await i18n.loadNamespaces('adminOrganizations');
  });
  // Toasts live in a module-wide store: none may leak into the next test.
  afterEach(() => notifications.clean());

  it(
    "shows the summary's figures, requires a name, and opens the 30-day analytics of a row",
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = mockFetch({
        'GET /v1/admin/organizations': organizationsRoute,
        [`GET /v1/admin/organizations/${clinic.id}/analytics`]: {
          days: 30,
          start_date: '2026-02-17',
          end_date: '2026-03-18',
          top_vr_users: [
            { vr_user_id: null, name: 'Ivan Petrov', session_count: 7, success_rate: 71.4 },
          ],
          device_usage: [
            { device_id: null, device_name: 'Headset A', device_type: 'pico', session_count: 9 },
          ],
          scenario_stats: [
            {
              scenario_name: 'Fire safety',
              scenario_name_en: null,
              session_count: 9,
              success_rate: 55.6,
              average_completion: 80,
            },
          ],
        },
      });
      renderWithProviders(<OrganizationsPage />);

      await screen.findByText('City Clinic', {}, { timeout: 5000 });
      // A stat card by its label (the page title has the same words).
      const card = async (label: string) => {
        const labels = await screen.findAllByText(label, {}, { timeout: 5000 });
        const inCard = labels.map((node) => node.closest('.mantine-Card-root')).find(Boolean);
        return within(inCard as HTMLElement);
      };
      // The cards count every organisation (the server's summary), not the page's rows.
      expect((await card('Organizations')).getByText('57')).toBeInTheDocument();
      expect((await card('Active')).getByText('41')).toBeInTheDocument();
      expect((await card('Total sessions')).getByText('1234')).toBeInTheDocument();
      expect((await card('Devices online / total')).getByText('9 / 80')).toBeInTheDocument();
      expect(requestsTo(calls, '/v1/admin/organizations')).toEqual([
        { include_stats: 'true', limit: '10', offset: '0', sort: 'name', order: 'asc' },
      ]);

      await user.click(screen.getByRole('button', { name: 'Add organization' }));
      const dialog = await screen.findByRole('dialog', { name: 'New organization' });
      expect(within(dialog).getByLabelText(/^Name/)).toHaveFocus();
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(await within(dialog).findByText('Organization name is required')).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

      await user.click(screen.getByText('City Clinic'));
      const analytics = await screen.findByRole('dialog', { name: /City Clinic/ });
      expect(within(analytics).getByText('Last 30 days')).toBeInTheDocument();
      expect(await within(analytics).findByText('Ivan Petrov')).toBeInTheDocument();
      // Which days, as the statistics count them.
      expect(within(analytics).getByTestId('analytics-range')).toHaveTextContent(
        '17/02/2026 – 18/03/2026, calendar days in UTC',
      );
      expect(within(analytics).getByText('71.4%')).toBeInTheDocument();
      expect(within(analytics).getByText('Headset A')).toBeInTheDocument();
      expect(within(analytics).getByText('Pico')).toBeInTheDocument();
      expect(within(analytics).getByText('9 sessions · 55.6% success')).toBeInTheDocument();
      expect(
        calls.some((call) => call.url === `/v1/admin/organizations/${clinic.id}/analytics?days=30`),
      ).toBe(true);
    },
    UI_TIMEOUT,
  );

  it('says when the organisations cannot be loaded', async () => {
    mockFetch({ 'GET /v1/admin/organizations': { status: 503, body: {} } });
    renderWithProviders(<OrganizationsPage />);
    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(
      'Failed to load organizations',
    );
  });

  it('sorts by a figure and searches the name on the server', async () => {
    const user = userEvent.setup({ delay: null });
    const calls = mockFetch({ 'GET /v1/admin/organizations': organizationsRoute });
    renderWithProviders(<OrganizationsPage />, { route: '/admin/organizations' });
    await screen.findByText('Fire Academy', {}, { timeout: 5000 });
    const names = () =>
      screen
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[0]!.textContent);
    expect(names()).toEqual(['City Clinic', 'Fire Academy']);

    await user.click(screen.getByRole('button', { name: 'Sessions' }));
    expect(requestsTo(calls, '/v1/admin/organizations').at(-1)).toEqual({
      include_stats: 'true',
      limit: '10',
      offset: '0',
      sort: 'total_sessions',
      order: 'desc',
    });
    await user.click(screen.getByRole('button', { name: 'Sessions' }));
    await waitFor(() => expect(names()).toEqual(['Fire Academy', 'City Clinic']));

    await user.type(screen.getByRole('textbox', { name: 'Search organizations' }), 'fire');
    await waitFor(() => expect(names()).toEqual(['Fire Academy']));
    expect(requestsTo(calls, '/v1/admin/organizations').at(-1)).toMatchObject({ q: 'fire' });
    // The cards keep counting every organisation.
    expect(screen.getByText('57')).toBeInTheDocument();
  });

  it(
    'says what an organisation holds before deleting it, and offers to deactivate it instead',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = mockFetch({
        'GET /v1/admin/organizations': organizationsRoute,
        [`PUT /v1/admin/organizations/${clinic.id}`]: { ...clinic, active: false },
      });
      renderWithProviders(<OrganizationsPage />);
      const row = (await screen.findByText('City Clinic', {}, { timeout: 5000 })).closest('tr')!;
      await user.click(within(row).getByRole('button', { name: 'Delete' }));
      const dialog = await screen.findByRole('dialog', {
        name: 'The organization cannot be deleted',
      });
      expect(dialog).toHaveTextContent(
        'City Clinic still has 3 accounts, 12 VR users, 5 headsets, 40 sessions. An organization with data cannot be deleted.',
      );
      await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
      expect(await screen.findByText('Organization deactivated')).toBeInTheDocument();
      expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
        name: 'City Clinic',
        active: false,
      });
      expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    },
    UI_TIMEOUT,
  );

  it(
    'words the server’s refusal with the counts it gives when data came meanwhile',
    async () => {
      await i18n.changeLanguage('ru');
      try {
        const user = userEvent.setup({ delay: null });
        const empty = {
          ...academy,
          id: '00000000-0000-4000-8000-0000000000a3',
          name: 'Empty Org',
          stats: {
            ...academy.stats,
            total_users: 0,
            total_vr_users: 0,
            total_sessions: 0,
            total_devices: 0,
          },
        };
        mockFetch({
          'GET /v1/admin/organizations': ({ url }: FakeRequest) =>
            listAnswer('organizations', [empty], url, {}),
          [`DELETE /v1/admin/organizations/${empty.id}`]: {
            status: 409,
            body: {
              error: 'organization_in_use',
              message: 'Cannot delete Empty Org - it has 1 account(s)',
              details: { name: 'Empty Org', accounts: 1, vr_users: 0, devices: 2, sessions: 0 },
            },
          },
        });
        renderWithProviders(<OrganizationsPage />);
        const row = (await screen.findByText('Empty Org', {}, { timeout: 5000 })).closest('tr')!;
        await user.click(within(row).getByRole('button', { name: 'Удалить' }));
        const dialog = await screen.findByRole('dialog', { name: 'Удаление организации' });
        await user.click(within(dialog).getByRole('button', { name: 'Удалить' }));
        expect(
          await screen.findByText(
            'Нельзя удалить «Empty Org»: в организации есть 1 учётная запись, 2 шлема. Деактивируйте её вместо удаления.',
          ),
        ).toBeInTheDocument();
        expect(screen.queryByText(/it has 1 account/)).not.toBeInTheDocument();
      } finally {
        await i18n.changeLanguage('en');
      }
    },
    UI_TIMEOUT,
  );

  it(
    'opens the single sign-on of the organisation a test sign-in came back to, with its result',
    async () => {
      const sso = `/v1/admin/organizations/${clinic.id}/sso`;
      mockFetch({
        'GET /v1/admin/organizations': organizationsRoute,
        [`GET /v1/admin/organizations/${clinic.id}`]: clinic,
        [`GET ${sso}`]: { status: 404, body: { error: 'not_found', message: 'x' } },
      });
      function Where() {
        return <output data-testid="where">{useLocation().pathname}</output>;
      }
      renderWithProviders(
        <Routes>
          <Route path="/admin/organizations" element={<Where />} />
          <Route
            path="/admin/organizations/:id"
            element={
              <>
                <OrganizationsPage />
                <Where />
              </>
            }
          />
        </Routes>,
        { route: `/admin/organizations/${clinic.id}?sso_error=provider_error` },
      );
      const dialog = await screen.findByRole('dialog', { name: 'Single sign-on: City Clinic' });
      expect(within(dialog).getByText('Test sign-in failed')).toBeInTheDocument();
      expect(within(dialog).getByText('provider_error')).toBeInTheDocument();
      await userEvent.keyboard('{Escape}');
      await waitFor(() =>
        expect(screen.getByTestId('where')).toHaveTextContent(/^\/admin\/organizations$/),
      );
    },
    UI_TIMEOUT,
  );
});
