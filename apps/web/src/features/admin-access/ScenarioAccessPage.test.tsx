import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders } from '../../test/render';
import { defaultExpiryDay, expiryTimestamp } from './expiry-date';
import { ScenarioAccessPage } from './ScenarioAccessPage';

const UI_TIMEOUT = 60_000;
const DAY_MS = 86_400_000;

const scenarioId = '00000000-0000-4000-8000-00000000000a';
const org = (n: number, _label: string) =>
  `00000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

const matrix = {
  scenario_access: [
    {
      scenario_id: scenarioId,
      scenario_name: 'Fire safety',
      total_organizations: 4,
      organizations_with_access: 2,
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
        {
          organization_id: org(4, 'd'),
          organization_name: 'New Hospital',
          has_access: false,
          granted_at: null,
          granted_by: null,
          expires_at: null,
        },
      ],
    },
  ],
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
        'GET /v1/admin/scenarios/access': matrix,
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
      const shown = new Intl.DateTimeFormat('en-GB', {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
      }).format(new Date(year, month - 1, day));
      expect(within(dialog).getByRole('button', { name: /Access until/ })).toHaveTextContent(shown);
      expect(within(dialog).getByText(/at 23:59:59 UTC/)).toBeInTheDocument();

      await user.click(within(dialog).getByRole('button', { name: 'Grant' }));
      expect(
        await within(dialog).findByText('Please select at least one organization'),
      ).toBeInTheDocument();

      await pick(
        user,
        within(dialog).getByRole('combobox', { name: /^Organizations/ }),
        'New Hospital',
      );
      await user.click(within(dialog).getByRole('button', { name: 'Grant' }));
      expect(await screen.findByText('Access granted to 1 organization')).toBeInTheDocument();
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
        'GET /v1/admin/scenarios/access': matrix,
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
      expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
        organization_ids: [org(1, 'a'), org(2, 'b')],
      });
    },
    UI_TIMEOUT,
  );
});
