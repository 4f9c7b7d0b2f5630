import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import i18n from 'i18next';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { installFakeFetch, renderWithProviders } from '../../test/render';
import { AddHeadsetModal } from './AddHeadsetModal';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The enrolment-code endpoints, issuing codes in turn: CODE0001, CODE0002, … */
function fakeCodeServer() {
  const state = {
    issued: 0,
    current: null as string | null,
    calls: [] as string[],
    /** The organisation's devices, newest first (as GET /v1/devices?sort=created_at&order=desc). */
    devices: [] as Array<Record<string, unknown>>,
  };
  const issue = () => {
    state.issued += 1;
    state.current = `CODE${String(state.issued).padStart(4, '0')}`;
  };
  const body = () => ({ code: state.current, expires_at: '2026-12-01T10:00:00.000Z' });
  installFakeFetch(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const call = `${init?.method ?? 'GET'} ${url.pathname}`;
    state.calls.push(call);
    if (call === 'POST /v1/devices/enrollment-code') {
      if (!state.current) issue();
      return json(body());
    }
    if (call === 'POST /v1/devices/enrollment-code/renew') {
      issue();
      return json(body());
    }
    if (call === 'GET /v1/devices') {
      return json({ devices: state.devices, total: state.devices.length, limit: 20, offset: 0 });
    }
    if (call === 'DELETE /v1/devices/enrollment-code') {
      state.current = null;
      return json({ ok: true });
    }
    return json({ error: 'not_found', message: 'Not found' }, 404);
  });
  return state;
}

async function confirmIn(title: string, button: string) {
  const user = userEvent.setup();
  const dialog = await screen.findByRole('dialog', { name: title });
  await user.click(within(dialog).getByRole('button', { name: button }));
}

describe('Add headset', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });
  beforeEach(() => notifications.clean());

  it('replaces the code with a new one after confirmation', async () => {
    const user = userEvent.setup();
    const server = fakeCodeServer();
    renderWithProviders(<AddHeadsetModal opened onClose={() => {}} />);
    expect(await screen.findByTestId('enrollment-code')).toHaveTextContent('CODE0001');

    await user.click(screen.getByRole('button', { name: 'New code' }));
    await confirmIn('Replace the enrolment code', 'New code');
    await waitFor(() =>
      expect(screen.getByTestId('enrollment-code')).toHaveTextContent('CODE0002'),
    );
    expect(await screen.findByText('A new enrolment code is ready')).toBeInTheDocument();
    expect(server.calls).toContain('POST /v1/devices/enrollment-code/renew');
  });

  it('revokes the code, says so, and issues a new one on request', async () => {
    const user = userEvent.setup();
    const server = fakeCodeServer();
    renderWithProviders(<AddHeadsetModal opened onClose={() => {}} />);
    expect(await screen.findByTestId('enrollment-code')).toHaveTextContent('CODE0001');

    await user.click(screen.getByRole('button', { name: 'Revoke code' }));
    await confirmIn('Revoke the enrolment code', 'Revoke code');
    expect(
      await screen.findByText(/The enrolment code is revoked: no headset can join with it/),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('enrollment-code')).not.toBeInTheDocument();
    expect(server.current).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Get a new code' }));
    expect(await screen.findByTestId('enrollment-code')).toHaveTextContent('CODE0002');
  });

  it('shows each headset that joins while it is open, and none that was there before', async () => {
    const server = fakeCodeServer();
    const device = (n: number, name: string, status: string) => ({
      id: `00000000-0000-4000-8000-0000000000d${n}`,
      name,
      type: 'pico',
      status,
      last_seen: null,
      current_session_id: null,
      organization_id: '00000000-0000-4000-8000-000000000002',
      organization_name: 'Acme',
      movement_type: 'slide',
      battery_percent: null,
      app_version: null,
      pending_reports: 0,
      created_at: `2026-05-0${n}T10:00:00.000Z`,
    });
    server.devices = [device(1, 'Old Quest', 'offline')];
    renderWithProviders(<AddHeadsetModal opened onClose={() => {}} pollIntervalMs={100} />);
    expect(await screen.findByTestId('enrollment-code')).toHaveTextContent('CODE0001');
    const joined = screen.getByTestId('joined-headsets');
    expect(
      within(joined).getByText(/Waiting for a headset: it shows here as soon as it joins/),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(server.calls.filter((call) => call === 'GET /v1/devices').length).toBeGreaterThan(0),
    );

    server.devices = [device(2, 'New Pico', 'waiting'), ...server.devices];
    expect(await within(joined).findByText('New Pico (Pico) joined')).toBeInTheDocument();
    expect(within(joined).getByText('1 headset joined')).toBeInTheDocument();
    expect(within(joined).getByText('Waiting')).toBeInTheDocument();
    expect(within(joined).queryByText(/Old Quest/)).not.toBeInTheDocument();
  });
});
