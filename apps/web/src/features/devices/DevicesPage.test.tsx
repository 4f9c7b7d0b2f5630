import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Device } from '@vrtc/contract';
import i18n from 'i18next';
import { notifications } from '@mantine/notifications';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listAnswer } from '../../test/lists';
import { installFakeFetch, renderWithProviders } from '../../test/render';
import { DevicesPage } from './DevicesPage';

function device(overrides: Partial<Device> = {}): Device {
  return {
    id: '00000000-0000-4000-8000-0000000000d1',
    name: 'Quest in room 1',
    type: 'quest',
    status: 'waiting',
    last_seen: new Date().toISOString(),
    current_session_id: null,
    organization_id: '00000000-0000-4000-8000-000000000002',
    organization_name: 'Acme',
    movement_type: 'slide',
    battery_percent: 80,
    app_version: '1.2.0',
    pending_reports: 0,
    created_at: '2026-05-01T10:00:00.000Z',
    ...overrides,
  };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A small stand-in server for the devices endpoints; `gate` holds movement-type updates back. */
function fakeServer(devices: Device[]) {
  const state = {
    devices: [...devices],
    puts: [] as unknown[],
    release: () => {},
    failing: false,
    failedGets: 0,
    gets: [] as URLSearchParams[],
  };
  let gate: Promise<void> = Promise.resolve();
  state.release = () => {};
  const hold = () => {
    gate = new Promise((resolve) => {
      state.release = resolve;
    });
  };
  installFakeFetch(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    if (method === 'GET' && url.pathname === '/v1/devices') {
      if (state.failing) {
        state.failedGets += 1;
        return json({ error: 'internal', message: 'Database unavailable' }, 503);
      }
      state.gets.push(url.searchParams);
      return json(
        listAnswer('devices', state.devices, url, {
          search: ['name'],
          defaultSort: 'name',
          filters: { status: (d, value) => d.status === value },
        }),
      );
    }
    const movement = /^\/v1\/devices\/([^/]+)\/movement-type$/.exec(url.pathname);
    if (method === 'PUT' && movement) {
      const body = JSON.parse(String(init?.body)) as { movement_type: Device['movement_type'] };
      state.puts.push(body);
      await gate;
      state.devices = state.devices.map((d) =>
        d.id === movement[1] ? { ...d, movement_type: body.movement_type } : d,
      );
      return json(state.devices.find((d) => d.id === movement[1]));
    }
    return json({ error: 'not_found', message: 'Not found' }, 404);
  });
  return { state, hold };
}

