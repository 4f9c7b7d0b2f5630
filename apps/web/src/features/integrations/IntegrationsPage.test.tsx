import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  INTEGRATION_EVENTS,
  type Delivery,
  type Integration,
  type IntegrationTestResult,
  type Me,
} from '@vrtc/contract';
import i18n from 'i18next';
import { useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeStoredUser } from '../../auth/storage';
import { mockFetch, renderWithProviders, type FakeRequest } from '../../test/render';
import { IntegrationsPage } from './IntegrationsPage';
import { DELIVERY_PAGE_SIZE } from './integrations-state';

const UI_TIMEOUT = 30_000;

const ORG = '00000000-0000-4000-8000-00000000000a';
const OTHER_ORG = '00000000-0000-4000-8000-00000000000b';
const HOOK = '00000000-0000-4000-8000-0000000000e1';
const LRS = '00000000-0000-4000-8000-0000000000e2';
const NEW = '00000000-0000-4000-8000-0000000000e3';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ROTATED = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';

const staff: Me = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'anna@plant.example',
  role: 'client',
  organization_id: ORG,
  organization_name: 'Plant',
};
const admin: Me = {
  id: '00000000-0000-4000-8000-000000000002',
  email: 'admin@example.com',
  role: 'admin',
  organization_id: OTHER_ORG,
  organization_name: 'Platform',
};

const AT = '2026-05-20T12:00:00.000Z';

function integration(overrides: Partial<Integration>): Integration {
  return {
    id: HOOK,
    organization_id: ORG,
    kind: 'webhook',
    url: 'https://hooks.plant.example/vr',
    events: ['session.finished', 'device.enrolled'],
    include_names: false,
    enabled: true,
    disabled_reason: null,
    disabled_at: null,
    xapi_key: null,
    previous_secret_expires_at: null,
    created_at: AT,
    updated_at: AT,
    ...overrides,
  };
}

function delivery(n: number, overrides: Partial<Delivery> = {}): Delivery {
  return {
    id: `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    integration_id: HOOK,
    event_id: `20000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    event_type: 'session.finished',
    status: 'delivered',
    attempts: 1,
    // Newest first: delivery 1 is the newest.
    created_at: new Date(Date.UTC(2026, 4, 20, 12, 0) - n * 60_000).toISOString(),
    next_attempt_at: null,
    last_attempt_at: new Date(Date.UTC(2026, 4, 20, 12, 0) - n * 60_000).toISOString(),
    last_status_code: 200,
    last_duration_ms: 42,
    last_response: `ok ${n}`,
    last_error: null,
    delivered_at: new Date(Date.UTC(2026, 4, 20, 12, 0) - n * 60_000).toISOString(),
    ...overrides,
  };
}

const failedOne = delivery(1, {
  event_type: 'device.enrolled',
  status: 'failed',
  attempts: 8,
  last_status_code: 500,
  last_duration_ms: 1200,
  last_response: '{"error":"database is down"}',
  delivered_at: null,
});
const refusedOne = delivery(2, {
  status: 'pending',
  attempts: 2,
  last_status_code: null,
  last_duration_ms: 3,
  last_response: null,
  last_error: 'connection_refused',
  next_attempt_at: '2026-05-20T12:30:00.000Z',
  delivered_at: null,
});
const DELIVERIES = [
  failedOne,
  refusedOne,
  ...Array.from({ length: DELIVERY_PAGE_SIZE + 3 }, (_, index) => delivery(10 + index)),
];

