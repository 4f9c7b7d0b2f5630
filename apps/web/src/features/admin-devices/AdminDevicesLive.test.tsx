import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Device } from '@vrtc/contract';
import i18n from 'i18next';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveEventsProvider } from '../../api/live-events';
import { fakeLiveServer, type FakeLiveServer } from '../../test/live';
import { listAnswer } from '../../test/lists';
import { mockFetch, renderWithProviders } from '../../test/render';
import { AdminDevicesPage } from './AdminDevicesPage';

/** All devices follows every organisation's headsets live, while auto-refresh is on. */

const ADMIN_ORG = '00000000-0000-4000-8000-0000000000a0';
const OTHER_ORG = '00000000-0000-4000-8000-0000000000a1';
const device = (n: number, name: string): Device => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  name,
  type: 'quest',
  status: 'waiting',
  last_seen: '2026-05-10T11:59:00.000Z',
  current_session_id: null,
  organization_id: OTHER_ORG,
  organization_name: 'City Clinic',
  movement_type: 'slide',
  battery_percent: null,
  app_version: null,
  pending_reports: 0,
  created_at: '2026-05-01T00:00:00.000Z',
});

let live: FakeLiveServer;
let devices: Device[];

beforeAll(async () => {
  await i18n.changeLanguage('en');
  await i18n.loadNamespaces('adminDevices');
});
beforeEach(() => {
  live = fakeLiveServer();
  devices = [device(1, 'Alpha')];
  mockFetch({
    'GET /v1/events': () => live.connect(),
    'GET /v1/admin/organizations': { organizations: [], total: 0, limit: 20, offset: 0 },
    'GET /v1/admin/devices/all': ({ url }) => ({
      ...listAnswer('devices', devices, url, { defaultSort: 'name' }),
      summary: { total: devices.length, waiting: devices.length, in_session: 0, offline: 0 },
    }),
  });
});
afterEach(() => live.close());

const enrolled = (added: Device) => {
  devices = [...devices, added];
  act(() =>
    live.send({
      type: 'device',
      change: 'enrolled',
      device_id: added.id,
      organization_id: added.organization_id,
    }),
  );
};

describe('All devices, live', () => {
  it("shows another organisation's new headset at once, and not while auto-refresh is off", async () => {
    const user = userEvent.setup({ delay: null });
    renderWithProviders(
      <LiveEventsProvider organizationId={ADMIN_ORG}>
        <AdminDevicesPage />
      </LiveEventsProvider>,
    );
    expect(await screen.findByText('Alpha', {}, { timeout: 5000 })).toBeInTheDocument();
    await waitFor(() => expect(live.open).toBe(true));
    act(() => live.ready());
    expect(
      await screen.findByText('The list updates live, as headsets change'),
    ).toBeInTheDocument();

    // A list that updates itself offers no Refresh.
    expect(screen.queryByRole('button', { name: 'Refresh' })).not.toBeInTheDocument();
    enrolled(device(2, 'Bravo'));
    expect(await screen.findByText('Bravo')).toBeInTheDocument();

    // Switched off, the list stays as it is (the admin may be choosing what to delete).
    await user.click(screen.getByRole('switch', { name: 'Auto-refresh' }));
    expect(await screen.findByText('Auto-refresh is off')).toBeInTheDocument();
    // The event is applied (the live refresh runs, throttled) and whatever it refetched has
    // arrived: Charlie is still not shown.
    const refreshes = vi.spyOn(QueryClient.prototype, 'invalidateQueries');
    enrolled(device(3, 'Charlie'));
    await waitFor(() => expect(refreshes).toHaveBeenCalled());
    await act(() => refreshes.mock.results[0]!.value);
    refreshes.mockRestore();
    expect(screen.queryByText('Charlie')).not.toBeInTheDocument();
    // Paused, it offers a Refresh, which reads the list.
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('Charlie')).toBeInTheDocument();
  });
});