describe('devices screen', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });
  // Toasts live in a module-wide store (at most 5 shown): each test starts without old ones.
  beforeEach(() => {
    notifications.clean();
  });

  it('shows each device as a card with its status, type and details', async () => {
    fakeServer([
      device(),
      device({
        id: '00000000-0000-4000-8000-0000000000d2',
        name: 'Pico 2',
        type: 'pico',
        status: 'offline',
        battery_percent: null,
        app_version: null,
        last_seen: null,
      }),
    ]);
    renderWithProviders(<DevicesPage />);
    const cards = await screen.findAllByTestId('device-card');
    // By name, as the server sorts them.
    expect(cards).toHaveLength(2);
    expect(within(cards[1]!).getByText('Quest in room 1')).toBeInTheDocument();
    expect(within(cards[1]!).getByText('Waiting')).toBeInTheDocument();
    expect(within(cards[1]!).getByText('80%')).toBeInTheDocument();
    expect(within(cards[1]!).getByText('just now')).toBeInTheDocument();
    expect(within(cards[0]!).getByText('Pico 2')).toBeInTheDocument();
    expect(within(cards[0]!).getByText('Offline')).toBeInTheDocument();
    expect(within(cards[0]!).getByText('Never')).toBeInTheDocument();
    expect(within(cards[0]!).queryByText('Battery')).not.toBeInTheDocument();
    expect(screen.getByTestId('device-total')).toHaveTextContent('2 devices');
  });

  it('shows the results a headset still holds, in both languages with their plural forms', async () => {
    fakeServer([
      device({ pending_reports: 3 }),
      device({ id: '00000000-0000-4000-8000-0000000000d2', name: 'Quest 2', pending_reports: 0 }),
    ]);
    renderWithProviders(<DevicesPage />);
    // By name, as the server sorts them: Quest 2 first.
    const cards = (await screen.findAllByTestId('device-card')).reverse();
    expect(within(cards[0]!).getByText('3 results waiting to upload')).toBeInTheDocument();
    // None waiting: nothing said.
    expect(within(cards[1]!).queryByText(/waiting to upload/)).not.toBeInTheDocument();

    await i18n.changeLanguage('ru');
    try {
      expect(await within(cards[0]!).findByText('3 результата ждут отправки')).toBeInTheDocument();
      expect(i18n.t('devices:pendingReports', { count: 1 })).toBe('1 результат ждёт отправки');
      expect(i18n.t('devices:pendingReports', { count: 5 })).toBe('5 результатов ждут отправки');
      expect(i18n.t('devices:pendingReports', { count: 21 })).toBe('21 результат ждёт отправки');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('ignores movement-type toggles while the previous update is still running', async () => {
    const user = userEvent.setup();
    const { state, hold } = fakeServer([device()]);
    renderWithProviders(<DevicesPage />);
    const card = await screen.findByTestId('device-card');
    await user.click(within(card).getByRole('button', { name: 'Device settings' }));

    hold();
    await user.click(within(card).getByRole('radio', { name: 'Teleport' }));
    await waitFor(() => expect(state.puts).toHaveLength(1));
    // While the server has not answered, further toggles do nothing.
    await user.click(within(card).getByRole('radio', { name: 'Slide' }));
    await user.click(within(card).getByRole('radio', { name: 'Teleport' }));
    await user.click(within(card).getByRole('radio', { name: 'Slide' }));
    expect(within(card).getByRole('radio', { name: 'Teleport' })).toBeChecked();

    state.release();
    expect(await screen.findByText('Movement type updated')).toBeInTheDocument();
    expect(state.puts).toEqual([{ movement_type: 'teleport' }]);
    expect(within(card).getByRole('radio', { name: 'Teleport' })).toBeChecked();

    // Once the update is done, the toggle works again.
    await user.click(within(card).getByRole('radio', { name: 'Slide' }));
    await waitFor(() =>
      expect(state.puts).toEqual([{ movement_type: 'teleport' }, { movement_type: 'slide' }]),
    );
  });

  it('disables deleting a device in a session and says why', async () => {
    const user = userEvent.setup();
    fakeServer([
      device({ status: 'in_session', current_session_id: '00000000-0000-4000-8000-0000000000aa' }),
    ]);
    renderWithProviders(<DevicesPage />);
    const card = await screen.findByTestId('device-card');
    await user.click(within(card).getByRole('button', { name: 'Device settings' }));
    expect(within(card).getByRole('button', { name: 'Delete device' })).toBeDisabled();
    expect(within(card).getByText('00000000')).toBeInTheDocument();
  });

  it('offers to show all devices when the status filter leaves the list empty', async () => {
    const user = userEvent.setup();
    fakeServer([device()]);
    renderWithProviders(<DevicesPage />);
    expect(await screen.findByTestId('device-card')).toBeInTheDocument();

    await user.click(screen.getByLabelText('Status', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Offline', hidden: true }));
    expect(await screen.findByText('No devices with this status')).toBeInTheDocument();
    expect(screen.queryByTestId('device-card')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Show all devices' }));
    expect(await screen.findByTestId('device-card')).toBeInTheDocument();
    expect(screen.getByLabelText('Status', { selector: 'input' })).toHaveValue('All statuses');
  });

  it('keeps showing the last list when a background refresh fails; only a failed first load shows an error', async () => {
    const user = userEvent.setup();
    const { state } = fakeServer([device()]);
    const first = renderWithProviders(<DevicesPage />);
    expect(await screen.findByTestId('device-card')).toBeInTheDocument();
    state.failing = true;
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(state.failedGets).toBeGreaterThan(0));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Refresh' })).not.toHaveAttribute('data-loading'),
    );
    expect(screen.getByTestId('device-card')).toBeInTheDocument();
    expect(screen.queryByText('Database unavailable')).not.toBeInTheDocument();
    first.unmount();

    renderWithProviders(<DevicesPage />);
    expect(await screen.findByText('Database unavailable')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('without any device, the empty state offers adding a headset instead', async () => {
    fakeServer([]);
    renderWithProviders(<DevicesPage />);
    expect(await screen.findByText('No headsets yet')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show all devices' })).not.toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Add headset' }).length).toBeGreaterThan(0);
  });

  it('pages the cards on the server, twelve at a time, and a filter starts again on page 1', async () => {
    const user = userEvent.setup();
    const { state } = fakeServer(
      Array.from({ length: 13 }, (_, index) =>
        device({
          id: `00000000-0000-4000-8000-0000000001${String(index).padStart(2, '0')}`,
          name: `Headset ${String(index + 1).padStart(2, '0')}`,
          status: index === 12 ? 'offline' : 'waiting',
        }),
      ),
    );
    renderWithProviders(<DevicesPage />);
    await waitFor(() => expect(screen.getAllByTestId('device-card')).toHaveLength(12));
    expect(screen.getByTestId('device-total')).toHaveTextContent('13 devices');
    expect(Object.fromEntries(state.gets[0]!)).toEqual({
      limit: '12',
      offset: '0',
      sort: 'name',
      order: 'asc',
    });

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getAllByTestId('device-card')).toHaveLength(1));
    expect(screen.getByTestId('device-card')).toHaveTextContent('Headset 13');
    expect(state.gets.at(-1)!.get('offset')).toBe('12');
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();

    await user.click(screen.getByLabelText('Status', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Waiting', hidden: true }));
    await waitFor(() => expect(screen.getAllByTestId('device-card')).toHaveLength(12));
    expect(Object.fromEntries(state.gets.at(-1)!)).toEqual({
      limit: '12',
      offset: '0',
      sort: 'name',
      order: 'asc',
      status: 'waiting',
    });
    expect(screen.getByTestId('device-total')).toHaveTextContent('12 devices');
    // One page only: no pager.
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
  });
});
