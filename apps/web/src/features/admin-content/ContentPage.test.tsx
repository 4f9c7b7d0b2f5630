import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listAnswer } from '../../test/lists';
import {
  mockFetch,
  renderWithProviders,
  type FakeRequest,
  type FakeRoute,
} from '../../test/render';
import { PHONE_QUERY } from '../../components/phone-layout';
import { ContentPage } from './ContentPage';
import { pick, requestsTo, Where } from '../../test/screen';

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
  name_en: null as string | null,
  description_en: null as string | null,
  active: true,
  created_at: '2026-03-01T00:00:00.000Z',
  module_count: 1,
};
const module = {
  id: '00000000-0000-4000-8000-00000000000b',
  scenario_id: scenario.id,
  name: 'Evacuation',
  description: '',
  name_en: null,
  description_en: null,
  order_index: 0,
  created_at: '2026-03-01T00:00:00.000Z',
};
const level = {
  id: '00000000-0000-4000-8000-00000000000c',
  module_id: module.id,
  name: 'Basics',
  level_number: 1,
  description: '',
  name_en: null,
  description_en: null,
  max_tasks: 3,
  created_at: '2026-03-01T00:00:00.000Z',
};

/** The content endpoints as the server answers them: each list paged, searched and sorted. */
function contentRoutes({
  scenarios,
  modules = [],
  levels = [],
  options = [],
}: {
  scenarios: Array<typeof scenario>;
  modules?: Array<typeof module>;
  levels?: Array<typeof level>;
  options?: Array<{
    id: string;
    level_id: string;
    name: string;
    description: string;
    order_index: number;
  }>;
}) {
  const searched = { search: ['name', 'description'] } as const;
  const routes: Record<string, FakeRoute> = {
    'GET /v1/admin/scenarios': ({ url }: FakeRequest) =>
      listAnswer('scenarios', scenarios, url, { ...searched, defaultSort: 'name' }),
  };
  for (const s of scenarios) {
    const own = modules.filter((m) => m.scenario_id === s.id);
    routes[`GET /v1/admin/scenarios/${s.id}/modules`] = ({ url }: FakeRequest) =>
      listAnswer('modules', own, url, { ...searched, defaultSort: 'order_index' });
    routes[`GET /v1/admin/scenarios/${s.id}`] = {
      ...s,
      modules: own.map((m) => ({
        ...m,
        levels: levels
          .filter((l) => l.module_id === m.id)
          .map((l) => ({ ...l, options: options.filter((o) => o.level_id === l.id) })),
      })),
    };
  }
  for (const m of modules) {
    routes[`GET /v1/admin/modules/${m.id}/levels`] = ({ url }: FakeRequest) =>
      listAnswer(
        'levels',
        levels.filter((l) => l.module_id === m.id),
        url,
        { ...searched, defaultSort: 'level_number' },
      );
  }
  for (const l of levels) {
    routes[`GET /v1/admin/levels/${l.id}/options`] = ({ url }: FakeRequest) =>
      listAnswer(
        'options',
        options.filter((o) => o.level_id === l.id),
        url,
        { ...searched, defaultSort: 'order_index' },
      );
  }
  return routes;
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
        ...contentRoutes({ scenarios: [scenario], modules: [module], levels: [level] }),
        [`POST /v1/admin/levels/${level.id}/options`]: {
          status: 201,
          body: {
            id: '00000000-0000-4000-8000-00000000000d',
            level_id: level.id,
            name: 'Smoke',
            description: '',
            name_en: null,
            description_en: null,
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
      mockFetch(
        contentRoutes({ scenarios: [scenario, other], modules: [module], levels: [level] }),
      );
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

  it(
    'names each level on its phone card, its number under it',
    async () => {
      const user = userEvent.setup({ delay: null });
      const laptop = window.matchMedia;
      window.matchMedia = ((query: string) => ({
        ...laptop(query),
        matches: query === PHONE_QUERY,
        media: query,
      })) as typeof window.matchMedia;
      try {
        mockFetch(contentRoutes({ scenarios: [scenario], modules: [module], levels: [level] }));
        renderWithProviders(<ContentPage />);
        await screen.findByText('Fire safety', {}, { timeout: 5000 });
        await user.click(screen.getByRole('tab', { name: 'Levels' }));
        await pick(user, screen.getByRole('combobox', { name: 'Scenario' }), 'Fire safety');
        await pick(user, screen.getByRole('combobox', { name: 'Module' }), 'Evacuation');
        // The card's title is the level's name (it was its number alone), the number a fact.
        expect(await screen.findByText('Basics')).toBeInTheDocument();
        expect(screen.getByText('Level number')).toBeInTheDocument();
      } finally {
        window.matchMedia = laptop;
      }
    },
    UI_TIMEOUT,
  );

  it(
    'keeps the tab, the chosen parents and the search in the URL, and names the parents of a link',
    async () => {
      const user = userEvent.setup({ delay: null });
      const advanced = {
        ...level,
        id: '00000000-0000-4000-8000-0000000000cc',
        name: 'Advanced',
        level_number: 2,
      };
      const calls = mockFetch(
        contentRoutes({ scenarios: [scenario], modules: [module], levels: [level, advanced] }),
      );
      renderWithProviders(
        <>
          <ContentPage />
          <Where />
        </>,
        { route: `/admin/content?tab=levels&scenario=${scenario.id}&module=${module.id}&q=adv` },
      );
      expect(await screen.findByText('Advanced', {}, { timeout: 5000 })).toBeInTheDocument();
      expect(screen.queryByText('Basics')).not.toBeInTheDocument();
      expect(requestsTo(calls, `/v1/admin/modules/${module.id}/levels`)).toEqual([
        { limit: '10', offset: '0', sort: 'level_number', order: 'asc', q: 'adv' },
      ]);
      // Only the open tab's list is asked for.
      expect(requestsTo(calls, '/v1/admin/scenarios')).toEqual([]);
      await waitFor(() =>
        expect(screen.getByRole('combobox', { name: 'Scenario' })).toHaveValue('Fire safety'),
      );
      expect(screen.getByRole('combobox', { name: 'Module' })).toHaveValue('Evacuation');
      expect(screen.getByRole('textbox', { name: 'Search' })).toHaveValue('adv');

      // A click on a level opens its options: another tab, from its first page, unsearched.
      await user.click(screen.getByText('Advanced'));
      expect(await screen.findByText('This level has no options yet')).toBeInTheDocument();
      expect(screen.getByTestId('location')).toHaveTextContent(
        `?tab=options&scenario=${scenario.id}&module=${module.id}&level=${advanced.id}`,
      );
      expect(screen.getByRole('combobox', { name: 'Level' })).toHaveValue('2. Advanced');
      expect(screen.getByRole('textbox', { name: 'Search' })).toHaveValue('');
    },
    UI_TIMEOUT,
  );

  it(
    'drops a module an old link names that is no longer the scenario’s',
    async () => {
      mockFetch(contentRoutes({ scenarios: [scenario], modules: [module], levels: [level] }));
      renderWithProviders(
        <>
          <ContentPage />
          <Where />
        </>,
        {
          route: `/admin/content?tab=levels&scenario=${scenario.id}&module=00000000-0000-4000-8000-0000000000ee`,
        },
      );
      expect(
        await screen.findByText(
          'Select a scenario and a module to see the levels.',
          {},
          { timeout: 5000 },
        ),
      ).toBeInTheDocument();
      await waitFor(() =>
        expect(screen.getByTestId('location')).toHaveTextContent(
          `?tab=levels&scenario=${scenario.id}`,
        ),
      );
      expect(screen.getByTestId('location').textContent).not.toContain('module=');
    },
    UI_TIMEOUT,
  );

  it(
    'refuses level number 0 and order −1 as typed instead of rewriting them, and words a number already taken',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = mockFetch({
        ...contentRoutes({ scenarios: [scenario], modules: [module], levels: [level] }),
        [`POST /v1/admin/modules/${module.id}/levels`]: {
          status: 409,
          body: {
            error: 'level_number_taken',
            message: 'Level number 1 is already used in this module',
            details: { level_number: 1 },
          },
        },
      });
      renderWithProviders(<ContentPage />, {
        route: `/admin/content?tab=levels&scenario=${scenario.id}&module=${module.id}`,
      });
      await screen.findByText('Basics', {}, { timeout: 5000 });
      await user.click(screen.getByRole('button', { name: 'Add level' }));
      const dialog = await screen.findByRole('dialog', { name: 'New level' });
      await user.type(within(dialog).getByLabelText(/^Name/), 'Warm-up');
      const number = within(dialog).getByLabelText(/^Level number/);
      await user.clear(number);
      await user.type(number, '0');
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(
        await within(dialog).findByText('Level number must be at least 1'),
      ).toBeInTheDocument();
      // Not clamped to 1 behind the user's back, and nothing sent.
      expect(number).toHaveValue('0');
      expect(calls.some((call) => call.method === 'POST')).toBe(false);

      // A number another level has: the server's 409, in the console's words, with the number.
      await user.clear(number);
      await user.type(number, '1');
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(
        await screen.findByText('This module already has a level number 1. Choose another number.'),
      ).toBeInTheDocument();
      expect(screen.queryByText(/already used in this module/)).not.toBeInTheDocument();
      expect(screen.getByRole('dialog', { name: 'New level' })).toBeInTheDocument();
    },
    UI_TIMEOUT,
  );

  it(
    'refuses a negative option order as typed',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = mockFetch(
        contentRoutes({ scenarios: [scenario], modules: [module], levels: [level] }),
      );
      renderWithProviders(<ContentPage />, {
        route: `/admin/content?tab=options&scenario=${scenario.id}&module=${module.id}&level=${level.id}`,
      });
      await screen.findByText('This level has no options yet', {}, { timeout: 5000 });
      await user.click(screen.getAllByRole('button', { name: 'Add option' })[0]!);
      const dialog = await screen.findByRole('dialog', { name: 'New level option' });
      await user.type(within(dialog).getByLabelText(/^Name/), 'Smoke');
      const order = within(dialog).getByLabelText(/^Order/);
      await user.clear(order);
      await user.type(order, '-1');
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(await within(dialog).findByText('Order must be 0 or greater')).toBeInTheDocument();
      expect(order).toHaveValue('-1');
      expect(calls.some((call) => call.method === 'POST')).toBe(false);
    },
    UI_TIMEOUT,
  );

  it(
    'edits the English name and description beside the primary ones, and removes them when cleared',
    async () => {
      const user = userEvent.setup({ delay: null });
      const bilingual = {
        ...scenario,
        name: 'Пожарная безопасность',
        name_en: 'Fire safety',
        description_en: null,
      };
      const calls = mockFetch({
        ...contentRoutes({ scenarios: [bilingual] }),
        [`PUT /v1/admin/scenarios/${scenario.id}`]: bilingual,
      });
      renderWithProviders(<ContentPage />);
      // The table shows both names, the English console's first.
      expect(await screen.findByTestId('name-ru', {}, { timeout: 5000 })).toHaveTextContent(
        'Пожарная безопасность',
      );
      expect(screen.getByText('Fire safety')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Edit' }));
      const dialog = await screen.findByRole('dialog', { name: 'Edit scenario' });
      const englishName = within(dialog).getByLabelText(/^English name/);
      expect(englishName).toHaveValue('Fire safety');
      await user.type(within(dialog).getByLabelText(/^English description/), 'Evacuation drills');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Scenario updated')).toBeInTheDocument();
      expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
        name: 'Пожарная безопасность',
        description: 'Evacuation drills',
        name_en: 'Fire safety',
        description_en: 'Evacuation drills',
        active: true,
      });

      // Cleared, the English name is sent as null: the scenario has none any more.
      await user.click(screen.getByRole('button', { name: 'Edit' }));
      const again = await screen.findByRole('dialog', { name: 'Edit scenario' });
      await user.clear(within(again).getByLabelText(/^English name/));
      await user.click(within(again).getByRole('button', { name: 'Save' }));
      await waitFor(() =>
        expect(calls.filter((call) => call.method === 'PUT').at(-1)?.body).toMatchObject({
          name_en: null,
        }),
      );
    },
    UI_TIMEOUT,
  );

  it(
    'names content in English in the English console: the table, descriptions and the selectors',
    async () => {
      const user = userEvent.setup({ delay: null });
      const english = <T extends object>(item: T, names: Record<string, string>) => ({
        ...item,
        ...names,
      });
      mockFetch(
        contentRoutes({
          scenarios: [
            english(scenario, {
              name: 'Пожарная безопасность',
              name_en: 'Fire safety',
              description: 'Учения по эвакуации',
              description_en: 'Evacuation drills',
            }),
          ],
          modules: [english(module, { name: 'Эвакуация', name_en: 'Evacuation' })],
          levels: [english(level, { name: 'Основы', name_en: 'Basics' })],
        }),
      );
      renderWithProviders(<ContentPage />);
      expect(await screen.findByText('Evacuation drills', {}, { timeout: 5000 })).toBeVisible();
      expect(screen.queryByText('Учения по эвакуации')).not.toBeInTheDocument();

      await user.click(screen.getByRole('tab', { name: 'Options' }));
      await pick(user, screen.getByRole('combobox', { name: 'Scenario' }), 'Fire safety');
      await pick(user, screen.getByRole('combobox', { name: 'Module' }), 'Evacuation');
      await pick(user, screen.getByRole('combobox', { name: 'Level' }), '1. Basics');
      expect(screen.getByRole('combobox', { name: 'Scenario' })).toHaveValue('Fire safety');
      expect(screen.getByRole('combobox', { name: 'Module' })).toHaveValue('Evacuation');
      expect(screen.getByRole('combobox', { name: 'Level' })).toHaveValue('1. Basics');
    },
    UI_TIMEOUT,
  );

  it(
    'never asks for a deleted scenario again, even while it is the chosen one',
    async () => {
      const user = userEvent.setup({ delay: null });
      const routes = contentRoutes({ scenarios: [scenario], modules: [module], levels: [level] });
      routes[`DELETE /v1/admin/scenarios/${scenario.id}`] = () => {
        // Gone from now on: any request naming it is answered 404, as the server would.
        for (const key of Object.keys(routes)) {
          if (key.includes(scenario.id) || key.includes(module.id) || key.includes(level.id)) {
            delete routes[key];
          }
        }
        routes['GET /v1/admin/scenarios'] = ({ url }: FakeRequest) =>
          listAnswer('scenarios', [], url, {});
        return { ok: true };
      };
      const calls = mockFetch(routes);
      // Back on the scenarios tab after looking at the scenario's levels: it is still chosen.
      renderWithProviders(
        <>
          <ContentPage />
          <Where />
        </>,
        { route: `/admin/content?scenario=${scenario.id}&module=${module.id}&level=${level.id}` },
      );
      await screen.findByText('Fire safety', {}, { timeout: 5000 });
      await waitFor(() =>
        expect(requestsTo(calls, `/v1/admin/scenarios/${scenario.id}`)).toHaveLength(1),
      );
      await user.click(screen.getByRole('button', { name: 'Delete' }));
      const confirm = await screen.findByRole('dialog', { name: 'Delete scenario' });
      const before = calls.length;
      await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
      expect(await screen.findByText('Scenario deleted')).toBeInTheDocument();
      expect(await screen.findByText('No scenarios yet')).toBeInTheDocument();
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^$/));
      const after = calls.slice(before).filter((call) => call.method === 'GET');
      expect(after.length).toBeGreaterThan(0);
      expect(
        after.filter(
          (call) =>
            call.url.includes(scenario.id) ||
            call.url.includes(module.id) ||
            call.url.includes(level.id),
        ),
      ).toEqual([]);
    },
    UI_TIMEOUT,
  );
});
