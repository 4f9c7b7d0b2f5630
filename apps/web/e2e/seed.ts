import {
  SimulatedHeadset,
  type HeadsetEvent,
  type SimulatedHeadsetOptions,
} from '@vrtc/headset-sim';
import { adminLogin, apiCall, apiLogin, baseUrl, launchBrowser, uniqueName } from './support';
import { waitFor } from './wait-for';

/**
 * Seeding through the API, for flows that only need data to exist: organisations with a client
 * account, scenario trees with grants, simulated headsets, sessions. Every helper waits for an
 * explicit condition, never a fixed time.
 */

export interface Tenant {
  organization: { id: string; name: string };
  email: string;
  password: string;
  token: string;
}

export interface SeededLevel {
  id: string;
  name: string;
  nameEn: string | null;
  maxTasks: number;
  options: Array<{ id: string; name: string; nameEn: string | null }>;
}

export interface SeededTree {
  scenario: { id: string; name: string; nameEn: string | null };
  module: { id: string; name: string; nameEn: string | null };
  levels: SeededLevel[];
}

export interface HistoryRow {
  id: string;
  status: string;
  vr_user_name: string;
  completed_tasks: number;
}

export function adminToken(): Promise<string> {
  const admin = adminLogin();
  return apiLogin(admin.email, admin.password);
}

/** An organisation with one client account, signed in through the API. */
export async function createTenant(admin: string, prefix: string): Promise<Tenant> {
  const organization = await apiCall<{ id: string; name: string }>(
    'POST',
    '/v1/admin/organizations',
    admin,
    {
      name: uniqueName(prefix),
    },
  );
  const { email, password } = await addClientAccount(admin, organization.id, prefix);
  return { organization, email, password, token: await apiLogin(email, password) };
}

/** Another client account of an organisation: its email (named after `prefix`) and password. */
export async function addClientAccount(admin: string, organizationId: string, prefix: string) {
  // uniqueName, not the time alone: two tenants made at once (browserAndTenants) took the same
  // millisecond, and so the same email, on a quiet machine.
  const email = `${uniqueName(prefix).toLowerCase().replace(/\W+/g, '-')}@e2e.test`;
  const password = 'client-password';
  await apiCall('POST', '/v1/admin/users', admin, {
    email,
    password,
    role: 'client',
    organization_id: organizationId,
  });
  return { email, password };
}

export interface TreeSpec {
  scenario: string;
  scenarioEn?: string;
  description?: string;
  descriptionEn?: string;
  module: string;
  moduleEn?: string;
  levels: Array<{
    name: string;
    nameEn?: string;
    maxTasks: number;
    options?: string[];
    optionsEn?: string[];
  }>;
}

/** A browser and two organisations named `prefix`: one for the English run, one for the Russian. */
export async function browserAndTenants(prefix: string) {
  const admin = await adminToken();
  const [browser, english, russian] = await Promise.all([
    launchBrowser(),
    createTenant(admin, prefix),
    createTenant(admin, prefix),
  ]);
  return { browser, english, russian };
}

/**
 * A scenario with one module and the given levels (each with its options), through the admin API.
 * The `…En` names are the content's English text (the English console shows them).
 */
export async function createScenarioTree(admin: string, spec: TreeSpec): Promise<SeededTree> {
  const scenario = await apiCall<{ id: string; name: string; name_en: string | null }>(
    'POST',
    '/v1/admin/scenarios',
    admin,
    {
      name: spec.scenario,
      description: spec.description ?? '',
      name_en: spec.scenarioEn ?? null,
      description_en: spec.descriptionEn ?? null,
    },
  );
  const module = await apiCall<{ id: string; name: string; name_en: string | null }>(
    'POST',
    `/v1/admin/scenarios/${scenario.id}/modules`,
    admin,
    { name: spec.module, description: '', name_en: spec.moduleEn ?? null },
  );
  const levels: SeededLevel[] = [];
  for (const [index, level] of spec.levels.entries()) {
    const created = await apiCall<{ id: string }>(
      'POST',
      `/v1/admin/modules/${module.id}/levels`,
      admin,
      {
        name: level.name,
        name_en: level.nameEn ?? null,
        level_number: index + 1,
        description: '',
        max_tasks: level.maxTasks,
      },
    );
    const options: SeededLevel['options'] = [];
    for (const [order, name] of (level.options ?? []).entries()) {
      const nameEn = level.optionsEn?.[order] ?? null;
      const option = await apiCall<{ id: string }>(
        'POST',
        `/v1/admin/levels/${created.id}/options`,
        admin,
        { name, name_en: nameEn, description: '', order_index: order },
      );
      options.push({ id: option.id, name, nameEn });
    }
    levels.push({
      id: created.id,
      name: level.name,
      nameEn: level.nameEn ?? null,
      maxTasks: level.maxTasks,
      options,
    });
  }
  return {
    scenario: { id: scenario.id, name: scenario.name, nameEn: scenario.name_en },
    module: { id: module.id, name: module.name, nameEn: module.name_en },
    levels,
  };
}

