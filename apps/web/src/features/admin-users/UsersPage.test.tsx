import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import i18n from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RequireAuth } from '../../auth/guards';
import { listAnswer } from '../../test/lists';
import { mockFetch, renderWithProviders, type FakeRoute } from '../../test/render';
import { UsersPage } from './UsersPage';
import { pick, requestsTo, Where } from '../../test/screen';

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
  mfa_enabled: true,
  created_at: '2026-04-01T10:00:00.000Z',
};
const organizations = [
  {
    id: admin.organization_id,
    name: 'Platform',
    active: true,
    created_at: '2026-01-01T00:00:00.000Z',
    mfa_required: false,
  },
  {
    id: staff.organization_id,
    name: 'City Clinic',
    active: true,
    created_at: '2026-01-02T00:00:00.000Z',
    mfa_required: false,
  },
];

const accounts = [
  { ...admin, active: true, mfa_enabled: false, created_at: '2026-01-01T00:00:00.000Z' },
  staff,
];

/** The accounts and organisations endpoints, paged, sorted, searched and filtered as the server does. */
function routes(extra: Record<string, FakeRoute> = {}) {
  return mockFetch({
    'GET /v1/me': admin,
    'GET /v1/admin/users': ({ url }: { url: URL }) =>
      listAnswer('users', accounts, url, {
        search: ['email'],
        defaultSort: 'email',
        filters: {
          organization_id: (account, value) => account.organization_id === value,
          role: (account, value) => account.role === value,
        },
      }),
    'GET /v1/admin/organizations': ({ url }: { url: URL }) =>
      listAnswer('organizations', organizations, url, { search: ['name'], defaultSort: 'name' }),
    [`GET /v1/admin/organizations/${staff.organization_id}`]: organizations[1]!,
    'GET /v1/admin/mfa-policy': { admins_required: false },
    ...extra,
  });
}

