import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import i18n from 'i18next';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders } from '../../test/render';
import { OrganizationStatsPage } from './OrganizationStatsPage';
import { periodRange } from './period';

const UI_TIMEOUT = 60_000;

function organizationResponse(days: number) {
  const { start_date, end_date } = periodRange(days);
  const daily = Array.from({ length: days }, (_, index) => ({
    date: new Date(Date.parse(start_date) + index * 86_400_000).toISOString().slice(0, 10),
    sessions: 0,
    completed: 0,
  }));
  daily[days - 1] = { ...daily[days - 1]!, sessions: 7, completed: 5 };
  return {
    organization_id: '00000000-0000-4000-8000-0000000000a1',
    organization_name: 'City Clinic',
    start_date,
    end_date,
    total_sessions: 7,
    active_sessions: 1,
    completed_sessions: 5,
    cancelled_sessions: 1,
    disconnected_sessions: 0,
    timeout_sessions: 0,
    sessions_today: 7,
    sessions_this_week: 9,
    sessions_this_month: 12,
    average_duration_seconds: 3_900,
    success_rate: 80,
    average_completion: 90.5,
    scenario_stats: [
      {
        scenario_name: 'Первая помощь',
        scenario_name_en: 'First Aid',
        total_sessions: 7,
        completed_sessions: 5,
        success_rate: 80,
        average_completion: 90.5,
      },
    ],
    daily,
    device_types: [{ device_type: 'quest', sessions: 7, devices: 2 }],
  };
}

describe('the organisation’s statistics screen', () => {
  beforeAll(async () => {
    await i18n.loadNamespaces(['orgStats', 'adminStats']);
  });
  afterEach(() => notifications.clean());
  afterAll(() => i18n.changeLanguage('en'));

  it(
    'shows its organisation’s figures over the period, says which days, and follows the switch',
    async () => {
      await i18n.changeLanguage('en');
      await i18n.loadNamespaces(['orgStats', 'adminStats']);
      const user = userEvent.setup({ delay: null });
      const calls = mockFetch({
        'GET /v1/stats': (request) =>
          organizationResponse(
            (Date.parse(request.url.searchParams.get('end_date')!) -
              Date.parse(request.url.searchParams.get('start_date')!)) /
              86_400_000 +
              1,
          ),
      });
      renderWithProviders(<OrganizationStatsPage />, { route: '/statistics' });

      expect(await screen.findByText(/^Sessions of City Clinic started /)).toHaveTextContent(
        /calendar days in UTC, today included$/,
      );
      const card = (label: string) =>
        within(screen.getByText(label).closest('.mantine-Card-root') as HTMLElement);
      expect(card('Total sessions').getByText('7')).toBeInTheDocument();
      expect(card('Success rate').getByText('80%')).toBeInTheDocument();
      expect(card('Sessions this month').getByText('12')).toBeInTheDocument();
      expect(screen.getByTestId('ended-completed')).toHaveTextContent('5');
      expect(screen.getByTestId('daily-summary')).toHaveTextContent(/^7 sessions in 30 days/);
      // The English console shows the scenario's English name.
      expect(screen.getByText('First Aid')).toBeInTheDocument();
      // No other organisation is listed: the screen is the organisation's own.
      expect(screen.queryByTestId('top-organization')).toBeNull();

      const { start_date, end_date } = periodRange(30);
      const asked = calls.filter((call) => call.url.startsWith('/v1/stats'));
      expect(asked[0]!.url).toContain(`start_date=${start_date}`);
      expect(asked[0]!.url).toContain(`end_date=${end_date}`);
      expect(asked.every((call) => !call.url.includes('organization'))).toBe(true);

      await user.click(screen.getByRole('radio', { name: '7 days' }));
      await waitFor(() =>
        expect(screen.getByTestId('daily-summary')).toHaveTextContent(/^7 sessions in 7 days/),
      );
    },
    UI_TIMEOUT,
  );

  it(
    'speaks Russian',
    async () => {
      await i18n.changeLanguage('ru');
      await i18n.loadNamespaces(['orgStats', 'adminStats', 'common']);
      mockFetch({ 'GET /v1/stats': organizationResponse(30) });
      renderWithProviders(<OrganizationStatsPage />, { route: '/statistics' });
      expect(
        await screen.findByText(/^Сессии организации «City Clinic», начатые /),
      ).toHaveTextContent(/календарные дни по UTC, сегодняшний включён$/);
      expect(screen.getByRole('heading', { name: 'Статистика' })).toBeInTheDocument();
      expect(screen.getByText('Первая помощь')).toBeInTheDocument();
    },
    UI_TIMEOUT,
  );

  it('says when its statistics cannot be loaded', async () => {
    await i18n.changeLanguage('en');
    mockFetch({ 'GET /v1/stats': { status: 502, body: {} } });
    renderWithProviders(<OrganizationStatsPage />, { route: '/statistics' });
    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(
      'Failed to load statistics',
    );
  });
});
