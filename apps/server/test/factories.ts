import crypto from 'node:crypto';
import { issueToken } from '../src/auth/auth.service.ts';
import { hashPassword } from '../src/auth/passwords.ts';
import type { Db } from '../src/platform/database/db.ts';
import type { ServiceContext } from '../src/platform/service/context.ts';
import type {
  DeviceType,
  MovementType,
  Role,
  SessionStatus,
} from '../src/platform/database/schema.ts';
import { bearer, type TestApp } from './harness.ts';

/** Persisted rows with sensible defaults; every field can be overridden. */

export const TEST_PASSWORD = 'password123';
let testPasswordHash: Promise<string> | undefined;
// At the tests' cost (PASSWORD_HASH_COST=test): signing in verifies at the cost a hash was made with.
const passwordHashFor = (password: string) =>
  password === TEST_PASSWORD
    ? (testPasswordHash ??= hashPassword(TEST_PASSWORD, 'test'))
    : hashPassword(password, 'test');

const unique = () => crypto.randomBytes(4).toString('hex');

export async function makeOrganization(
  db: Db,
  overrides: { name?: string; active?: boolean } = {},
) {
  return db
    .insertInto('organizations')
    .values({ name: overrides.name ?? `Org ${unique()}`, active: overrides.active ?? true })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function makeAccount(
  db: Db,
  overrides: {
    email?: string;
    password?: string;
    role?: Role;
    organization_id?: string;
    active?: boolean;
  } = {},
) {
  const organizationId = overrides.organization_id ?? (await makeOrganization(db)).id;
  const account = await db
    .insertInto('accounts')
    .values({
      email: overrides.email ?? `user-${unique()}@example.com`,
      password_hash: await passwordHashFor(overrides.password ?? TEST_PASSWORD),
      role: overrides.role ?? 'client',
      organization_id: organizationId,
      active: overrides.active ?? true,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return account;
}

/** An organisation with one signed-in account: what most tests start from. */
export async function makeTenant(
  /** A test app, or any app's context (e.g. one on the system clock). */
  t: Pick<ServiceContext, 'db' | 'clock' | 'config'>,
  options: { role?: Role; organizationName?: string } = {},
) {
  const organization = await makeOrganization(t.db, { name: options.organizationName });
  const account = await makeAccount(t.db, {
    role: options.role ?? 'client',
    organization_id: organization.id,
  });
  const { token } = await issueToken(t, account.id);
  return { organization, account, token, headers: bearer(token) };
}

export type Tenant = Awaited<ReturnType<typeof makeTenant>>;

/** An admin, and a client of an organisation of its own: who most tests act as. */
export async function makeAdminAndStaff(t: Pick<ServiceContext, 'db' | 'clock' | 'config'>) {
  const admin = await makeTenant(t, { role: 'admin' });
  const staff = await makeTenant(t);
  return { admin, staff };
}

export async function makeVrUser(
  db: Db,
  organizationId: string,
  overrides: { name?: string; notes?: string | null } = {},
) {
  return db
    .insertInto('vr_users')
    .values({
      organization_id: organizationId,
      name: overrides.name ?? `Trainee ${unique()}`,
      notes: overrides.notes ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function makeDevice(
  db: Db,
  organizationId: string,
  overrides: {
    name?: string;
    type?: DeviceType;
    movement_type?: MovementType;
    last_seen_at?: Date | null;
    token_hash?: string | null;
  } = {},
) {
  return db
    .insertInto('devices')
    .values({
      organization_id: organizationId,
      name: overrides.name ?? `Headset ${unique()}`,
      type: overrides.type ?? 'quest',
      movement_type: overrides.movement_type ?? 'slide',
      last_seen_at: overrides.last_seen_at ?? null,
      token_hash: overrides.token_hash ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Data-layer stand-in for a headset heartbeat: marks the device as seen at `at`. */
export async function markDeviceSeen(db: Db, deviceId: string, at: Date | null) {
  await db.updateTable('devices').set({ last_seen_at: at }).where('id', '=', deviceId).execute();
}

/** A scenario with one module, one level and its options. */
export async function makeScenarioTree(
  db: Db,
  overrides: {
    scenarioName?: string;
    moduleName?: string;
    levelName?: string;
    maxTasks?: number;
    optionNames?: string[];
  } = {},
) {
  const scenario = await db
    .insertInto('scenarios')
    .values({ name: overrides.scenarioName ?? `Scenario ${unique()}`, description: 'About it' })
    .returningAll()
    .executeTakeFirstOrThrow();
  const module = await db
    .insertInto('modules')
    .values({ scenario_id: scenario.id, name: overrides.moduleName ?? 'Module 1', order_index: 0 })
    .returningAll()
    .executeTakeFirstOrThrow();
  const level = await db
    .insertInto('levels')
    .values({
      module_id: module.id,
      name: overrides.levelName ?? 'Level 1',
      level_number: 1,
      max_tasks: overrides.maxTasks ?? 3,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const optionNames = overrides.optionNames ?? ['Night', 'Rain'];
  const options = [];
  for (const [index, name] of optionNames.entries()) {
    options.push(
      await db
        .insertInto('level_options')
        .values({ level_id: level.id, name, order_index: index })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
  }
  return { scenario, module, level, options };
}

export async function grantAccess(
  db: Db,
  scenarioId: string,
  organizationId: string,
  expiresAt: Date | null,
  grantedAt = new Date(),
) {
  await db
    .insertInto('scenario_access')
    .values({
      scenario_id: scenarioId,
      organization_id: organizationId,
      granted_at: grantedAt,
      granted_by: 'admin@example.com',
      expires_at: expiresAt,
    })
    .execute();
}

/** A session row written directly (history, statistics); started `startedAt`, ended unless active. */
export async function makeSession(
  db: Db,
  input: {
    organizationId: string;
    deviceId?: string | null;
    vrUserId?: string | null;
    vrUserName?: string;
    deviceName?: string;
    deviceType?: DeviceType;
    scenarioId?: string | null;
    scenarioName?: string;
    moduleName?: string;
    levelName?: string;
    levelId?: string | null;
    status?: SessionStatus;
    completedTasks?: number;
    maxTasks?: number;
    startedAt?: Date;
    durationSeconds?: number;
    startedByEmail?: string;
  },
) {
  const status = input.status ?? 'completed';
  const startedAt = input.startedAt ?? new Date();
  const duration = input.durationSeconds ?? 300;
  const ended = status !== 'active';
  return db
    .insertInto('sessions')
    .values({
      organization_id: input.organizationId,
      device_id: input.deviceId ?? null,
      vr_user_id: input.vrUserId ?? null,
      scenario_id: input.scenarioId ?? null,
      level_id: input.levelId ?? null,
      device_name: input.deviceName ?? 'Headset',
      device_type: input.deviceType ?? 'quest',
      vr_user_name: input.vrUserName ?? 'Trainee',
      scenario_name: input.scenarioName ?? 'Scenario',
      module_name: input.moduleName ?? 'Module 1',
      level_name: input.levelName ?? 'Level 1',
      level_number: 1,
      max_tasks: input.maxTasks ?? 3,
      selected_options: JSON.stringify([]),
      started_by_email: input.startedByEmail ?? 'staff@example.com',
      status,
      completed_tasks: input.completedTasks ?? (status === 'completed' ? (input.maxTasks ?? 3) : 0),
      success: ended ? status === 'completed' : null,
      started_at: startedAt,
      ended_at: ended ? new Date(startedAt.getTime() + duration * 1000) : null,
      duration_seconds: ended ? duration : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * What starting a session needs, in `organizationId`: an enrolled headset seen at the test clock's
 * now (waiting; `headset` holds its token, for its reports) and a level with options of an active
 * scenario the organisation holds a grant for.
 */
export async function makeStartableSetup(
  t: TestApp,
  organizationId: string,
  overrides: { deviceName?: string; scenarioName?: string; optionNames?: string[] } = {},
) {
  const headset = await makeEnrolledDevice(t.db, organizationId, {
    name: overrides.deviceName,
    last_seen_at: t.clock.now(),
  });
  const tree = await makeScenarioTree(t.db, {
    scenarioName: overrides.scenarioName,
    optionNames: overrides.optionNames,
  });
  await grantAccess(t.db, tree.scenario.id, organizationId, null, t.clock.now());
  return { device: headset.device, headset, ...tree };
}

/** An enrolled headset: a device holding a token, as POST /v1/headset/enroll leaves it. */
export async function makeEnrolledDevice(
  db: Db,
  organizationId: string,
  overrides: { name?: string; type?: DeviceType; last_seen_at?: Date | null } = {},
) {
  const token = crypto.randomBytes(32).toString('base64url');
  const device = await makeDevice(db, organizationId, {
    ...overrides,
    token_hash: crypto.createHash('sha256').update(token).digest('hex'),
  });
  return { device, token, headers: bearer(token) };
}

/**
 * An enrolled headset seen at `at` with an active session started then, as POST /v1/sessions/start
 * leaves them (the session written directly): what a headset's reports and heartbeats start from.
 */
export async function makeHeadsetInSession(
  db: Db,
  organizationId: string,
  options: { at: Date; maxTasks?: number; completedTasks?: number; vrUserId?: string },
) {
  const headset = await makeEnrolledDevice(db, organizationId, { last_seen_at: options.at });
  const session = await makeSession(db, {
    organizationId,
    deviceId: headset.device.id,
    status: 'active',
    maxTasks: options.maxTasks,
    completedTasks: options.completedTasks,
    vrUserId: options.vrUserId,
    startedAt: options.at,
  });
  return { headset, session };
}

/** An organisation with one signed-in account, and its one headset in a session started now. */
export async function makeTenantInSession(t: TestApp, options: { maxTasks?: number } = {}) {
  const tenant = await makeTenant(t);
  const inSession = await makeHeadsetInSession(t.db, tenant.organization.id, {
    at: t.clock.now(),
    ...options,
  });
  return { tenant, ...inSession };
}