/** Access until 23:59:59 UTC of the day `days` from today, as the console grants it. */
export async function grantAccess(
  admin: string,
  scenarioId: string,
  organizationIds: string[],
  days = 365,
) {
  const day = new Date();
  day.setUTCDate(day.getUTCDate() + days);
  day.setUTCHours(23, 59, 59, 0);
  await apiCall('POST', `/v1/admin/scenarios/${scenarioId}/grant`, admin, {
    organization_ids: organizationIds,
    expires_at: day.toISOString(),
  });
}

/** An organisation (its name prefixed `prefix`) granted a scenario tree of its own. */
export async function grantedTenant(
  admin: string,
  prefix: string,
  spec: TreeSpec,
): Promise<{ tenant: Tenant; tree: SeededTree }> {
  const [tenant, tree] = await Promise.all([
    createTenant(admin, prefix),
    createScenarioTree(admin, spec),
  ]);
  await grantAccess(admin, tree.scenario.id, [tenant.organization.id]);
  return { tenant, tree };
}

export async function enrollmentCode(token: string): Promise<string> {
  return (await apiCall<{ code: string }>('POST', '/v1/devices/enrollment-code', token)).code;
}

async function deviceStatus(token: string, deviceId: string): Promise<string | undefined> {
  const list = await apiCall<{ devices: Array<{ id: string; status: string }> }>(
    'GET',
    '/v1/devices',
    token,
  );
  return list.devices.find((device) => device.id === deviceId)?.status;
}

export async function waitForDeviceStatus(token: string, deviceId: string, status: string) {
  await waitFor(async () => (await deviceStatus(token, deviceId)) === status, {
    what: `device ${deviceId} to be ${status}`,
  });
}

/** Simulated headsets of one test file; `stopAll()` belongs in afterAll. */
export class Headsets {
  private readonly all: SimulatedHeadset[] = [];

  /** A headset with its recorded events, not started yet. */
  create(options: Omit<SimulatedHeadsetOptions, 'server'>) {
    const headset = new SimulatedHeadset({ server: baseUrl(), ...options });
    const events: HeadsetEvent[] = [];
    headset.on('event', (event) => events.push(event));
    this.all.push(headset);
    return { headset, events };
  }

  /** Enrols a headset in the tenant's organisation and waits until the console lists it as waiting. */
  async enroll(token: string, options: Omit<SimulatedHeadsetOptions, 'server' | 'code'>) {
    const created = this.create({ ...options, code: await enrollmentCode(token) });
    await created.headset.start();
    await waitForDeviceStatus(token, created.headset.deviceId!, 'waiting');
    return created;
  }

  /** A headset that plays every task in 50 ms and passes: enrolled and waiting. */
  async enrollQuick(token: string, name = uniqueName('Quest'), type: 'quest' | 'pico' = 'quest') {
    return this.enroll(token, { name, type, paceMs: 50, successRate: 1 });
  }

  stopAll() {
    return Promise.all(this.all.map((headset) => headset.stop()));
  }
}

/**
 * Plays a session of `levelId` for `trainee` on the headset to its end: completed in the history,
 * the headset waiting again.
 */
export async function completeSession(
  token: string,
  headset: SimulatedHeadset,
  levelId: string,
  trainee: string,
): Promise<{ id: string }> {
  const done = await startSession(token, {
    device_id: headset.deviceId!,
    level_id: levelId,
    vr_user_name: trainee,
  });
  await waitForSessionStatus(token, done.id, 'completed');
  await waitForDeviceStatus(token, headset.deviceId!, 'waiting');
  return done;
}

export async function startSession(
  token: string,
  body: { device_id: string; level_id: string; vr_user_name: string; selected_options?: string[] },
): Promise<{ id: string }> {
  return apiCall<{ id: string }>('POST', '/v1/sessions/start', token, body);
}

export async function sessionHistory(token: string): Promise<HistoryRow[]> {
  return (await apiCall<{ sessions: HistoryRow[] }>('GET', '/v1/sessions?limit=100', token))
    .sessions;
}

/** Waits until the session has ended with the given status (it is then in the history). */
export async function waitForSessionStatus(
  token: string,
  sessionId: string,
  status: string,
  timeout = 30_000,
) {
  await waitFor(
    async () =>
      (await sessionHistory(token)).find((row) => row.id === sessionId)?.status === status,
    { what: `session ${sessionId} to end as ${status}`, timeout },
  );
}

/** Waits for the first headset event of the given type, e.g. 'session_ended'. */
export function waitForEvent(events: HeadsetEvent[], type: HeadsetEvent['type'], timeout = 15_000) {
  return waitFor(() => events.find((event) => event.type === type), {
    what: `a '${type}' event of the headset`,
    timeout,
  });
}

/** The content's text in the console's language, as the console picks it (English falls back). */
export const inLanguageOf = (
  language: 'ru' | 'en',
  item: { name: string; nameEn: string | null },
) => (language === 'en' ? (item.nameEn ?? item.name) : item.name);
