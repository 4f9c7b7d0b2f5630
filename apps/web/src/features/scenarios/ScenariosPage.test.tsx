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
    description: '',
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
          scenario('Fire safety', null, {
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
                    description: 'First steps in the building',
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
  });

  it('shows an empty state when the organisation has no scenarios', async () => {
    mockFetch({ 'GET /v1/scenarios-full': { scenarios: [] } });
    renderWithProviders(<ScenariosPage />);
    expect(await screen.findByText('No scenarios available')).toBeInTheDocument();
  });
});