/** A server holding integrations, answering as the contract says. */
function fakeServer(
  user: Me = staff,
  {
    integrations = [
      integration({}),
      integration({
        id: LRS,
        kind: 'xapi',
        url: 'https://lrs.plant.example/xapi',
        events: ['session.finished'],
        xapi_key: 'plant-key',
        enabled: false,
        disabled_reason: 'failing',
        disabled_at: '2026-05-19T08:00:00.000Z',
      }),
    ],
    testResult = {
      ok: true,
      status_code: 204,
      response_headers: { 'content-type': 'text/plain' },
      response_body: 'thanks, signature checked',
      duration_ms: 31,
      error: null,
    } as IntegrationTestResult,
  } = {},
) {
  writeStoredUser(user);
  const held = [...integrations];
  const deliveries = [...DELIVERIES];
  const find = (url: URL) => held.find((one) => url.pathname.includes(one.id))!;
  return mockFetch({
    'GET /v1/me': user,
    'GET /v1/integrations': ({ url }: FakeRequest) => {
      const organization = url.searchParams.get('organization_id') ?? user.organization_id;
      return { integrations: held.filter((one) => one.organization_id === organization) };
    },
    'POST /v1/integrations': ({ body }: FakeRequest) => {
      const request = body as {
        kind: Integration['kind'];
        url: string;
        events?: Integration['events'];
        key?: string;
        include_names?: boolean;
        organization_id?: string;
      };
      const xapi = request.kind === 'xapi';
      const created = integration({
        id: NEW,
        kind: request.kind,
        url: request.url,
        events: xapi ? ['session.finished'] : request.events!,
        xapi_key: xapi ? request.key! : null,
        include_names: request.include_names ?? false,
        organization_id: request.organization_id ?? user.organization_id,
      });
      held.push(created);
      return { status: 201, body: { integration: created, secret: xapi ? null : SECRET } };
    },
    [`PATCH /v1/integrations/${HOOK}`]: ({ body, url }: FakeRequest) => {
      const one = find(url);
      const enabled = (body as { enabled?: boolean }).enabled;
      Object.assign(one, body, {
        disabled_reason: enabled === false ? 'by_user' : enabled ? null : one.disabled_reason,
        disabled_at: enabled === false ? AT : enabled ? null : one.disabled_at,
      });
      return one;
    },
    [`PATCH /v1/integrations/${LRS}`]: ({ body, url }: FakeRequest) => {
      const one = find(url);
      Object.assign(one, body, { disabled_reason: null, disabled_at: null });
      return one;
    },
    [`POST /v1/integrations/${HOOK}/rotate-secret`]: ({ url }: FakeRequest) => {
      const one = find(url);
      one.previous_secret_expires_at = '2026-05-21T12:00:00.000Z';
      return { integration: one, secret: ROTATED };
    },
    [`POST /v1/integrations/${HOOK}/test`]: testResult,
    [`DELETE /v1/integrations/${HOOK}`]: ({ url }: FakeRequest) => {
      held.splice(held.indexOf(find(url)), 1);
      return { ok: true };
    },
    [`GET /v1/integrations/${HOOK}/deliveries`]: ({ url }: FakeRequest) => {
      const params = url.searchParams;
      const matched = deliveries.filter(
        (one) =>
          (!params.get('event') || one.event_type === params.get('event')) &&
          (!params.get('status') || one.status === params.get('status')),
      );
      const start = Number(params.get('cursor') ?? 0);
      const limit = Number(params.get('limit') ?? 50);
      return {
        deliveries: matched.slice(start, start + limit),
        next_cursor: start + limit < matched.length ? String(start + limit) : null,
        limit,
      };
    },
    [`POST /v1/integrations/${HOOK}/deliveries/${failedOne.id}/redeliver`]: () => {
      Object.assign(deliveries[0]!, { status: 'pending', next_attempt_at: AT });
      return deliveries[0];
    },
    'GET /v1/admin/organizations': {
      organizations: [
        {
          id: ORG,
          name: 'Plant',
          active: true,
          mfa_required: false,
          created_at: '2026-01-01T00:00:00.000Z',
        },
      ],
      total: 1,
      limit: 20,
      offset: 0,
    },
    'GET /v1/admin/organizations/00000000-0000-4000-8000-00000000000a': {
      id: ORG,
      name: 'Plant',
      active: true,
      created_at: '2026-01-01T00:00:00.000Z',
      mfa_required: false,
    },
  });
}

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.search}</output>;
}

function renderPage(route = '/integrations') {
  return renderWithProviders(
    <>
      <IntegrationsPage />
      <Where />
    </>,
    { route },
  );
}

const urlParams = () =>
  Object.fromEntries(new URLSearchParams(screen.getByTestId('location').textContent ?? ''));
