import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import i18n from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RequireAuth } from '../../auth/guards';
import { writeStoredLogin } from '../../auth/storage';
import { mockFetch, renderWithProviders } from '../../test/render';
import { UsersPage } from './UsersPage';

/** These walk through dialogs field by field: slow in jsdom on a busy machine. */
const UI_TIMEOUT = 60_000;

const admin = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'admin@example.com',
  role: 'admin' as const,
  organization_id: '00000000-0000-4000-8000-0000000000a1',
  organization_name: 'Platform',
};
const staff = {
  id: '00000000-0000-4000-8000-000000000002',
  email: 'staff@clinic.example',
  role: 'client' as const,
  organization_id: '00000000-0000-4000-8000-0000000000a2',
  organization_name: 'City Clinic',
  active: true,
  created_at: '2026-04-01T10:00:00.000Z',
};
const organizations = [
  {
    id: admin.organization_id,
    name: 'Platform',
    active: true,
    created_at: '2026-01-01T00:00:00.000Z',
  },
  {
    id: staff.organization_id,
    name: 'City Clinic',
    active: true,
    created_at: '2026-01-02T00:00:00.000Z',
  },
];

function routes(extra: Record<string, unknown> = {}) {
  return mockFetch({
    'GET /v1/me': admin,
    'GET /v1/admin/users': {
      users: [{ ...admin, active: true, created_at: '2026-01-01T00:00:00.000Z' }, staff],
    },
    'GET /v1/admin/organizations': { organizations },
    ...extra,
  });
}

/** Chooses an option of a Mantine Select (its list is the one the input controls). */
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

function renderPage() {
  writeStoredLogin({ token: 't', user: admin });
  return renderWithProviders(
    <RequireAuth>
      <UsersPage />
    </RequireAuth>,
  );
}

describe('admin users screen', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
    await i18n.loadNamespaces('adminUsers');
  });
  // Toasts live in a module-wide store: none may leak into the next test.
  afterEach(() => notifications.clean());
  beforeEach(() => routes());

  it(
    'asks for every required field, then for a long enough password, then creates the user',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = routes({
        'POST /v1/admin/users': { status: 201, body: { ...staff, email: 'new@clinic.example' } },
      });
      renderPage();
      await screen.findByText('staff@clinic.example', {}, { timeout: 5000 });

      await user.click(screen.getByRole('button', { name: 'Add user' }));
      const dialog = await screen.findByRole('dialog', { name: 'New user' });
      const email = within(dialog).getByLabelText(/^Email/);
      expect(email).toHaveAttribute('type', 'email');
      expect(email).toHaveFocus();

      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(
        await within(dialog).findByText('Please fill in all required fields'),
      ).toBeInTheDocument();

      await user.type(email, 'new@clinic.example');
      await user.type(within(dialog).getByLabelText(/^Password/), '12345');
      await pick(
        user,
        within(dialog).getByRole('combobox', { name: /^Organization/ }),
        'City Clinic',
      );
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(
        await within(dialog).findByText('Password must be at least 6 characters'),
      ).toBeInTheDocument();
      expect(
        within(dialog).queryByText('Please fill in all required fields'),
      ).not.toBeInTheDocument();
      expect(calls.some((call) => call.method === 'POST')).toBe(false);

      await user.type(within(dialog).getByLabelText(/^Password/), '6');
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(await screen.findByText('User created')).toBeInTheDocument();
      expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
        email: 'new@clinic.example',
        password: '123456',
        role: 'client',
        organization_id: staff.organization_id,
      });
    },
    UI_TIMEOUT,
  );

  it(
    "shows the server's reason when creating fails",
    async () => {
      const user = userEvent.setup({ delay: null });
      routes({
        'POST /v1/admin/users': {
          status: 409,
          body: { error: 'email_taken', message: 'This email is already in use' },
        },
      });
      renderPage();
      await screen.findByText('staff@clinic.example', {}, { timeout: 5000 });
      await user.click(screen.getByRole('button', { name: 'Add user' }));
      const dialog = await screen.findByRole('dialog', { name: 'New user' });
      await user.type(within(dialog).getByLabelText(/^Email/), 'staff@clinic.example');
      await user.type(within(dialog).getByLabelText(/^Password/), 'secret1');
      await pick(
        user,
        within(dialog).getByRole('combobox', { name: /^Organization/ }),
        'City Clinic',
      );
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(await screen.findByText('This email is already in use')).toBeInTheDocument();
      expect(screen.getByRole('dialog', { name: 'New user' })).toBeInTheDocument();
    },
    UI_TIMEOUT,
  );

  it(
    'checks that the two passwords match and are long enough before changing a password',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = routes({ [`POST /v1/admin/users/${staff.id}/password`]: { ok: true } });
      renderPage();
      const row = (await screen.findByText('staff@clinic.example', {}, { timeout: 5000 })).closest(
        'tr',
      )!;
      await user.click(within(row).getByRole('button', { name: 'Change password' }));
      const dialog = await screen.findByRole('dialog', { name: 'Change password' });

      await user.type(within(dialog).getByLabelText(/^New password/), 'abcdef');
      await user.type(within(dialog).getByLabelText(/^Confirm password/), 'abcdeg');
      await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
      expect(await within(dialog).findByText('Passwords do not match')).toBeInTheDocument();

      await user.clear(within(dialog).getByLabelText(/^New password/));
      await user.clear(within(dialog).getByLabelText(/^Confirm password/));
      await user.type(within(dialog).getByLabelText(/^New password/), 'abc');
      await user.type(within(dialog).getByLabelText(/^Confirm password/), 'abc');
      await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
      expect(
        await within(dialog).findByText('Password must be at least 6 characters'),
      ).toBeInTheDocument();
      expect(calls.some((call) => call.method === 'POST')).toBe(false);

      await user.type(within(dialog).getByLabelText(/^New password/), 'def');
      await user.type(within(dialog).getByLabelText(/^Confirm password/), 'def');
      await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
      expect(await screen.findByText('Password changed')).toBeInTheDocument();
      expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
        new_password: 'abcdef',
      });
    },
    UI_TIMEOUT,
  );
});
