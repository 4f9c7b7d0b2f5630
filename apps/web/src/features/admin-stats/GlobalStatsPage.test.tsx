import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import i18n from 'i18next';
import { useLocation } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders } from '../../test/render';
import { GlobalStatsPage } from './GlobalStatsPage';
import { periodRange } from './period';

const UI_TIMEOUT = 60_000;

const figures = {
  total_sessions: 42,
  active_sessions: 3,
  completed_sessions: 29,
  cancelled_sessions: 5,
  disconnected_sessions: 4,
  timeout_sessions: 1,
  sessions_today: 2,
  sessions_this_week: 9,
  sessions_this_month: 30,
  average_duration_seconds: 125,
  success_rate: 72.5,
  average_completion: 81.3,
  scenario_stats: [],
};

function rangeResponse(days: number) {
  const { start_date, end_date } = periodRange(days);
  const daily = Array.from({ length: days }, (_, index) => ({
    date: new Date(Date.parse(start_date) + index * 86_400_000).toISOString().slice(0, 10),
    sessions: 0,
    completed: 0,
  }));
  daily[days - 2] = { ...daily[days - 2]!, sessions: 17, completed: 12 };
  daily[days - 1] = { ...daily[days - 1]!, sessions: 25, completed: 17 };
  return {
    ...figures,
    start_date,
    end_date,
    daily,
    device_types: [
      { device_type: 'quest', sessions: 30, devices: 4 },
      { device_type: 'pico', sessions: 12, devices: 2 },
    ],
    top_organizations: [
      {
        organization_id: '00000000-0000-4000-8000-0000000000a1',
        organization_name: 'City Clinic',
        total_sessions: 30,
        success_rate: 80,
      },
      {
        organization_id: '00000000-0000-4000-8000-0000000000a2',
        organization_name: 'Fire Academy',
        total_sessions: 12,
        success_rate: 50,
      },
    ],
  };
}

describe('global statistics screen', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
    await i18n.loadNamespaces('adminStats');
  });
  // Toasts live in a module-wide store: none may leak into the next test.
  afterEach(() => notifications.clean());

  it(
    'shows the figures, the daily series, device types and top organisations of the period',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = mockFetch({
        'GET /v1/admin/stats/range': rangeResponse(30),
        'GET /v1/admin/stats': {
          ...figures,
          sessions_today: 6,
          sessions_this_week: 11,
          sessions_this_month: 40,
        },
      });
      renderWithProviders(<GlobalStatsPage />);

      const card = async (label: string) =>
        within(
          (await screen.findByText(label, {}, { timeout: 5000 })).closest(
            '.mantine-Card-root',
          ) as HTMLElement,
        );
      expect((await card('Total sessions')).getByText('42')).toBeInTheDocument();
      expect((await card('Active')).getByText('3')).toBeInTheDocument();
      expect((await card('Success rate')).getByText('72.5%')).toBeInTheDocument();
      expect((await card('Average duration')).getByText('2m 5s')).toBeInTheDocument();
      expect((await card('Average completion')).getByText('81.3%')).toBeInTheDocument();
      expect((await card('Sessions today')).getByText('6')).toBeInTheDocument();
      expect((await card('Sessions this week')).getByText('11')).toBeInTheDocument();
      expect((await card('Sessions this month')).getByText('40')).toBeInTheDocument();

      // The daily chart is drawn from the real series: 42 sessions over 30 days, 25 on the last day.
      expect(screen.getByTestId('daily-summary')).toHaveTextContent(
        /^42 sessions in 30 days · peak 25 on /,
      );

      expect(screen.getByTestId('ended-completed')).toHaveTextContent('29');
      expect(screen.getByTestId('ended-cancelled')).toHaveTextContent('5');
      expect(screen.getByTestId('ended-disconnected')).toHaveTextContent('4');
      expect(screen.getByTestId('ended-timeout')).toHaveTextContent('1');

      const top = screen.getAllByTestId('top-organization');
      expect(top.map((entry) => entry.textContent)).toEqual([
        '1. City Clinic30 sessions · 80% success',
        '2. Fire Academy12 sessions · 50% success',
      ]);
      expect(screen.getByRole('row', { name: /Quest 4 30/ })).toBeInTheDocument();

      const range = calls.find((call) => call.url.startsWith('/v1/admin/stats/range'))!;
      const { start_date, end_date } = periodRange(30);
      expect(range.url).toContain(`start_date=${start_date}`);
      expect(range.url).toContain(`end_date=${end_date}`);

      mockFetch({ 'GET /v1/admin/stats/range': rangeResponse(7), 'GET /v1/admin/stats': figures });
      await user.click(screen.getByRole('radio', { name: '7 days' }));
      await waitFor(() =>
        expect(screen.getByTestId('daily-summary')).toHaveTextContent(/^42 sessions in 7 days/),
      );
    },
    UI_TIMEOUT,
  );

  it(
    'keeps the period in the URL: a link opens its period, a choice is written there',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = mockFetch({
        'GET /v1/admin/stats/range': (request) =>
          rangeResponse(
            (Date.parse(request.url.searchParams.get('end_date')!) -
              Date.parse(request.url.searchParams.get('start_date')!)) /
              86_400_000 +
              1,
          ),
        'GET /v1/admin/stats': figures,
      });
      function Where() {
        const location = useLocation();
        return <output aria-label="where">{location.search}</output>;
      }
      renderWithProviders(
        <>
          <GlobalStatsPage />
          <Where />
        </>,
        { route: '/admin/global-stats?period=90' },
      );
      await waitFor(() =>
        expect(screen.getByTestId('daily-summary')).toHaveTextContent(/ in 90 days/),
      );
      expect(screen.getByRole('radio', { name: '90 days' })).toBeChecked();
      const { start_date } = periodRange(90);
      expect(calls.some((call) => call.url.includes(`start_date=${start_date}`))).toBe(true);

      await user.click(screen.getByRole('radio', { name: '7 days' }));
      expect(screen.getByRole('status', { name: 'where' })).toHaveTextContent('?period=7');
      await waitFor(() =>
        expect(screen.getByTestId('daily-summary')).toHaveTextContent(/ in 7 days/),
      );
      // The default period leaves the URL without the parameter.
      await user.click(screen.getByRole('radio', { name: '30 days' }));
      expect(screen.getByRole('status', { name: 'where' })).toHaveTextContent(/^$/);
    },
    UI_TIMEOUT,
  );

  it('reads a period it does not offer as the default', async () => {
    const calls = mockFetch({
      'GET /v1/admin/stats/range': rangeResponse(30),
      'GET /v1/admin/stats': figures,
    });
    renderWithProviders(<GlobalStatsPage />, { route: '/admin/global-stats?period=12' });
    await waitFor(() =>
      expect(screen.getByTestId('daily-summary')).toHaveTextContent(/ in 30 days/),
    );
    const { start_date } = periodRange(30);
    expect(calls.some((call) => call.url.includes(`start_date=${start_date}`))).toBe(true);
  });

  it('says when the statistics cannot be loaded', async () => {
    mockFetch({
      'GET /v1/admin/stats/range': { status: 502, body: {} },
      'GET /v1/admin/stats': figures,
    });
    renderWithProviders(<GlobalStatsPage />);
    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(
      'Failed to load statistics',
    );
  });
});
