import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders } from '../../test/render';
import { OrganizationsPage } from './OrganizationsPage';

const UI_TIMEOUT = 60_000;

const clinic = {
  id: '00000000-0000-4000-8000-0000000000a1',
  name: 'City Clinic',
  active: true,
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

describe('admin organisations screen', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
    await i18n.loadNamespaces('adminOrganizations');
  });
  // Toasts live in a module-wide store: none may leak into the next test.
  afterEach(() => notifications.clean());

  it(
    'sums the figures, requires a name, and opens the 30-day analytics of a row',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = mockFetch({
        'GET /v1/admin/organizations': { organizations: [clinic, academy] },
        [`GET /v1/admin/organizations/${clinic.id}/analytics`]: {
          days: 30,
          top_vr_users: [
            { vr_user_id: null, name: 'Ivan Petrov', session_count: 7, success_rate: 71.4 },
          ],
          device_usage: [
            { device_id: null, device_name: 'Headset A', device_type: 'pico', session_count: 9 },
          ],
          scenario_stats: [
            {
              scenario_name: 'Fire safety',
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
      expect((await card('Organizations')).getByText('2')).toBeInTheDocument();
      expect((await card('Active')).getByText('1')).toBeInTheDocument();
      expect((await card('Total sessions')).getByText('50')).toBeInTheDocument();
      expect((await card('Devices online / total')).getByText('2 / 8')).toBeInTheDocument();
      expect(calls[0]?.url).toBe('/v1/admin/organizations?include_stats=true');

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
});
