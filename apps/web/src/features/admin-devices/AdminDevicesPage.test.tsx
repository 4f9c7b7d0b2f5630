import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import i18n from 'i18next';
import type { Device } from '@vrtc/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listAnswer } from '../../test/lists';
import { mockFetch, renderWithProviders, type FakeRequest } from '../../test/render';
import { AdminDevicesPage } from './AdminDevicesPage';
import { deleteDevices } from '../../api/devices';
import { pick, requestsTo, Where } from '../../test/screen';

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
  pending_reports: 0,
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

/**
 * GET /v1/admin/devices/all as the server answers it: a page of the devices under the filters and
 * q, and the summary by status under the filters other than status and q.
 */
function devicesRoute(devices: readonly Device[]) {
  return ({ url }: FakeRequest) => {
    const params = url.searchParams;
    const inScope = devices.filter(
      (device) =>
        (!params.get('organization_id') ||
          device.organization_id === params.get('organization_id')) &&
        (!params.get('device_type') || device.type === params.get('device_type')) &&
        (!params.get('movement_type') || device.movement_type === params.get('movement_type')),
    );
    const count = (status: Device['status']) =>
      inScope.filter((device) => device.status === status).length;
    return {
      ...listAnswer('devices', inScope, url, {
        search: ['name', 'organization_name'],
        defaultSort: 'name',
        filters: { status: (device, value) => device.status === value },
      }),
      summary: {
        total: inScope.length,
        waiting: count('waiting'),
        in_session: count('in_session'),
        offline: count('offline'),
      },
    };
  };
}

describe('deleting several devices', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
    await i18n.loadNamespaces('adminDevices');
  });
  // Toasts live in a module-wide store: none may leak into the next test.
  afterEach(() => notifications.clean());

  it('deletes the devices with one bulk call and reports the skipped ones as failed', async () => {
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

  it(
    'lets only devices out of session be selected, confirms, and reports a partial failure',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = mockFetch({
        'GET /v1/admin/devices/all': devicesRoute([alpha, bravo, charlie] as Device[]),
        'GET /v1/admin/organizations': { organizations: [], total: 0, limit: 20, offset: 0 },
        // Bravo started a session meanwhile: the server skips it.
        'POST /v1/admin/devices/bulk-delete': {
          deleted: [alpha.id],
          skipped: [{ id: bravo.id, reason: 'device_in_session' }],
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
      expect(calls.some((call) => call.url.endsWith('/bulk-delete'))).toBe(false);
      await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

      expect(await screen.findByText(/Failed to delete some devices/)).toBeInTheDocument();
      expect(screen.getByText(/1 of 2 deleted/)).toBeInTheDocument();
      await waitFor(() =>
        expect(screen.queryByRole('button', { name: /Delete selected/ })).not.toBeInTheDocument(),
      );
      const bulk = calls.filter((call) => call.url === '/v1/admin/devices/bulk-delete');
      expect(bulk.map((call) => call.body)).toEqual([{ device_ids: [alpha.id, bravo.id] }]);
    },
    UI_TIMEOUT,
  );

  it(
    'counts from the summary, pages, searches and filters on the server, and selects within the page',
    async () => {
      const user = userEvent.setup({ delay: null });
      const many = [
        alpha,
        bravo,
        charlie,
        ...Array.from({ length: 9 }, (_, index) => ({
          ...alpha,
          id: `00000000-0000-4000-8000-0000000001${String(index).padStart(2, '0')}`,
          name: `Device ${String(index + 4).padStart(2, '0')}`,
          status: index < 3 ? 'offline' : 'waiting',
        })),
      ] as Device[];
      const calls = mockFetch({
        'GET /v1/admin/devices/all': devicesRoute(many),
        'GET /v1/admin/organizations': { organizations: [], total: 0, limit: 20, offset: 0 },
      });
      renderWithProviders(
        <>
          <AdminDevicesPage />
          <Where />
        </>,
        { route: '/admin/devices' },
      );
      await screen.findByText('12 rows', {}, { timeout: 5000 });
      const stat = (label: string) =>
        screen
          .getByText(label, { selector: 'p' })
          .parentElement!.querySelector('[data-testid="stat-value"]');
      expect(stat('Total devices')).toHaveTextContent('12');
      expect(stat('Waiting')).toHaveTextContent('7');
      expect(stat('In session')).toHaveTextContent('1');
      expect(stat('Offline')).toHaveTextContent('4');
      expect(requestsTo(calls, '/v1/admin/devices/all')[0]).toEqual({
        limit: '10',
        offset: '0',
        sort: 'name',
        order: 'asc',
      });

      // A selection belongs to the page it was made on.
      const row = (name: string) => screen.getByText(name).closest('tr')!;
      await user.click(within(row('Alpha')).getByRole('checkbox', { name: 'Select row' }));
      expect(screen.getByText('1 selected')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Next' }));
      await screen.findByText('Device 12');
      expect(requestsTo(calls, '/v1/admin/devices/all').at(-1)).toMatchObject({ offset: '10' });
      expect(screen.queryByText('1 selected')).not.toBeInTheDocument();

      // A status filter narrows the table; the counts stay those of every status.
      await pick(user, screen.getByRole('combobox', { name: 'Status' }), 'Offline');
      await screen.findByText('4 rows');
      expect(requestsTo(calls, '/v1/admin/devices/all').at(-1)).toEqual({
        limit: '10',
        offset: '0',
        sort: 'name',
        order: 'asc',
        status: 'offline',
      });
      expect(stat('Total devices')).toHaveTextContent('12');

      await user.type(screen.getByRole('textbox', { name: 'Search devices' }), 'bravo');
      await screen.findByText('1 row');
      expect(requestsTo(calls, '/v1/admin/devices/all').at(-1)).toMatchObject({
        status: 'offline',
        q: 'bravo',
      });
      expect(screen.getByTestId('location')).toHaveTextContent('?status=offline&q=bravo');

      await user.click(screen.getByRole('button', { name: 'Last seen' }));
      await waitFor(() =>
        expect(requestsTo(calls, '/v1/admin/devices/all').at(-1)).toMatchObject({
          sort: 'last_seen',
        }),
      );
    },
    UI_TIMEOUT,
  );
});
