import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { DAY_MS } from '@vrtc/contract';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listAnswer } from '../../test/lists';
import { mockFetch, renderWithProviders, type FakeRequest } from '../../test/render';
import { defaultExpiryDay, expiryTimestamp } from './expiry-date';
import { ScenarioAccessPage } from './ScenarioAccessPage';

const UI_TIMEOUT = 60_000;

const scenarioId = '00000000-0000-4000-8000-00000000000a';
const org = (n: number, _label: string) =>
  `00000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

const matrix = {
  scenario_access: [
    {
      scenario_id: scenarioId,
      // The English console shows the English name (issue 42).
      scenario_name: 'Пожарная безопасность',
      scenario_name_en: 'Fire safety' as string | null,
      total_organizations: 4,
      organizations_with_access: 2,
      organizations_with_grant: 3,
      organizations: [
        {
          organization_id: org(1, 'a'),
          organization_name: 'City Clinic',
          has_access: true,
          granted_at: inDays(-10),
          granted_by: 'admin@example.com',
          expires_at: inDays(200),
        },
        {
          organization_id: org(2, 'b'),
          organization_name: 'Fire Academy',
          has_access: true,
          granted_at: inDays(-300),
          granted_by: 'admin@example.com',
          expires_at: inDays(10),
        },
        {
          organization_id: org(3, 'c'),
          organization_name: 'Old School',
          has_access: false,
          granted_at: inDays(-400),
          granted_by: 'admin@example.com',
          expires_at: inDays(-5),
        },
      ],
    },
  ],
};

/** Every organisation, as the server's organisation list answers them (New Hospital has no grant). */
const organizations = [
  ...matrix.scenario_access[0]!.organizations.map((o) => ({
    id: o.organization_id,
    name: o.organization_name,
    active: true,
    mfa_required: false,
    created_at: '2026-01-01T00:00:00.000Z',
  })),
  {
    id: org(4, 'd'),
    name: 'New Hospital',
    active: true,
    mfa_required: false,
    created_at: '2026-01-01T00:00:00.000Z',
  },
];
const organizationsRoute = ({ url }: FakeRequest) =>
  listAnswer('organizations', organizations, url, { search: ['name'], defaultSort: 'name' });

type Entry = (typeof matrix.scenario_access)[number];
type Grant = Entry['organizations'][number];

/** GET /v1/admin/scenarios/{id}/access as the server answers it: a page of its grants. */
const grantsRoute =
  (grants: Grant[] = matrix.scenario_access[0]!.organizations) =>
  ({ url }: FakeRequest) =>
    listAnswer('organizations', grants, url, {
      search: ['organization_name'],
      defaultSort: 'organization_name',
    });

/** GET /v1/admin/scenarios/access as the server answers it: a page of scenarios, by name. */
const accessRoute =
  (entries: Entry[] = matrix.scenario_access) =>
  ({ url }: FakeRequest) =>
    listAnswer('scenario_access', entries, url, {
      search: ['scenario_name'],
      defaultSort: 'scenario_name',
    });

describe('scenario access screen', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
    await i18n.loadNamespaces('adminAccess');
  });
  // Toasts live in a module-wide store: none may leak into the next test.
  afterEach(() => notifications.clean());

  it(
    'lists the grants with their expiry state, and grants access until 23:59:59 UTC of the chosen day',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = mockFetch({
        'GET /v1/admin/scenarios/access': accessRoute(),
        'GET /v1/admin/organizations': organizationsRoute,
        [`GET /v1/admin/scenarios/${scenarioId}/access`]: grantsRoute(),
        [`POST /v1/admin/scenarios/${scenarioId}/grant`]: {
          granted: 1,
          expires_at: expiryTimestamp(defaultExpiryDay()),
        },
      });
      renderWithProviders(<ScenarioAccessPage />);
      await user.click(
        await screen.findByRole('button', { name: /Fire safety/ }, { timeout: 5000 }),
      );
      expect(screen.getByText('With access: 2 of 4')).toBeInTheDocument();

      const row = (name: string) => screen.getByText(name).closest('tr')!;
      expect(within(row('City Clinic')).getByText('Active')).toBeInTheDocument();
      expect(within(row('Fire Academy')).getByText(/Expires in 1[01] days/)).toBeInTheDocument();
      expect(within(row('Old School')).getByText('Expired')).toBeInTheDocument();
      expect(screen.queryByText('New Hospital')).not.toBeInTheDocument();

      await user.click(
        await screen.findByRole('button', { name: 'Grant access' }, { timeout: 5000 }),
      );
      const dialog = await screen.findByRole('dialog', { name: 'Grant access: Fire safety' });
      // One year from today is chosen already.
      const [year, month, day] = defaultExpiryDay().split('-').map(Number) as [
        number,
        number,
        number,
      ];
      // The field writes the day as every date of the console is written: 10/12/2026.
      const shown = `${String(day).padStart(2, '0')}/${String(month).padStart(2, '0')}/${year}`;
      expect(within(dialog).getByRole('button', { name: /Access until/ })).toHaveTextContent(shown);
      expect(within(dialog).getByText(/at 23:59:59 UTC/)).toBeInTheDocument();

      await user.click(within(dialog).getByRole('button', { name: 'Grant' }));
      expect(
        await within(dialog).findByText('Please select at least one organization'),
      ).toBeInTheDocument();

      // The choices are the server's organisations matching what is typed; those with a grant
      // of the scenario (asked of the server alike) say so.
      const organizationsBox = within(dialog).getByRole('combobox', { name: /^Organizations/ });
      await user.click(organizationsBox);
      const listbox = await waitFor(() =>
        document.getElementById(organizationsBox.getAttribute('aria-controls') ?? '')!,
      );
      const option = async (name: RegExp) =>
        within(listbox).findByRole('option', { name, hidden: true });
      expect(await option(/City Clinic.*access until/)).toBeInTheDocument();
      expect(await option(/Old School.*access expired/)).toBeInTheDocument();
      expect(await option(/^New Hospital$/)).toBeInTheDocument();
      await user.type(organizationsBox, 'hosp');
      await waitFor(() =>
        expect(calls.map((call) => call.url)).toEqual(
          expect.arrayContaining([
            '/v1/admin/organizations?q=hosp&limit=20&sort=name',
            `/v1/admin/scenarios/${scenarioId}/access?q=hosp&limit=20`,
          ]),
        ),
      );
      await waitFor(() =>
        expect(within(listbox).getAllByRole('option', { hidden: true })).toHaveLength(1),
      );
      await user.click(await option(/^New Hospital$/));
      await user.click(within(dialog).getByRole('button', { name: 'Grant' }));
      expect(await screen.findByText('Access granted to 1 organization')).toBeInTheDocument();
      // Closing the dialog asks for nothing more: never a grants request without a scenario.
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(calls.filter((call) => call.url.includes('//'))).toEqual([]);
      expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
        organization_ids: [org(4, 'd')],
        expires_at: `${defaultExpiryDay()}T23:59:59.000Z`,
      });
    },
    UI_TIMEOUT,
  );

  it(
    'revokes from every organisation that has access after confirmation',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = mockFetch({
        'GET /v1/admin/scenarios/access': accessRoute(),
        [`POST /v1/admin/scenarios/${scenarioId}/revoke`]: { revoked: 2 },
      });
      renderWithProviders(<ScenarioAccessPage />);
      await user.click(
        await screen.findByRole('button', { name: /Fire safety/ }, { timeout: 5000 }),
      );
      // The button sits in the accordion panel, hidden until its expand transition ends.
      await user.click(
        await screen.findByRole('button', { name: 'Revoke all' }, { timeout: 5000 }),
      );
      const confirm = await screen.findByRole('dialog', { name: 'Revoke all access' });
      expect(
        within(confirm).getByText('Revoke the access of all 2 organizations to Fire safety?'),
      ).toBeInTheDocument();
      await user.click(within(confirm).getByRole('button', { name: 'Revoke all' }));
      expect(await screen.findByText('Access revoked')).toBeInTheDocument();
      // The server revokes every live grant: the console may hold only a page of them.
      expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
        all_with_access: true,
      });
    },
    UI_TIMEOUT,
  );

  it(
    'pages the scenarios on the server and searches their names',
    async () => {
      const user = userEvent.setup({ delay: null });
      const entry = matrix.scenario_access[0]!;
      const scenarios = Array.from({ length: 12 }, (_, index) => ({
        ...entry,
        scenario_id: `00000000-0000-4000-8000-0000000002${String(index).padStart(2, '0')}`,
        scenario_name: `Scenario ${String(index + 1).padStart(2, '0')}`,
        scenario_name_en: null,
      }));
      const calls = mockFetch({ 'GET /v1/admin/scenarios/access': accessRoute(scenarios) });
      renderWithProviders(<ScenarioAccessPage />, { route: '/admin/scenario-access' });
      await screen.findByRole('button', { name: /Scenario 10/ }, { timeout: 5000 });
      expect(screen.queryByRole('button', { name: /Scenario 11/ })).not.toBeInTheDocument();
      expect(screen.getByText('12 rows')).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Next' }));
      await screen.findByRole('button', { name: /Scenario 12/ });
      expect(screen.queryByRole('button', { name: /Scenario 01/ })).not.toBeInTheDocument();
      const requests = calls.map((call) => new URL(call.url, 'http://localhost').searchParams);
      expect(Object.fromEntries(requests.at(-1)!)).toEqual({
        limit: '10',
        offset: '10',
        sort: 'scenario_name',
        order: 'asc',
      });

      await user.type(screen.getByRole('textbox', { name: 'Search scenarios' }), '03');
      await waitFor(() =>
        expect(screen.getAllByRole('button', { name: /Scenario \d+/ })).toHaveLength(1),
      );
      expect(screen.getByRole('button', { name: /Scenario 03/ })).toBeInTheDocument();
      expect(
        Object.fromEntries(new URL(calls.at(-1)!.url, 'http://localhost').searchParams),
      ).toEqual({ limit: '10', offset: '0', sort: 'scenario_name', order: 'asc', q: '03' });
    },
    UI_TIMEOUT,
  );

  it(
    "shows a scenario's first grants from its entry and asks the server for the other pages, orders and searches",
    async () => {
      const user = userEvent.setup({ delay: null });
      const entry = matrix.scenario_access[0]!;
      const grants = Array.from({ length: 12 }, (_, index) => ({
        ...entry.organizations[0]!,
        organization_id: org(20 + index, 'grant'),
        organization_name: `Grantee ${String(index + 1).padStart(2, '0')}`,
        expires_at: inDays(100 + index),
      }));
      const calls = mockFetch({
        'GET /v1/admin/scenarios/access': accessRoute([
          {
            ...entry,
            organizations_with_access: 12,
            organizations_with_grant: 12,
            organizations: grants.slice(0, 10),
          },
        ]),
        [`GET /v1/admin/scenarios/${scenarioId}/access`]: grantsRoute(grants),
      });
      const grantsAsked = () =>
        calls
          .filter((call) => call.url.startsWith(`/v1/admin/scenarios/${scenarioId}/access`))
          .map((call) => Object.fromEntries(new URL(call.url, 'http://localhost').searchParams));
      renderWithProviders(<ScenarioAccessPage />);
      await user.click(
        await screen.findByRole('button', { name: /Fire safety/ }, { timeout: 5000 }),
      );
      const grantees = () => screen.getAllByText(/^Grantee \d+$/).map((cell) => cell.textContent);
      expect(grantees()).toHaveLength(10);
      expect(screen.getByText('12 rows')).toBeInTheDocument();
      expect(grantsAsked()).toEqual([]);

      await user.click(await screen.findByRole('button', { name: 'Next' }, { timeout: 5000 }));
      await waitFor(() => expect(grantees()).toEqual(['Grantee 11', 'Grantee 12']));
      expect(grantsAsked().at(-1)).toEqual({
        limit: '10',
        offset: '10',
        sort: 'organization_name',
        order: 'asc',
      });

      // Latest expiry first: the server sorts, from the first page.
      await user.click(screen.getByRole('button', { name: /Expires/ }));
      await waitFor(() => expect(grantees()[0]).toBe('Grantee 12'));
      expect(grantsAsked().at(-1)).toMatchObject({
        offset: '0',
        sort: 'expires_at',
        order: 'desc',
      });

      await user.type(
        screen.getByRole('textbox', { name: 'Search organizations: Fire safety' }),
        'grantee 1',
      );
      await waitFor(() => expect(grantees()).toHaveLength(3));
      expect(grantsAsked().at(-1)).toMatchObject({ q: 'grantee 1', offset: '0' });
    },
    UI_TIMEOUT,
  );
});
