import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ScenarioTree } from '@vrtc/contract';
import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders } from '../../test/render';
import { ScenariosPage } from './ScenariosPage';

const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

function scenario(
  name: string,
  accessExpiresAt: string | null,
  extra: Partial<ScenarioTree> = {},
): ScenarioTree {
  return {
    id: `00000000-0000-4000-8000-${String(name.length).padStart(12, '0')}`,
    name,
    name_en: null,
    description: '',
    description_en: null,
    active: true,
    access_expires_at: accessExpiresAt,
    modules: [],
    ...extra,
  };
}

describe('scenarios screen', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });

  it('lists scenarios with their access state, and opens down to levels and options', async () => {
    const user = userEvent.setup();
    mockFetch({
      'GET /v1/scenarios-full': {
        scenarios: [
          scenario('Пожарная безопасность', null, {
            name_en: 'Fire safety',
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
                    description: 'Первые шаги в здании',
                    description_en: 'First steps in the building',
                    max_tasks: 3,
                    options: [
                      {
                        id: '00000000-0000-4000-8000-0000000000b1',
                        name: 'Дым',
                        name_en: 'Smoke',
                        description: 'Добавляет дым',
                        // No English description: the Russian one stands in.
                        description_en: null,
                        order_index: 0,
                      },
                    ],
                  },
                ],
              },
            ],
          }),
          scenario('First aid kit', inDays(10)),
          scenario('Working at height', inDays(200)),
        ],
      },
    });
    renderWithProviders(<ScenariosPage />);
    const items = await screen.findAllByTestId('scenario');
    expect(items).toHaveLength(3);
    expect(within(items[0]!).getByText('No expiry')).toBeInTheDocument();
    expect(within(items[1]!).getByText('Expires in 10 days')).toBeInTheDocument();
    expect(within(items[2]!).getByText('Active')).toBeInTheDocument();
    expect(within(items[2]!).getByText(/^Access until/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /Fire safety/ }));
    await user.click(await screen.findByRole('button', { name: /Basics/ }));
    expect(await screen.findByText('Level 1: Intro')).toBeInTheDocument();
    expect(screen.getByText('Max 3 tasks')).toBeInTheDocument();
    expect(screen.getByText('First steps in the building')).toBeInTheDocument();
    expect(screen.getByText('Smoke')).toBeInTheDocument();
    expect(screen.getByText(/Добавляет дым/)).toBeInTheDocument();
    expect(screen.queryByText('Пожарная безопасность')).not.toBeInTheDocument();
  });

  it('shows the Russian text in the Russian console', async () => {
    await i18n.changeLanguage('ru');
    try {
      const user = userEvent.setup();
      mockFetch({
        'GET /v1/scenarios-full': {
          scenarios: [
            scenario('Пожарная безопасность', '2026-12-10T23:59:59.000Z', {
              name_en: 'Fire safety',
              description: 'Эвакуация',
              description_en: 'Evacuation',
            }),
            // English only: the Russian console falls back to it.
            scenario('', null, { name_en: 'Working at height' }),
          ],
        },
      });
      renderWithProviders(<ScenariosPage />);
      const items = await screen.findAllByTestId('scenario');
      expect(within(items[0]!).getByText('Пожарная безопасность')).toBeInTheDocument();
      // The access ends on the UTC day the admin chose, whatever the local time zone.
      expect(within(items[0]!).getByTestId('access-expiry')).toHaveTextContent(
        'Доступ до 10.12.2026',
      );
      expect(within(items[1]!).getByText('Working at height')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: /Пожарная безопасность/ }));
      expect(await screen.findByText('Эвакуация')).toBeInTheDocument();
      expect(screen.queryByText('Fire safety')).not.toBeInTheDocument();
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('shows an empty state when the organisation has no scenarios', async () => {
    mockFetch({ 'GET /v1/scenarios-full': { scenarios: [] } });
    renderWithProviders(<ScenariosPage />);
    expect(await screen.findByText('No scenarios available')).toBeInTheDocument();
  });
});