const card = (url: string) => screen.findByRole('article', { name: url });
const requests = (
  calls: Array<{ method: string; url: string; body?: unknown }>,
  method: string,
  path: string,
) => calls.filter((call) => call.method === method && call.url.split('?')[0] === path);

describe('the integrations screen', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('en');
  });
  afterEach(() => notifications.clean());

  it(
    'lists the integrations: kind, URL, events, and a disabled one with the reason the server gave',
    async () => {
      fakeServer();
      renderPage();
      const hook = await card('https://hooks.plant.example/vr');
      expect(within(hook).getByText('Webhook')).toBeInTheDocument();
      expect(within(hook).getByText('Enabled')).toBeInTheDocument();
      expect(within(hook).getByText('Session finished')).toBeInTheDocument();
      expect(within(hook).getByText('Headset added')).toBeInTheDocument();
      expect(within(hook).getByRole('button', { name: 'Rotate secret' })).toBeInTheDocument();

      const lrs = await card('https://lrs.plant.example/xapi');
      expect(within(lrs).getByText('xAPI (learning record store)')).toBeInTheDocument();
      expect(within(lrs).getByText('Disabled')).toBeInTheDocument();
      expect(within(lrs).getByText(/every delivery failed for 3 days/)).toBeInTheDocument();
      expect(within(lrs).getByText('plant-key')).toBeInTheDocument();
      // An LRS has no signing secret to rotate.
      expect(within(lrs).queryByRole('button', { name: 'Rotate secret' })).toBeNull();
      expect(within(lrs).getByRole('button', { name: 'Enable' })).toBeInTheDocument();
    },
    UI_TIMEOUT,
  );

  it(
    'lets an admin choose the organisation, keeps it in the URL and asks the server for that one',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = fakeServer(admin);
      renderPage();
      // Without one chosen, an admin sees their own organisation's (none here).
      expect(await screen.findByText('No integrations yet')).toBeInTheDocument();
      expect(requests(calls, 'GET', '/v1/integrations')[0]!.url).toBe('/v1/integrations');
      const box = screen.getByRole('combobox', { name: 'Organization' });
      await user.click(box);
      await user.type(box, 'Pla');
      await user.click(await screen.findByRole('option', { name: 'Plant', hidden: true }));
      await waitFor(() => expect(urlParams().organization_id).toBe(ORG));
      await card('https://hooks.plant.example/vr');
      expect(requests(calls, 'GET', '/v1/integrations').at(-1)!.url).toBe(
        `/v1/integrations?organization_id=${ORG}`,
      );
      // A new integration is the chosen organisation's.
      await user.click(screen.getByRole('button', { name: 'Add integration' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add integration' });
      await user.type(
        within(dialog).getByRole('textbox', { name: /URL/ }),
        'https://erp.plant.example/hooks',
      );
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      await screen.findByRole('dialog', { name: 'Signing secret' });
      expect(requests(calls, 'POST', '/v1/integrations')[0]!.body).toMatchObject({
        organization_id: ORG,
      });
    },
    UI_TIMEOUT,
  );

  it(
    'creates a webhook with the chosen events and shows its signing secret once, to copy',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = fakeServer(staff, { integrations: [] });
      renderPage();
      await user.click(await screen.findByRole('button', { name: 'Add integration' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add integration' });
      // Nothing is sent until the form is whole.
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(await within(dialog).findByText("Enter the receiver's address")).toBeInTheDocument();
      await user.type(within(dialog).getByRole('textbox', { name: /URL/ }), 'ftp://x');
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(await within(dialog).findByText('Enter an http or https address')).toBeInTheDocument();
      await user.clear(within(dialog).getByRole('textbox', { name: /URL/ }));
      await user.type(
        within(dialog).getByRole('textbox', { name: /URL/ }),
        'https://erp.plant.example/hooks',
      );
      // Every event is ticked to begin with; untick all but one.
      for (const event of [
        'Session started',
        'Headset added',
        'Headset removed',
        'Qualification earned',
        'Qualification expiring soon',
        'Qualification expired',
        'Qualification revoked',
      ]) {
        await user.click(within(dialog).getByRole('checkbox', { name: new RegExp(`^${event}$`) }));
      }
      await user.click(
        within(dialog).getByRole('checkbox', { name: /Scenario licence ends in 7 days/ }),
      );
      expect(requests(calls, 'POST', '/v1/integrations')).toHaveLength(0);
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));

      const secretDialog = await screen.findByRole('dialog', { name: 'Signing secret' });
      expect(within(secretDialog).getByTestId('integration-secret')).toHaveTextContent(SECRET);
      expect(within(secretDialog).getByText(/shown only this once/)).toBeInTheDocument();
      expect(within(secretDialog).getByRole('button', { name: 'Copy secret' })).toBeInTheDocument();
      expect(requests(calls, 'POST', '/v1/integrations')[0]!.body).toEqual({
        kind: 'webhook',
        url: 'https://erp.plant.example/hooks',
        events: ['session.finished'],
        include_names: false,
      });
      await user.click(within(secretDialog).getByRole('button', { name: 'I have copied it' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      // Once: the secret is nowhere on the screen after the dialog closes.
      const created = await card('https://erp.plant.example/hooks');
      expect(screen.queryByText(SECRET)).toBeNull();
      expect(within(created).getByText('Session finished')).toBeInTheDocument();
    },
    UI_TIMEOUT,
  );

  it(
    'creates an LRS with its key and secret, and says no signing secret',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = fakeServer(staff, { integrations: [] });
      renderPage();
      await user.click(await screen.findByRole('button', { name: 'Add integration' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add integration' });
      await user.click(within(dialog).getByText('xAPI (learning record store)'));
      await user.type(
        within(dialog).getByRole('textbox', { name: /URL/ }),
        'https://lrs.example/xapi',
      );
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(await within(dialog).findByText('Enter the LRS key')).toBeInTheDocument();
      await user.type(within(dialog).getByRole('textbox', { name: /Key/ }), 'k1');
      await user.type(within(dialog).getByLabelText(/Secret/), 's1');
      await user.click(within(dialog).getByRole('switch', { name: /Include trainees' names/ }));
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      await waitFor(() => expect(requests(calls, 'POST', '/v1/integrations')).toHaveLength(1));
      expect(requests(calls, 'POST', '/v1/integrations')[0]!.body).toEqual({
        kind: 'xapi',
        url: 'https://lrs.example/xapi',
        key: 'k1',
        secret: 's1',
        include_names: true,
      });
      // An LRS has no signing secret: no secret dialog, the new card instead.
      const created = await card('https://lrs.example/xapi');
      expect(within(created).getByText('k1')).toBeInTheDocument();
      expect(screen.queryByRole('dialog', { name: 'Signing secret' })).toBeNull();
    },
    UI_TIMEOUT,
  );

  it(
    'rotates the secret after a yes, and shows the new one once',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = fakeServer();
      renderPage();
      const hook = await card('https://hooks.plant.example/vr');
      await user.click(within(hook).getByRole('button', { name: 'Rotate secret' }));
      const confirm = await screen.findByRole('dialog', { name: 'Rotate the signing secret?' });
      // Cancel sends nothing.
      await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(requests(calls, 'POST', `/v1/integrations/${HOOK}/rotate-secret`)).toHaveLength(0);

      await user.click(within(hook).getByRole('button', { name: 'Rotate secret' }));
      await user.click(
        within(await screen.findByRole('dialog', { name: 'Rotate the signing secret?' })).getByRole(
          'button',
          { name: 'Rotate' },
        ),
      );
      const secretDialog = await screen.findByRole('dialog', { name: 'New signing secret' });
      expect(within(secretDialog).getByTestId('integration-secret')).toHaveTextContent(ROTATED);
      expect(within(secretDialog).getByText(/also signs for 24 hours/)).toBeInTheDocument();
      expect(requests(calls, 'POST', `/v1/integrations/${HOOK}/rotate-secret`)).toHaveLength(1);
      await user.click(within(secretDialog).getByRole('button', { name: 'I have copied it' }));
      expect(
        await within(await card('https://hooks.plant.example/vr')).findByText(
          /The previous secret also signs until/,
        ),
      ).toBeInTheDocument();
      expect(screen.queryByText(ROTATED)).toBeNull();
    },
    UI_TIMEOUT,
  );

  it(
    "sends a test and shows the receiver's answer",
    async () => {
      const user = userEvent.setup({ delay: null });
      fakeServer();
      renderPage();
      const hook = await card('https://hooks.plant.example/vr');
      await user.click(within(hook).getByRole('button', { name: 'Send test' }));
      const result = await within(hook).findByTestId('integration-test-result');
      expect(result).toHaveTextContent('The receiver accepted it: HTTP 204 in 31 ms');
      expect(result).toHaveTextContent('thanks, signature checked');
    },
    UI_TIMEOUT,
  );

  it(
    'shows a refused test send in words',
    async () => {
      const user = userEvent.setup({ delay: null });
      fakeServer(staff, {
        testResult: {
          ok: false,
          status_code: null,
          response_headers: {},
          response_body: null,
          duration_ms: 2,
          error: 'address_refused',
        },
      });
      renderPage();
      const hook = await card('https://hooks.plant.example/vr');
      await user.click(within(hook).getByRole('button', { name: 'Send test' }));
      expect(await within(hook).findByTestId('integration-test-result')).toHaveTextContent(
        'No answer after 2 ms: the address is a private or local one',
      );
    },
    UI_TIMEOUT,
  );

  it(
    'disables after a yes and enables again',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = fakeServer();
      renderPage();
      const hook = await card('https://hooks.plant.example/vr');
      await user.click(within(hook).getByRole('button', { name: 'Disable' }));
      await user.click(
        within(await screen.findByRole('dialog', { name: 'Disable the integration?' })).getByRole(
          'button',
          { name: 'Disable' },
        ),
      );
      expect(await within(hook).findByText(/turned off in the console/)).toBeInTheDocument();
      expect(requests(calls, 'PATCH', `/v1/integrations/${HOOK}`)[0]!.body).toEqual({
        enabled: false,
      });
      await user.click(within(hook).getByRole('button', { name: 'Enable' }));
      await waitFor(() => expect(within(hook).queryByText(/turned off/)).toBeNull());
      expect(requests(calls, 'PATCH', `/v1/integrations/${HOOK}`)[1]!.body).toEqual({
        enabled: true,
      });
    },
    UI_TIMEOUT,
  );

  it(
    'deletes after a yes',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = fakeServer();
      renderPage();
      const hook = await card('https://hooks.plant.example/vr');
      await user.click(within(hook).getByRole('button', { name: 'Delete' }));
      const confirm = await screen.findByRole('dialog', { name: 'Delete the integration?' });
      expect(confirm).toHaveTextContent('https://hooks.plant.example/vr will receive nothing more');
      await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
      await waitFor(() =>
        expect(
          screen.queryByRole('article', { name: 'https://hooks.plant.example/vr' }),
        ).toBeNull(),
      );
      expect(requests(calls, 'DELETE', `/v1/integrations/${HOOK}`)).toHaveLength(1);
    },
    UI_TIMEOUT,
  );

  it(
    'opens the delivery log: each row in full, filters and page in the URL, redeliver',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = fakeServer();
      renderPage();
      const hook = await card('https://hooks.plant.example/vr');
      await user.click(within(hook).getByRole('button', { name: 'Delivery log' }));
      await waitFor(() => expect(urlParams().log).toBe(HOOK));
      const log = await screen.findByRole('region', { name: 'Delivery log' });
      const table = await within(log).findByTestId('delivery-log');
      const rows = within(table).getAllByRole('row').slice(1);
      expect(rows).toHaveLength(DELIVERY_PAGE_SIZE);
      // time, event, attempts, status, HTTP code, duration, answer
      const failed = rows[0]!;
      expect(within(failed).getByText('Headset added')).toBeInTheDocument();
      expect(within(failed).getByText('8')).toBeInTheDocument();
      expect(within(failed).getByText('Failed')).toBeInTheDocument();
      expect(within(failed).getByText('500')).toBeInTheDocument();
      expect(within(failed).getByText('1200 ms')).toBeInTheDocument();
      expect(within(failed).getByText('{"error":"database is down"}')).toBeInTheDocument();
      expect(within(failed).getByText(/^\d{2}\/\d{2}\/2026, \d{2}:\d{2}$/)).toBeInTheDocument();
      const refused = rows[1]!;
      expect(within(refused).getByText('Pending')).toBeInTheDocument();
      expect(within(refused).getByText('the connection was refused')).toBeInTheDocument();
      expect(within(refused).getByText(/Next attempt/)).toBeInTheDocument();

      // Older, by the cursor the server gave.
      await user.click(within(log).getByRole('button', { name: 'Older' }));
      await waitFor(() => expect(urlParams().cursor).toBe(String(DELIVERY_PAGE_SIZE)));
      await waitFor(() =>
        expect(within(within(log).getByTestId('delivery-log')).getAllByRole('row')).toHaveLength(
          DELIVERIES.length - DELIVERY_PAGE_SIZE + 1,
        ),
      );
      await user.click(within(log).getByRole('button', { name: 'Newer' }));
      await waitFor(() => expect(urlParams().cursor).toBeUndefined());

      // A status filter reaches the URL and the server.
      await user.click(within(log).getByRole('combobox', { name: 'Status' }));
      await user.click(await screen.findByRole('option', { name: 'Failed', hidden: true }));
      await waitFor(() => expect(urlParams().status).toBe('failed'));
      await waitFor(() =>
        expect(requests(calls, 'GET', `/v1/integrations/${HOOK}/deliveries`).at(-1)!.url).toContain(
          'status=failed',
        ),
      );
      await waitFor(() =>
        expect(within(within(log).getByTestId('delivery-log')).getAllByRole('row')).toHaveLength(2),
      );

      // Redeliver: the row becomes pending again.
      await user.click(within(log).getByRole('button', { name: /^Redeliver Headset added of/ }));
      await waitFor(() =>
        expect(
          requests(calls, 'POST', `/v1/integrations/${HOOK}/deliveries/${failedOne.id}/redeliver`),
        ).toHaveLength(1),
      );
      expect(await screen.findByText('The event will be sent again')).toBeInTheDocument();
    },
    UI_TIMEOUT,
  );

  it(
    'starts from the log, filters and page in the URL; a disabled integration cannot redeliver',
    async () => {
      const calls = fakeServer(staff, {
        integrations: [integration({ enabled: false, disabled_reason: 'gone', disabled_at: AT })],
      });
      renderPage(`/integrations?log=${HOOK}&event=device.enrolled`);
      const log = await screen.findByRole('region', { name: 'Delivery log' });
      await within(log).findByText('Headset added');
      expect(requests(calls, 'GET', `/v1/integrations/${HOOK}/deliveries`)[0]!.url).toContain(
        'event=device.enrolled',
      );
      expect(within(log).getByRole('combobox', { name: 'Event' })).toHaveValue('Headset added');
      expect(within(log).getByRole('button', { name: /^Redeliver/ })).toBeDisabled();
      expect(screen.getByText(/the receiver answered 410 Gone/)).toBeInTheDocument();
    },
    UI_TIMEOUT,
  );

  it(
    'reads in Russian',
    async () => {
      await i18n.changeLanguage('ru');
      fakeServer();
      renderPage();
      const hook = await card('https://hooks.plant.example/vr');
      expect(within(hook).getByText('Вебхук')).toBeInTheDocument();
      expect(within(hook).getByRole('button', { name: 'Отправить тест' })).toBeInTheDocument();
      expect(screen.getByText(/все доставки не удавались 3 дня/)).toBeInTheDocument();
    },
    UI_TIMEOUT,
  );
});

// Every event has its words, in both languages.
describe('event names', () => {
  it('has one for every event', () => {
    for (const language of ['en', 'ru']) {
      for (const event of INTEGRATION_EVENTS) {
        const key = `integrations:event.${event.replace('.', '_')}`;
        expect(
          i18n.getResource(language, 'integrations', `event.${event.replace('.', '_')}`),
          key,
        ).toBeTypeOf('string');
      }
    }
  });
});
