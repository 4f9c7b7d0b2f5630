import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders } from '../../test/render';
import { AdminDevicesPage } from './AdminDevicesPage';
import { deleteDevices } from './api';

const UI_TIMEOUT = 60_000;

const base = {
  type: 'quest',
  last_seen: '2026-05-10T11:59:00.000Z',
  current_session_id: null,
  organization_id: '00000000-0000-4000-8000-0000000000a1',
  organization_name: 'City Clinic',
  movement_type: 'slide',
  battery_percent: null,
  app_version: null,
  created_at: '2026-05-01T00:00:00.000Z',
};
const alpha = {
  ...base,
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Alpha',
  status: 'waiting',
};
const bravo = {
  ...base,
  id: '00000000-0000-4000-8000-000000000002',
  name: 'Bravo',
  status: 'offline',
};
const charlie = {
  ...base,
  id: '00000000-0000-4000-8000-000000000003',
  name: 'Charlie',
  status: 'in_session',
  current_session_id: '00000000-0000-4000-8000-0000000000ff',
};

describe('deleting several devices', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
    await i18n.loadNamespaces('adminDevices');
  });
  // Toasts live in a module-wide store: none may leak into the next test.
  afterEach(() => notifications.clean());

  it('uses the bulk call when the server has it', async () => {
    const calls = mockFetch({
      'POST /v1/admin/devices/bulk-delete': {
        deleted: [alpha.id],
        skipped: [{ id: charlie.id, reason: 'device_in_session' }],
      },
    });
    expect(await deleteDevices([alpha.id, charlie.id])).toEqual({
      deleted: [alpha.id],
      failed: [charlie.id],
    });
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      'POST /v1/admin/devices/bulk-delete',
    ]);
  });

  it('falls back to one DELETE per device when the bulk call is unavailable', async () => {
    const calls = mockFetch({
      // No bulk-delete route: the mock answers 404, as a server without it would.
      [`DELETE /v1/admin/devices/${alpha.id}`]: { ok: true },
      [`DELETE /v1/admin/devices/${bravo.id}`]: { ok: true },
    });
    expect(await deleteDevices([alpha.id, bravo.id])).toEqual({
      deleted: [alpha.id, bravo.id],
      failed: [],
    });
    expect(
      calls
        .filter((call) => call.method === 'DELETE')
        .map((call) => call.url)
        .sort(),
    ).toEqual([`/v1/admin/devices/${alpha.id}`, `/v1/admin/devices/${bravo.id}`]);

    mockFetch({
      'POST /v1/admin/devices/bulk-delete': {
        status: 405,
        body: { error: 'method_not_allowed', message: 'no' },
      },
      [`DELETE /v1/admin/devices/${alpha.id}`]: { ok: true },
      [`DELETE /v1/admin/devices/${bravo.id}`]: {
        status: 500,
        body: { error: 'internal', message: 'boom' },
      },
    });
    expect(await deleteDevices([alpha.id, bravo.id])).toEqual({
      deleted: [alpha.id],
      failed: [bravo.id],
    });
  });

  it(
    'lets only devices out of session be selected, confirms, and reports a partial failure',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = mockFetch({
        'GET /v1/admin/devices/all': { devices: [alpha, bravo, charlie] },
        'GET /v1/admin/organizations': { organizations: [] },
        [`DELETE /v1/admin/devices/${alpha.id}`]: { ok: true },
        [`DELETE /v1/admin/devices/${bravo.id}`]: {
          status: 409,
          body: { error: 'device_in_session', message: 'Device is in an active session' },
        },
      });
      renderWithProviders(<AdminDevicesPage />);
      const row = async (name: string) =>
        (await screen.findByText(name, {}, { timeout: 5000 })).closest('tr')!;

      expect(
        within(await row('Charlie')).getByRole('checkbox', { name: 'Select row' }),
      ).toBeDisabled();
      expect(within(await row('Charlie')).getByRole('button', { name: 'Delete' })).toBeDisabled();

      await user.click(within(await row('Alpha')).getByRole('checkbox', { name: 'Select row' }));
      await user.click(within(await row('Bravo')).getByRole('checkbox', { name: 'Select row' }));
      await user.click(screen.getByRole('button', { name: 'Delete selected (2)' }));

      const confirm = await screen.findByRole('dialog', { name: 'Delete devices' });
      expect(within(confirm).getByText(/Delete 2 selected devices\?/)).toBeInTheDocument();
      expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
      await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

      expect(await screen.findByText(/Failed to delete some devices/)).toBeInTheDocument();
      expect(screen.getByText(/1 of 2 deleted/)).toBeInTheDocument();
      await waitFor(() =>
        expect(screen.queryByRole('button', { name: /Delete selected/ })).not.toBeInTheDocument(),
      );
      expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(2);
    },
    UI_TIMEOUT,
  );
});
