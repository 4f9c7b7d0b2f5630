import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders } from '../../test/render';
import { ContentPage } from './ContentPage';

const UI_TIMEOUT = 60_000;

// jsdom has no FontFaceSet; Mantine's autosizing Textarea listens on it.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener: () => {}, removeEventListener: () => {} },
  });
}

const scenario = {
  id: '00000000-0000-4000-8000-00000000000a',
  name: 'Fire safety',
  description: 'Evacuation drills',
  active: true,
  created_at: '2026-03-01T00:00:00.000Z',
  module_count: 1,
};
const module = {
  id: '00000000-0000-4000-8000-00000000000b',
  scenario_id: scenario.id,
  name: 'Evacuation',
  description: '',
  order_index: 0,
  created_at: '2026-03-01T00:00:00.000Z',
};
const level = {
  id: '00000000-0000-4000-8000-00000000000c',
  module_id: module.id,
  name: 'Basics',
  level_number: 1,
  description: '',
  max_tasks: 3,
  created_at: '2026-03-01T00:00:00.000Z',
};

async function pick(
  user: ReturnType<typeof userEvent.setup>,
  combobox: HTMLElement,
  option: string,
) {
  await user.click(combobox);
  await waitFor(() => expect(combobox).toHaveAttribute('aria-controls'));
  const listbox = document.getElementById(combobox.getAttribute('aria-controls')!)!;
  await user.click(within(listbox).getByRole('option', { name: option, hidden: true }));
}

describe('admin content screen', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
    await i18n.loadNamespaces('adminContent');
  });
  // Toasts live in a module-wide store: none may leak into the next test.
  afterEach(() => notifications.clean());

  it(
    'asks for the scenario, module or level before creating what goes under it',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = mockFetch({
        'GET /v1/admin/scenarios': { scenarios: [scenario] },
        [`GET /v1/admin/scenarios/${scenario.id}/modules`]: { modules: [module] },
        [`GET /v1/admin/modules/${module.id}/levels`]: { levels: [level] },
        [`GET /v1/admin/levels/${level.id}/options`]: { options: [] },
        [`POST /v1/admin/levels/${level.id}/options`]: {
          status: 201,
          body: {
            id: '00000000-0000-4000-8000-00000000000d',
            level_id: level.id,
            name: 'Smoke',
            description: '',
            order_index: 0,
            created_at: '2026-03-02T00:00:00.000Z',
          },
        },
      });
      renderWithProviders(<ContentPage />);
      expect(await screen.findByText('Fire safety', {}, { timeout: 5000 })).toBeInTheDocument();

      await user.click(screen.getByRole('tab', { name: 'Modules' }));
      await user.click(screen.getByRole('button', { name: 'Add module' }));
      expect(await screen.findByText('Please select a scenario first')).toBeInTheDocument();
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

      await user.click(screen.getByRole('tab', { name: 'Levels' }));
      await pick(user, screen.getByRole('combobox', { name: 'Scenario' }), 'Fire safety');
      await user.click(screen.getByRole('button', { name: 'Add level' }));
      expect(await screen.findByText('Please select a module first')).toBeInTheDocument();

      await user.click(screen.getByRole('tab', { name: 'Options' }));
      await pick(user, screen.getByRole('combobox', { name: 'Module' }), 'Evacuation');
      await user.click(screen.getByRole('button', { name: 'Add option' }));
      expect(await screen.findByText('Please select a level first')).toBeInTheDocument();

      await pick(user, screen.getByRole('combobox', { name: 'Level' }), '1. Basics');
      expect(await screen.findByText('This level has no options yet')).toBeInTheDocument();
      await user.click(screen.getAllByRole('button', { name: 'Add option' })[0]!);
      const dialog = await screen.findByRole('dialog', { name: 'New level option' });
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(await within(dialog).findByText('Name is required')).toBeInTheDocument();
      await user.type(within(dialog).getByLabelText(/^Name/), 'Smoke');
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(await screen.findByText('Option created')).toBeInTheDocument();
      expect(calls.find((call) => call.method === 'POST')).toMatchObject({
        url: `/v1/admin/levels/${level.id}/options`,
        body: { name: 'Smoke', description: '', order_index: 0 },
      });
    },
    UI_TIMEOUT,
  );

  it(
    'clears the module and level when another scenario is chosen, and defaults a new level to 3 tasks',
    async () => {
      const user = userEvent.setup({ delay: null });
      const other = { ...scenario, id: '00000000-0000-4000-8000-0000000000aa', name: 'First aid' };
      mockFetch({
        'GET /v1/admin/scenarios': { scenarios: [scenario, other] },
        [`GET /v1/admin/scenarios/${scenario.id}/modules`]: { modules: [module] },
        [`GET /v1/admin/scenarios/${other.id}/modules`]: { modules: [] },
        [`GET /v1/admin/modules/${module.id}/levels`]: { levels: [level] },
      });
      renderWithProviders(<ContentPage />);
      await screen.findByText('Fire safety', {}, { timeout: 5000 });
      await user.click(screen.getByRole('tab', { name: 'Levels' }));
      await pick(user, screen.getByRole('combobox', { name: 'Scenario' }), 'Fire safety');
      await pick(user, screen.getByRole('combobox', { name: 'Module' }), 'Evacuation');
      expect(await screen.findByText('Basics')).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Add level' }));
      const dialog = await screen.findByRole('dialog', { name: 'New level' });
      expect(within(dialog).getByLabelText(/^Max tasks/)).toHaveValue('3');
      expect(within(dialog).getByLabelText(/^Level number/)).toHaveValue('2');
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

      await pick(user, screen.getByRole('combobox', { name: 'Scenario' }), 'First aid');
      expect(screen.getByRole('combobox', { name: 'Module' })).toHaveValue('');
      expect(
        await screen.findByText('Select a scenario and a module to see the levels.'),
      ).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Add level' }));
      expect(await screen.findByText('Please select a module first')).toBeInTheDocument();
    },
    UI_TIMEOUT,
  );
});