function renderPage(route = '/admin/users') {
  return renderWithProviders(
    <RequireAuth enrolNow={null}>
      <UsersPage />
      <Where />
    </RequireAuth>,
    { route },
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
      await user.type(within(dialog).getByLabelText(/^Password/), 'lantern');
      await pick(
        user,
        within(dialog).getByRole('combobox', { name: /^Organization/ }),
        'City Clinic',
      );
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(
        await within(dialog).findByText('Password must be at least 8 characters'),
      ).toBeInTheDocument();
      expect(
        within(dialog).queryByText('Please fill in all required fields'),
      ).not.toBeInTheDocument();
      expect(calls.some((call) => call.method === 'POST')).toBe(false);

      await user.type(within(dialog).getByLabelText(/^Password/), '-8');
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(await screen.findByText('User created')).toBeInTheDocument();
      expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
        email: 'new@clinic.example',
        password: 'lantern-8',
        role: 'client',
        organization_id: staff.organization_id,
      });
    },
    UI_TIMEOUT,
  );

  it(
    "says why creating failed, in the console's words for the server's code",
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
      await user.type(within(dialog).getByLabelText(/^Password/), 'lantern-secret');
      await pick(
        user,
        within(dialog).getByRole('combobox', { name: /^Organization/ }),
        'City Clinic',
      );
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      // The console's own words for the code, never the server's text.
      expect(
        await screen.findByText('An account with this email already exists.'),
      ).toBeInTheDocument();
      expect(screen.queryByText('This email is already in use')).not.toBeInTheDocument();
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

      await user.type(within(dialog).getByLabelText(/^New password/), 'lantern-ok');
      await user.type(within(dialog).getByLabelText(/^Confirm password/), 'lantern-no');
      await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
      expect(await within(dialog).findByText('Passwords do not match')).toBeInTheDocument();

      await user.clear(within(dialog).getByLabelText(/^New password/));
      await user.clear(within(dialog).getByLabelText(/^Confirm password/));
      await user.type(within(dialog).getByLabelText(/^New password/), 'lante');
      await user.type(within(dialog).getByLabelText(/^Confirm password/), 'lante');
      await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
      expect(
        await within(dialog).findByText('Password must be at least 8 characters'),
      ).toBeInTheDocument();
      expect(calls.some((call) => call.method === 'POST')).toBe(false);

      await user.type(within(dialog).getByLabelText(/^New password/), 'rn-ok');
      await user.type(within(dialog).getByLabelText(/^Confirm password/), 'rn-ok');
      await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
      expect(await screen.findByText('Password changed')).toBeInTheDocument();
      expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
        new_password: 'lantern-ok',
      });
    },
    UI_TIMEOUT,
  );

  it(
    'filters by organisation and role and searches the email on the server, from the URL and back',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = routes();
      renderPage(`/admin/users?organization_id=${staff.organization_id}&role=client`);
      await screen.findByText('staff@clinic.example', {}, { timeout: 5000 });
      expect(screen.queryByText('admin@example.com')).not.toBeInTheDocument();
      expect(requestsTo(calls, '/v1/admin/users')[0]).toEqual({
        limit: '10',
        offset: '0',
        sort: 'email',
        order: 'asc',
        organization_id: staff.organization_id,
        role: 'client',
      });
      // The organisation of the link is named (fetched by its id).
      await waitFor(() =>
        expect(screen.getByRole('combobox', { name: 'Organization' })).toHaveValue('City Clinic'),
      );
      expect(screen.getByRole('combobox', { name: 'Role' })).toHaveValue('Staff');

      // A new account starts in the filtered organisation.
      await user.click(screen.getByRole('button', { name: 'Add user' }));
      const dialog = await screen.findByRole('dialog', { name: 'New user' });
      expect(within(dialog).getByRole('combobox', { name: /^Organization/ })).toHaveValue(
        'City Clinic',
      );
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

      // Choosing the chosen option again clears a filter.
      await pick(user, screen.getByRole('combobox', { name: 'Organization' }), 'City Clinic');
      await pick(user, screen.getByRole('combobox', { name: 'Role' }), 'Staff');
      await screen.findByText('admin@example.com');
      expect(screen.getByTestId('location')).toBeEmptyDOMElement();

      await user.type(screen.getByRole('textbox', { name: 'Search users' }), 'CLINIC');
      await waitFor(() => expect(screen.queryByText('admin@example.com')).not.toBeInTheDocument());
      expect(requestsTo(calls, '/v1/admin/users').at(-1)).toEqual({
        limit: '10',
        offset: '0',
        sort: 'email',
        order: 'asc',
        q: 'CLINIC',
      });
      expect(screen.getByTestId('location')).toHaveTextContent('?q=CLINIC');
    },
    UI_TIMEOUT,
  );

  it(
    'resets the second factor of an account that has one, with the reason, and says so',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = routes({ [`POST /v1/admin/users/${staff.id}/mfa/reset`]: { ok: true } });
      renderPage();
      const row = (await screen.findByText('staff@clinic.example', {}, { timeout: 5000 })).closest(
        'tr',
      )!;
      // Only an account with a factor offers the reset.
      const mine = screen.getByText('admin@example.com').closest('tr')!;
      expect(
        within(mine).queryByRole('button', { name: 'Reset two-factor authentication' }),
      ).not.toBeInTheDocument();

      await user.click(
        within(row).getByRole('button', { name: 'Reset two-factor authentication' }),
      );
      const dialog = await screen.findByRole('dialog', { name: 'Reset two-factor authentication' });
      expect(
        within(dialog).getByText(/Every second factor of staff@clinic\.example will be removed/),
      ).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Reset' }));
      expect(await within(dialog).findByText('Give the reason')).toBeInTheDocument();
      expect(calls.some((call) => call.method === 'POST')).toBe(false);

      await user.type(within(dialog).getByLabelText(/^Reason/), '  Phone lost, checked by call ');
      await user.click(within(dialog).getByRole('button', { name: 'Reset' }));
      expect(
        await screen.findByText('Two-factor authentication of staff@clinic.example reset'),
      ).toBeInTheDocument();
      expect(calls.find((call) => call.method === 'POST')).toMatchObject({
        url: `/v1/admin/users/${staff.id}/mfa/reset`,
        body: { reason: 'Phone lost, checked by call' },
      });
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    },
    UI_TIMEOUT,
  );

  it(
    'asks before it requires a second factor of platform admins, and shows the new setting',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = routes({
        'PUT /v1/admin/mfa-policy': ({ body }: { body?: unknown }) => body,
      });
      renderPage();
      const toggle = await screen.findByRole('switch', {
        name: 'Two-factor authentication for platform admins',
      });
      await waitFor(() => expect(toggle).toBeEnabled());
      expect(toggle).not.toBeChecked();

      // Cancelled: nothing is sent, nothing changes.
      await user.click(toggle);
      let question = await screen.findByRole('dialog', {
        name: 'Require two-factor authentication',
      });
      await user.click(within(question).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(calls.some((call) => call.method === 'PUT')).toBe(false);
      expect(toggle).not.toBeChecked();

      await user.click(toggle);
      question = await screen.findByRole('dialog', { name: 'Require two-factor authentication' });
      expect(within(question).getByText(/you included if you have none/)).toBeInTheDocument();
      await user.click(within(question).getByRole('button', { name: 'Require' }));
      expect(
        await screen.findByText('Platform admins must now use two-factor authentication'),
      ).toBeInTheDocument();
      expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ admins_required: true });
      await waitFor(() => expect(toggle).toBeChecked());
      expect(screen.getByText(/^Required: a platform admin without/)).toBeInTheDocument();
    },
    UI_TIMEOUT,
  );

  it(
    'marks staff of an organisation with single sign-on exempt from it, and offers no admin that',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = routes({
        [`GET /v1/admin/organizations/${staff.organization_id}/sso`]: {
          organization_id: staff.organization_id,
          protocol: 'oidc',
          enforced: true,
          issuer: 'https://idp.example',
          client_id: 'console',
          client_secret_set: true,
          email_domains: ['clinic.example'],
          jit: false,
          default_role: 'client',
          redirect_uri: 'https://console.example/v1/auth/sso/callback',
          idp_entity_id: '',
          entry_point: '',
          idp_certificate: '',
          acs_url: '',
          sp_entity_id: '',
          sp_metadata_url: '',
          updated_at: '2026-04-01T10:00:00.000Z',
        },
        [`PUT /v1/admin/users/${staff.id}`]: ({ body }: { body?: unknown }) => ({
          ...staff,
          ...(body as object),
        }),
      });
      renderPage();
      // A platform admin always signs in by password: no exemption to give.
      const mine = (await screen.findByText('admin@example.com', {}, { timeout: 5000 })).closest(
        'tr',
      )!;
      await user.click(within(mine).getByRole('button', { name: /Edit/ }));
      let dialog = await screen.findByRole('dialog', { name: 'Edit user' });
      expect(within(dialog).getByRole('switch', { name: /^Active/ })).toBeInTheDocument();
      expect(within(dialog).queryByRole('switch', { name: /single sign-on/ })).toBeNull();
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

      const row = screen.getByText('staff@clinic.example').closest('tr')!;
      await user.click(within(row).getByRole('button', { name: /Edit/ }));
      dialog = await screen.findByRole('dialog', { name: 'Edit user' });
      const exempt = await within(dialog).findByRole('switch', {
        name: /^Exempt from single sign-on/,
      });
      expect(exempt).not.toBeChecked();
      expect(
        within(dialog).getByText(/although the organisation requires single sign-on/),
      ).toBeInTheDocument();
      await user.click(exempt);
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
        email: 'staff@clinic.example',
        sso_exempt: true,
      });
    },
    UI_TIMEOUT,
  );

  it(
    'speaks Russian: the admins’ requirement turned off, and the reset dialog',
    async () => {
      await i18n.changeLanguage('ru');
      try {
        const user = userEvent.setup({ delay: null });
        const calls = routes({
          'GET /v1/admin/mfa-policy': { admins_required: true },
          'PUT /v1/admin/mfa-policy': ({ body }: { body?: unknown }) => body,
        });
        renderPage();
        const toggle = await screen.findByRole('switch', {
          name: 'Двухфакторная аутентификация для администраторов платформы',
        });
        await waitFor(() => expect(toggle).toBeChecked());
        await user.click(toggle);
        const question = await screen.findByRole('dialog', {
          name: 'Не требовать двухфакторную аутентификацию',
        });
        await user.click(within(question).getByRole('button', { name: 'Не требовать' }));
        expect(
          await screen.findByText(
            'Двухфакторная аутентификация для администраторов платформы больше не обязательна',
          ),
        ).toBeInTheDocument();
        expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
          admins_required: false,
        });
        await waitFor(() => expect(toggle).not.toBeChecked());

        const row = screen.getByText('staff@clinic.example').closest('tr')!;
        await user.click(
          within(row).getByRole('button', { name: 'Сбросить двухфакторную аутентификацию' }),
        );
        const dialog = await screen.findByRole('dialog', {
          name: 'Сброс двухфакторной аутентификации',
        });
        expect(within(dialog).getByLabelText(/^Причина/)).toBeInTheDocument();
        expect(within(dialog).getByRole('button', { name: 'Сбросить' })).toBeInTheDocument();
      } finally {
        await i18n.changeLanguage('en');
      }
    },
    UI_TIMEOUT,
  );
});
