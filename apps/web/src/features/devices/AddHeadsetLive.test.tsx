import { act, screen, waitFor, within } from '@testing-library/react';
import type { Device } from '@vrtc/contract';
import i18n from 'i18next';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LiveEventsProvider } from '../../api/live-events';
import { fakeLiveServer, type FakeLiveServer } from '../../test/live';
import { installFakeFetch, renderWithProviders } from '../../test/render';
import { AddHeadsetModal } from './AddHeadsetModal';

/**
 * "Add headset" with the live stream: each headset that enrols with the code shown is announced
 * in the open dialog, by name, as soon as the server tells of it (no waiting for a poll).
 */

const ORG = '00000000-0000-4000-8000-000000000002';
const json = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

const device = (n: number, name: string, status: Device['status']): Device => ({
  id: `00000000-0000-4000-8000-0000000000d${n}`,
  name,
  type: 'pico',
  status,
  last_seen: null,
  current_session_id: null,
  organization_id: ORG,
  organization_name: 'Acme',
  movement_type: 'slide',
  battery_percent: null,
  app_version: null,
  pending_reports: 0,
  created_at: `2026-05-0${n}T10:00:00.000Z`,
});

let live: FakeLiveServer;
let devices: Device[];
let deviceReads: number;

beforeEach(() => {
  live = fakeLiveServer();
  devices = [device(1, 'Old Quest', 'offline')];
  deviceReads = 0;
  installFakeFetch(async (input, init) => {
    const { pathname } = new URL(String(input), 'http://localhost');
    const call = `${init?.method ?? 'GET'} ${pathname}`;
    if (call === 'GET /v1/events') return live.connect();
    if (call === 'POST /v1/devices/enrollment-code')
      return json({ code: 'CODE0001', expires_at: '2026-12-01T10:00:00.000Z' });
    if (call === 'GET /v1/devices') {
      deviceReads += 1;
      return json({ devices, total: devices.length, limit: 20, offset: 0 });
    }
    return new Response('{}', { status: 404, headers: { 'content-type': 'application/json' } });
  });
});
afterEach(() => live.close());

/** A headset enrols: the server lists it and tells the stream. */
function enrol(added: Device) {
  devices = [added, ...devices];
  act(() =>
    live.send({ type: 'device', change: 'enrolled', device_id: added.id, organization_id: ORG }),
  );
}

async function openDialog() {
  renderWithProviders(
    <LiveEventsProvider organizationId={ORG}>
      {/* A poll far beyond the test: whatever is announced came through the stream. */}
      <AddHeadsetModal opened onClose={() => {}} pollIntervalMs={600_000} />
    </LiveEventsProvider>,
  );
  expect(await screen.findByTestId('enrollment-code')).toHaveTextContent('CODE0001');
  await waitFor(() => expect(live.open).toBe(true));
  act(() => live.ready());
  // The dialog's first look at the devices (those there before it opened), and the ready refetch.
  await waitFor(() => expect(deviceReads).toBeGreaterThanOrEqual(2));
  return screen.getByTestId('joined-headsets');
}

describe('Add headset, live', () => {
  it('announces each headset that enrols, by name, while the dialog is open', async () => {
    await i18n.changeLanguage('en');
    const joined = await openDialog();
    expect(joined).toHaveAttribute('aria-live', 'polite');
    expect(within(joined).getByText(/Waiting for a headset/)).toBeInTheDocument();

    enrol(device(2, 'New Pico', 'waiting'));
    expect(await within(joined).findByText('New Pico (Pico) joined')).toBeInTheDocument();
    expect(within(joined).getByText('1 headset joined')).toBeInTheDocument();

    enrol(device(3, 'Second Pico', 'waiting'));
    expect(await within(joined).findByText('Second Pico (Pico) joined')).toBeInTheDocument();
    expect(within(joined).getByText('2 headsets joined')).toBeInTheDocument();
    expect(within(joined).getByText('New Pico (Pico) joined')).toBeInTheDocument();
    expect(within(joined).queryByText(/Old Quest/)).not.toBeInTheDocument();
  });

  it('says it in Russian', async () => {
    await i18n.changeLanguage('ru');
    const joined = await openDialog();
    enrol(device(2, 'Новый Pico', 'waiting'));
    expect(await within(joined).findByText('Новый Pico (Pico) подключился')).toBeInTheDocument();
    expect(within(joined).getByText('Подключился 1 шлем')).toBeInTheDocument();
  });
});
