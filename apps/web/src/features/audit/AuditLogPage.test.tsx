import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  AUDIT_ACTIONS,
  AUDIT_OUTCOMES,
  AUDIT_TARGET_TYPES,
  type AuditEvent,
  type Me,
} from '@vrtc/contract';
import i18n from 'i18next';
import { useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeStoredUser } from '../../auth/storage';
import { mockFetch, renderWithProviders, type FakeRequest } from '../../test/render';
import { AuditLogPage } from './AuditLogPage';
import { AUDIT_ACTION_GROUPS } from './audit-labels';
import { AUDIT_PAGE_SIZE } from './audit-list-state';

const UI_TIMEOUT = 30_000;

const ORG = '00000000-0000-4000-8000-00000000000a';
const OTHER_ORG = '00000000-0000-4000-8000-00000000000b';
const ANNA = '00000000-0000-4000-8000-000000000001';
const TRAINEE = '00000000-0000-4000-8000-0000000000c1';

const staff: Me = {
  id: ANNA,
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

function event(
  n: number,
  overrides: Partial<Omit<AuditEvent, 'target'>> & { target?: Partial<AuditEvent['target']> } = {},
): AuditEvent {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    // Newest first: event 1 is the newest.
    at: new Date(Date.UTC(2026, 4, 20, 12, 0) - n * 60_000).toISOString(),
    organization_id: ORG,
    actor: { type: 'account', id: ANNA, email: 'anna@plant.example', role: 'client' },
    action: 'session.started',
    outcome: 'success',
    changes: {},
    ip: '203.0.113.7',
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140',
    request_id: `req-${n}`,
    ...overrides,
    target: {
      type: 'session',
      id: `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      label: null,
      label_en: null,
      ...overrides.target,
    },
  };
}

const renamed = event(1, {
  action: 'vr_user.updated',
  target: { type: 'vr_user', id: TRAINEE, label: 'Ivan Petrov' },
  changes: { name: ['Ivan Petrof', 'Ivan Petrov'], notes: [null, 'Night shift'] },
});
const passwordSet = event(2, {
  organization_id: null,
  actor: { type: 'account', id: admin.id, email: admin.email, role: 'admin' },
  action: 'account.password_set',
  target: { type: 'account', id: ANNA, label: 'anna@plant.example' },
  changes: { password_hash: ['[redacted]', '[redacted]'] },
});
const headsetFinish = event(3, {
  actor: { type: 'headset', id: '20000000-0000-4000-8000-000000000001', email: null, role: null },
  action: 'session.finished',
});
const refused = event(4, {
  actor: { type: 'account', id: ANNA, email: 'anna@plant.example', role: 'client' },
  action: 'auth.access_denied',
  outcome: 'denied',
  target: { type: 'route', id: '/v1/admin/users', label: null },
});
/** Enough older events for a second page. */
const older = Array.from({ length: AUDIT_PAGE_SIZE + 5 }, (_, index) => event(10 + index));
const EVENTS = [renamed, passwordSet, headsetFinish, refused, ...older];

/** GET /v1/audit-events as the server answers it: filters, newest first, pages by cursor. */
function auditAnswer({ url }: FakeRequest) {
  const params = url.searchParams;
  const action = params.get('action');
  const matched = EVENTS.filter(
    (e) =>
      (!action || e.action.startsWith(action)) &&
      (!params.get('actor_id') || e.actor.id === params.get('actor_id')) &&
      (!params.get('target_id') || e.target.id === params.get('target_id')) &&
      (!params.get('organization_id') || e.organization_id === params.get('organization_id')),
  );
  const start = Number(params.get('cursor') ?? 0);
  const limit = Number(params.get('limit') ?? 50);
  const page = matched.slice(start, start + limit);
  return {
    audit_events: page,
    next_cursor: start + limit < matched.length ? String(start + limit) : null,
    limit,
  };
}

function fakeServer(user: Me = staff) {
  writeStoredUser(user);
  return mockFetch({
    'GET /v1/me': user,
    'GET /v1/audit-events': auditAnswer,
    'GET /v1/admin/organizations/00000000-0000-4000-8000-00000000000a': {
      id: ORG,
      name: 'Plant',
      active: true,
      created_at: '2026-01-01T00:00:00.000Z',
      mfa_required: false,
    },
    'GET /v1/admin/audit/verify': {
      ok: false,
      chains_checked: 3,
      events_checked: 120,
      first_bad_event_id: headsetFinish.id,
      organization_id: ORG,
      checkpoints: [],
    },
  });
}

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.search}</output>;
}

function renderPage(route = '/audit') {
  return renderWithProviders(
    <>
      <AuditLogPage />
      <Where />
    </>,
    { route },
  );
}

/** The list requests made, as their query parameters. */
const listRequests = (calls: Array<{ method: string; url: string }>) =>
  calls
    .filter((call) => call.method === 'GET' && call.url.startsWith('/v1/audit-events'))
    .map((call) => Object.fromEntries(new URL(call.url, 'http://localhost').searchParams));

const urlParams = () =>
  Object.fromEntries(new URLSearchParams(screen.getByTestId('location').textContent ?? ''));

/** The events' rows (the action filter's options hold the same words, hidden). */
const dataRows = () => within(screen.getAllByRole('table')[0]!).getAllByRole('row').slice(1);
const eventRow = (action: string) => screen.findByRole('row', { name: new RegExp(`^.*${action}`) });

describe('the audit log screen', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('en');
  });
  afterEach(() => notifications.clean());

  it(
    'shows the newest events: time, actor, action in words with its code, outcome, target',
    async () => {
      fakeServer();
      renderPage();
      const row = await eventRow('VR user changed');
      expect(within(row).getByText('vr_user.updated')).toBeInTheDocument();
      expect(within(row).getByText('anna@plant.example')).toBeInTheDocument();
      expect(within(row).getByText('Staff')).toBeInTheDocument();
      expect(within(row).getByText('Success')).toBeInTheDocument();
      expect(within(row).getByText('VR user')).toBeInTheDocument();
      expect(within(row).getByText('Ivan Petrov')).toBeInTheDocument();
      // The console's one date format for English.
      expect(within(row).getByText(/^\d{2}\/\d{2}\/2026, \d{2}:\d{2}$/)).toBeInTheDocument();
      // A headset, and a refusal.
      expect(within(await eventRow('Session finished')).getByText('Headset')).toBeInTheDocument();
      const denied = await eventRow('Access refused');
      expect(within(denied).getByText('Denied')).toBeInTheDocument();
      expect(within(denied).getByText('/v1/admin/users')).toBeInTheDocument();
      expect(dataRows()).toHaveLength(AUDIT_PAGE_SIZE);
    },
    UI_TIMEOUT,
  );

  it(
    'keeps every filter in the URL and sends it to the server, and starts from it on load',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = fakeServer();
      renderPage('/audit?action=session.&from=2026-05-01&to=2026-05-20');
      await eventRow('Session finished');
      expect(listRequests(calls)[0]).toEqual({
        action: 'session.',
        from: '2026-05-01',
        to: '2026-05-20',
        limit: String(AUDIT_PAGE_SIZE),
      });
      expect(screen.queryByRole('row', { name: /VR user changed/ })).not.toBeInTheDocument();
      expect(screen.getByRole('combobox', { name: 'Action' })).toHaveValue('All: Sessions');

      // One action exactly, from the grouped choice.
      const actionBox = screen.getByRole('combobox', { name: 'Action' });
      await user.clear(actionBox);
      await user.type(actionBox, 'VR user ch');
      // The dropdown is still opening (jsdom measures no transition): found hidden, as elsewhere.
      await user.click(
        await screen.findByRole('option', { name: 'VR user changed', hidden: true }),
      );
      await waitFor(() => expect(urlParams().action).toBe('vr_user.updated'));
      await waitFor(() =>
        expect(listRequests(calls).at(-1)).toMatchObject({ action: 'vr_user.updated' }),
      );
      await screen.findByText('Ivan Petrov');
      expect(dataRows()).toHaveLength(1);

      // A typed actor id reaches the URL once it is one; a wrong one is said so and not sent.
      const actor = screen.getByRole('textbox', { name: 'Actor' });
      await user.type(actor, 'anna');
      expect(
        await screen.findByText("Not an ID: paste the actor's ID from an event"),
      ).toBeInTheDocument();
      await user.clear(actor);
      await user.type(actor, ANNA);
      await waitFor(() => expect(urlParams().actor_id).toBe(ANNA));
      expect(listRequests(calls).some((query) => query.actor_id === 'anna')).toBe(false);
      await waitFor(() =>
        expect(listRequests(calls).at(-1)).toEqual({
          action: 'vr_user.updated',
          actor_id: ANNA,
          from: '2026-05-01',
          to: '2026-05-20',
          limit: String(AUDIT_PAGE_SIZE),
        }),
      );

      await user.type(screen.getByRole('textbox', { name: 'Target' }), TRAINEE);
      await waitFor(() => expect(urlParams().target_id).toBe(TRAINEE));

      // The export link carries the same filters.
      const exportLink = screen.getByRole('link', { name: 'Export CSV' });
      const exportUrl = new URL(exportLink.getAttribute('href')!, 'http://localhost');
      expect(exportUrl.pathname).toBe('/v1/audit-events/export');
      expect(Object.fromEntries(exportUrl.searchParams)).toEqual({
        action: 'vr_user.updated',
        actor_id: ANNA,
        target_id: TRAINEE,
        from: '2026-05-01',
        to: '2026-05-20',
      });

      await user.click(screen.getByRole('button', { name: 'Show all events' }));
      await waitFor(() => expect(urlParams()).toEqual({}));
      await eventRow('Session finished');
      expect(screen.getByRole('textbox', { name: 'Actor' })).toHaveValue('');
    },
    UI_TIMEOUT,
  );

  it(
    'pages older by the cursor the server gave, and back to newer',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = fakeServer();
      renderPage();
      await eventRow('VR user changed');
      expect(screen.getByRole('button', { name: 'Newer' })).toBeDisabled();

      await user.click(screen.getByRole('button', { name: 'Older' }));
      await waitFor(() => expect(urlParams().cursor).toBe(String(AUDIT_PAGE_SIZE)));
      await waitFor(() =>
        expect(screen.queryByRole('row', { name: /VR user changed/ })).not.toBeInTheDocument(),
      );
      expect(listRequests(calls).at(-1)).toEqual({
        cursor: String(AUDIT_PAGE_SIZE),
        limit: String(AUDIT_PAGE_SIZE),
      });
      expect(dataRows()).toHaveLength(EVENTS.length - AUDIT_PAGE_SIZE);
      // The last page: nothing older.
      expect(screen.getByRole('button', { name: 'Older' })).toBeDisabled();

      await user.click(screen.getByRole('button', { name: 'Newer' }));
      await eventRow('VR user changed');
      expect(urlParams()).toEqual({});
    },
    UI_TIMEOUT,
  );

  it(
    'opens an event to its changed fields, before and after, with where it came from',
    async () => {
      const user = userEvent.setup({ delay: null });
      fakeServer();
      renderPage();
      await user.click(await screen.findByText('Ivan Petrov'));
      const dialog = await screen.findByRole('dialog', { name: 'VR user changed' });
      const changes = within(dialog).getByTestId('audit-changes');
      const rows = within(changes).getAllByRole('row');
      expect(rows.map((row) => row.textContent)).toEqual([
        'FieldBeforeAfter',
        'nameIvan PetrofIvan Petrov',
        'notes—Night shift',
      ]);
      expect(within(dialog).getByText('203.0.113.7')).toBeInTheDocument();
      expect(
        within(dialog).getByText('Mozilla/5.0 (X11; Linux x86_64) Chrome/140'),
      ).toBeInTheDocument();
      expect(within(dialog).getByText('req-1')).toBeInTheDocument();

      // From the event to every event about the same VR user.
      await user.click(within(dialog).getByRole('button', { name: 'Events about this target' }));
      await waitFor(() => expect(urlParams().target_id).toBe(TRAINEE));
      expect(screen.getByRole('textbox', { name: 'Target' })).toHaveValue(TRAINEE);
    },
    UI_TIMEOUT,
  );

  it(
    'shows a secret as hidden, never as what the server stores in its place',
    async () => {
      const user = userEvent.setup({ delay: null });
      fakeServer();
      renderPage();
      await user.click(await eventRow('Account password set'));
      const dialog = await screen.findByRole('dialog', { name: 'Account password set' });
      const row = within(within(dialog).getByTestId('audit-changes')).getAllByRole('row')[1]!;
      expect(row.textContent).toBe('password_hashhiddenhidden');
    },
    UI_TIMEOUT,
  );

  it(
    'gives staff no organisation filter and sends none, even one from a link',
    async () => {
      const calls = fakeServer(staff);
      renderPage(`/audit?organization_id=${OTHER_ORG}`);
      await eventRow('VR user changed');
      expect(screen.queryByRole('combobox', { name: 'Organization' })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Verify chain' })).not.toBeInTheDocument();
      expect(listRequests(calls).every((query) => !('organization_id' in query))).toBe(true);
    },
    UI_TIMEOUT,
  );

  it(
    'gives an admin the organisation filter and the chain check, naming the first bad event',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = fakeServer(admin);
      renderPage(`/audit?organization_id=${ORG}`);
      await waitFor(() =>
        expect(listRequests(calls).at(-1)).toMatchObject({ organization_id: ORG }),
      );
      expect(await screen.findByRole('combobox', { name: 'Organization' })).toHaveValue('Plant');

      await user.click(screen.getByRole('button', { name: 'Verify chain' }));
      const result = await screen.findByTestId('audit-verify-result');
      expect(result).toHaveTextContent(`event ${headsetFinish.id} no longer matches its hash`);
      expect(result).toHaveTextContent(`Chain of organization ${ORG}`);

      // The platform's own events (no organisation) are among every organisation's, and say so.
      await user.click(screen.getByRole('button', { name: 'Show all events' }));
      await waitFor(() =>
        expect(listRequests(calls).at(-1)).toEqual({ limit: String(AUDIT_PAGE_SIZE) }),
      );
      await user.click(await eventRow('Account password set'));
      const dialog = await screen.findByRole('dialog', { name: 'Account password set' });
      expect(within(dialog).getByText('The platform (no organization)')).toBeInTheDocument();
    },
    UI_TIMEOUT,
  );

  it(
    'speaks Russian: the title, the actions, outcomes and the changes',
    async () => {
      await i18n.changeLanguage('ru');
      const user = userEvent.setup({ delay: null });
      fakeServer();
      renderPage();
      expect(await screen.findByRole('heading', { name: 'Журнал аудита' })).toBeInTheDocument();
      const row = await eventRow('VR-пользователь изменён');
      expect(within(row).getByText('Успешно')).toBeInTheDocument();
      expect(within(row).getByText('Сотрудник')).toBeInTheDocument();
      expect(within(row).getByText(/^\d{2}\.\d{2}\.2026, \d{2}:\d{2}$/)).toBeInTheDocument();
      await user.click(within(row).getByText('Ivan Petrov'));
      const dialog = await screen.findByRole('dialog', { name: 'VR-пользователь изменён' });
      expect(within(dialog).getByRole('columnheader', { name: 'Было' })).toBeInTheDocument();
      expect(within(dialog).getByRole('columnheader', { name: 'Стало' })).toBeInTheDocument();
    },
    UI_TIMEOUT,
  );

  it.each([
    ['en', 'Scenario created', 'Fire safety', 'Только по-русски'],
    ['ru', 'Сценарий создан', 'Пожарная безопасность', 'Только по-русски'],
  ] as const)(
    'names content in the console’s language (%s), or as the event named it when it has no English name',
    async (language, action, named, russianOnly) => {
      await i18n.changeLanguage(language);
      const user = userEvent.setup({ delay: null });
      const scenario = event(1, {
        organization_id: null,
        action: 'scenario.created',
        target: { type: 'scenario', label: 'Пожарная безопасность', label_en: 'Fire safety' },
      });
      const older = event(2, {
        organization_id: null,
        action: 'scenario.created',
        target: { type: 'scenario', label: 'Только по-русски', label_en: null },
      });
      writeStoredUser(admin);
      mockFetch({
        'GET /v1/me': admin,
        'GET /v1/audit-events': { audit_events: [scenario, older], next_cursor: null, limit: 50 },
      });
      renderPage();
      const rows = await screen.findAllByRole('row', { name: new RegExp(action) });
      expect(within(rows[0]!).getByText(named)).toBeInTheDocument();
      expect(within(rows[1]!).getByText(russianOnly)).toBeInTheDocument();
      // The other language's name is nowhere on the row.
      const other = language === 'en' ? 'Пожарная безопасность' : 'Fire safety';
      expect(within(rows[0]!).queryByText(other)).not.toBeInTheDocument();
      await user.click(within(rows[0]!).getByText(named));
      const dialog = await screen.findByRole('dialog', { name: action });
      expect(within(dialog).getByText(new RegExp(`: ${named}$`))).toBeInTheDocument();
    },
    UI_TIMEOUT,
  );
});

describe('the audit log words', () => {
  const named = (language: 'ru' | 'en', key: string) =>
    i18n.exists(`audit:${key}`, { lng: language, fallbackLng: false });

  it.each(['ru', 'en'] as const)(
    'names every action, group, outcome and target in %s',
    (language) => {
      const missing = [
        ...AUDIT_ACTIONS.map((action) => `action.${action}`),
        ...AUDIT_ACTION_GROUPS.map((group) => `group.${group}`),
        ...AUDIT_OUTCOMES.map((outcome) => `outcome.${outcome}`),
        ...AUDIT_TARGET_TYPES.map((type) => `targetType.${type}`),
      ].filter((key) => !named(language, key));
      expect(missing).toEqual([]);
    },
  );
});
