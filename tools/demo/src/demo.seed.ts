import { DAY_MS, startOfUtcDay } from '@vrtc/contract';
import { seededRandom } from '@vrtc/headset-sim';
import { hashPassword } from '@vrtc/server/auth/passwords.ts';
import type { Clock } from '@vrtc/server/platform/service/clock.ts';
import type { Db, Tx } from '@vrtc/server/platform/database/db.ts';
import type { NewSession, SessionStatus } from '@vrtc/server/platform/database/schema.ts';
import { sql } from 'kysely';
import {
  DEMO_ADMIN,
  DEMO_ORGANIZATION,
  DEMO_PARTNER,
  DEMO_SPARE_DEVICE,
  DEMO_STAFF,
  DEMO_VR_USERS,
  GRANT_EXPIRY_DAYS,
  PARTNER_DEVICES,
  PARTNER_ORGANIZATION,
  PARTNER_VR_USERS,
  SCENARIOS,
  type Bilingual,
  type DemoGrant,
  type DeviceSpec,
  type ScenarioSpec,
  type VrUserSpec,
} from './demo-content.ts';

/**
 * Fills a migrated, empty database with the demo: two organisations, three logins, the scenario
 * catalogue (every name and description in Russian and English, so sessions record both) with
 * grants in every expiry state, trainees, spare headsets, and (in a second step, once the demo
 * headsets are enrolled) about six weeks of session history. Everything is
 * placed relative to `clock.now()` and drawn from a seeded random source, so a test with a fixed
 * clock gets the same figures every time.
 */

const MINUTE_MS = 60_000;
/** How far back the history goes. */
export const HISTORY_DAYS = 42;
/** Seed of the history's random source (the default). */
export const HISTORY_SEED = 20_260_115;

const daysAgo = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

/** A grant's expiry: the end (23:59:59 UTC) of the day `days` from now, as the console sets it. */
function grantExpiry(now: Date, grant: DemoGrant): Date | null {
  const days = GRANT_EXPIRY_DAYS[grant];
  if (days === null) return null;
  const day = startOfUtcDay(new Date(now.getTime() + days * DAY_MS));
  return new Date(day.getTime() + DAY_MS - 1000);
}

export interface SeededAccount {
  id: string;
  email: string;
  password: string;
}

export interface SeededLevel {
  scenarioKey: ScenarioSpec['key'];
  scenarioId: string;
  scenarioName: Bilingual;
  moduleId: string;
  moduleName: Bilingual;
  levelId: string;
  levelName: Bilingual;
  levelNumber: number;
  maxTasks: number;
  /** As a session records them: the primary (Russian) name and the English one. */
  options: Array<{ id: string; name: string; name_en: string }>;
}

export interface SeededVrUser extends VrUserSpec {
  id: string;
  organizationId: string;
}

export interface HistoryDevice extends DeviceSpec {
  id: string;
  /** Relative share of the organisation's sessions run on it (default 1). */
  weight?: number;
}

export interface SeededOrganization {
  id: string;
  name: string;
  /** The account whose email history sessions record as started_by_email. */
  staff: SeededAccount;
  vrUsers: SeededVrUser[];
  /** Headsets seeded directly (offline); the demo headsets are added once enrolled. */
  devices: HistoryDevice[];
  /** Expiry per scenario key the organisation holds a grant for (null: no expiry). */
  grants: Map<ScenarioSpec['key'], Date | null>;
}

export interface DemoSeed {
  admin: SeededAccount;
  staff: SeededAccount;
  partnerStaff: SeededAccount;
  demo: SeededOrganization;
  partner: SeededOrganization;
  levels: SeededLevel[];
  /** When the grants were given (before the history starts). */
  grantedAt: Date;
}

async function insertContent(trx: Tx, createdAt: Date): Promise<SeededLevel[]> {
  const levels: SeededLevel[] = [];
  for (const spec of SCENARIOS) {
    const scenario = await trx
      .insertInto('scenarios')
      .values({
        name: spec.name.ru,
        name_en: spec.name.en,
        description: spec.description.ru,
        description_en: spec.description.en,
        created_at: createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const modules = await trx
      .insertInto('modules')
      .values(
        spec.modules.map((module, index) => ({
          scenario_id: scenario.id,
          name: module.name.ru,
          name_en: module.name.en,
          description: module.description.ru,
          description_en: module.description.en,
          order_index: index,
          created_at: createdAt,
        })),
      )
      .returning(['id', 'name'])
      .execute();
    for (const moduleSpec of spec.modules) {
      const moduleId = modules.find((row) => row.name === moduleSpec.name.ru)!.id;
      const levelRows = await trx
        .insertInto('levels')
        .values(
          moduleSpec.levels.map((level, index) => ({
            module_id: moduleId,
            name: level.name.ru,
            name_en: level.name.en,
            level_number: index + 1,
            description: level.description.ru,
            description_en: level.description.en,
            max_tasks: level.maxTasks,
            created_at: createdAt,
          })),
        )
        .returning(['id', 'name'])
        .execute();
      for (const [index, levelSpec] of moduleSpec.levels.entries()) {
        const levelId = levelRows.find((row) => row.name === levelSpec.name.ru)!.id;
        const options =
          levelSpec.options.length === 0
            ? []
            : await trx
                .insertInto('level_options')
                .values(
                  levelSpec.options.map((option, order) => ({
                    level_id: levelId,
                    name: option.name.ru,
                    name_en: option.name.en,
                    description: option.description.ru,
                    description_en: option.description.en,
                    order_index: order,
                    created_at: createdAt,
                  })),
                )
                .returning(['id', 'name', 'name_en', 'order_index'])
                .execute();
        levels.push({
          scenarioKey: spec.key,
          scenarioId: scenario.id,
          scenarioName: spec.name,
          moduleId,
          moduleName: moduleSpec.name,
          levelId,
          levelName: levelSpec.name,
          levelNumber: index + 1,
          maxTasks: levelSpec.maxTasks,
          options: options
            .sort((a, b) => a.order_index - b.order_index)
            .map((option) => ({ id: option.id, name: option.name, name_en: option.name_en! })),
        });
      }
    }
  }
  return levels;
}

async function insertVrUsers(
  trx: Tx,
  organizationId: string,
  specs: VrUserSpec[],
  now: Date,
): Promise<SeededVrUser[]> {
  const rows = await trx
    .insertInto('vr_users')
    .values(
      specs.map((spec, index) => ({
        organization_id: organizationId,
        name: spec.name,
        notes: spec.notes,
        created_at: new Date(daysAgo(now, HISTORY_DAYS + 5).getTime() + index * 47 * MINUTE_MS),
      })),
    )
    .returning(['id', 'name'])
    .execute();
  return specs.map((spec) => ({
    ...spec,
    id: rows.find((row) => row.name === spec.name)!.id,
    organizationId,
  }));
}

async function insertOfflineDevices(
  trx: Tx,
  organizationId: string,
  specs: DeviceSpec[],
  now: Date,
  lastSeenHoursAgo: number[],
): Promise<HistoryDevice[]> {
  const rows = await trx
    .insertInto('devices')
    .values(
      specs.map((spec, index) => ({
        organization_id: organizationId,
        name: spec.name,
        type: spec.type,
        movement_type: index % 2 === 0 ? ('slide' as const) : ('teleport' as const),
        token_hash: null,
        last_seen_at: new Date(now.getTime() - (lastSeenHoursAgo[index] ?? 24) * 60 * MINUTE_MS),
        battery_percent: 40 + ((index * 23) % 55),
        app_version: '1.4.2',
        created_at: daysAgo(now, HISTORY_DAYS + 3),
      })),
    )
    .returning(['id', 'name'])
    .execute();
  return specs.map((spec) => ({ ...spec, id: rows.find((row) => row.name === spec.name)!.id }));
}

async function insertGrants(
  trx: Tx,
  organizationId: string,
  levels: SeededLevel[],
  grants: Map<ScenarioSpec['key'], Date | null>,
  grantedAt: Date,
) {
  const scenarioIds = new Map(levels.map((level) => [level.scenarioKey, level.scenarioId]));
  const values = [...grants].map(([key, expiresAt]) => ({
    scenario_id: scenarioIds.get(key)!,
    organization_id: organizationId,
    granted_at: grantedAt,
    granted_by: DEMO_ADMIN.email,
    expires_at: expiresAt,
  }));
  if (values.length > 0) await trx.insertInto('scenario_access').values(values).execute();
}

/** Writes everything but the session history, in one transaction. */
export async function seedDemo(db: Db, clock: Clock): Promise<DemoSeed> {
  const now = clock.now();
  const createdAt = daysAgo(now, HISTORY_DAYS + 14);
  const grantedAt = daysAgo(now, HISTORY_DAYS + 7);
  const [adminHash, staffHash, partnerHash] = await Promise.all(
    [DEMO_ADMIN, DEMO_STAFF, DEMO_PARTNER].map((login) => hashPassword(login.password)),
  );
  const grantsOf = (pick: (spec: ScenarioSpec) => DemoGrant | undefined) =>
    new Map(
      SCENARIOS.flatMap((spec) => {
        const grant = pick(spec);
        return grant ? [[spec.key, grantExpiry(now, grant)] as const] : [];
      }),
    );

  return db.transaction().execute(async (trx) => {
    const organizations = await trx
      .insertInto('organizations')
      .values([
        { name: DEMO_ORGANIZATION, created_at: createdAt },
        { name: PARTNER_ORGANIZATION, created_at: new Date(createdAt.getTime() + 3 * DAY_MS) },
      ])
      .returning(['id', 'name'])
      .execute();
    const demoOrgId = organizations.find((row) => row.name === DEMO_ORGANIZATION)!.id;
    const partnerOrgId = organizations.find((row) => row.name === PARTNER_ORGANIZATION)!.id;

    const accountRows = await trx
      .insertInto('accounts')
      .values([
        {
          email: DEMO_ADMIN.email,
          password_hash: adminHash!,
          role: 'admin',
          organization_id: demoOrgId,
          created_at: createdAt,
        },
        {
          email: DEMO_STAFF.email,
          password_hash: staffHash!,
          role: 'client',
          organization_id: demoOrgId,
          created_at: createdAt,
        },
        {
          email: DEMO_PARTNER.email,
          password_hash: partnerHash!,
          role: 'client',
          organization_id: partnerOrgId,
          created_at: new Date(createdAt.getTime() + 3 * DAY_MS),
        },
      ])
      .returning(['id', 'email'])
      .execute();
    const account = (login: { email: string; password: string }): SeededAccount => ({
      id: accountRows.find((row) => row.email === login.email)!.id,
      email: login.email,
      password: login.password,
    });
    const admin = account(DEMO_ADMIN);
    const staff = account(DEMO_STAFF);
    const partnerStaff = account(DEMO_PARTNER);

    const levels = await insertContent(trx, createdAt);
    const demoGrants = grantsOf((spec) => spec.demoGrant);
    const partnerGrants = grantsOf((spec) => spec.partnerGrant);
    await insertGrants(trx, demoOrgId, levels, demoGrants, grantedAt);
    await insertGrants(trx, partnerOrgId, levels, partnerGrants, grantedAt);

    const demoVrUsers = await insertVrUsers(trx, demoOrgId, DEMO_VR_USERS, now);
    const partnerVrUsers = await insertVrUsers(trx, partnerOrgId, PARTNER_VR_USERS, now);
    const spare = await insertOfflineDevices(trx, demoOrgId, [DEMO_SPARE_DEVICE], now, [75]);
    const partnerDevices = await insertOfflineDevices(
      trx,
      partnerOrgId,
      PARTNER_DEVICES,
      now,
      [5, 7, 29],
    );

    return {
      admin,
      staff,
      partnerStaff,
      demo: {
        id: demoOrgId,
        name: DEMO_ORGANIZATION,
        staff,
        vrUsers: demoVrUsers,
        devices: spare.map((device) => ({ ...device, weight: 0.15 })),
        grants: demoGrants,
      },
      partner: {
        id: partnerOrgId,
        name: PARTNER_ORGANIZATION,
        staff: partnerStaff,
        vrUsers: partnerVrUsers,
        devices: partnerDevices,
        grants: partnerGrants,
      },
      levels,
      grantedAt,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Session history

type Random = () => number;

function weightedPick<T>(random: Random, items: T[], weight: (item: T) => number): T {
  const total = items.reduce((sum, item) => sum + weight(item), 0);
  let at = random() * total;
  for (const item of items) {
    at -= weight(item);
    if (at < 0) return item;
  }
  return items[items.length - 1]!;
}

const between = (random: Random, low: number, high: number) => low + random() * (high - low);
const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** Sessions a headset runs on a UTC weekday (0 = Sunday): weekdays busy, Fridays less, weekends rare. */
function sessionsOnDay(random: Random, weekday: number, weight: number): number {
  const perDay =
    weekday === 0 || weekday === 6
      ? [0, 0, 0, 0, 1]
      : weekday === 5
        ? [0, 1, 1, 2]
        : [1, 1, 2, 2, 2, 3, 3];
  const drawn = perDay[Math.floor(random() * perDay.length)]!;
  return weight >= 1 ? drawn : random() < weight ? Math.min(drawn, 1) : 0;
}

interface Outcome {
  status: Exclude<SessionStatus, 'active'>;
  completedTasks: number;
  success: boolean;
  durationSeconds: number;
}

/**
 * How a run ended: mostly completed (success more likely on lower levels and for skilled
 * trainees, and a successful run completes every task), some cancelled from the console, some
 * disconnected (the sweeper waited a minute), a few timed out after the two-hour limit.
 */
function drawOutcome(random: Random, level: SeededLevel, skill: number): Outcome {
  const max = level.maxTasks;
  const secondsPerTask = between(random, 50, 170);
  const runSeconds = (tasks: number) => clamp(Math.round(60 + tasks * secondsPerTask), 180, 1200);
  const r = random();
  if (r < 0.82) {
    const chance = clamp(
      0.9 - 0.08 * (level.levelNumber - 1) - 0.025 * (max - 3) + skill,
      0.35,
      0.97,
    );
    if (random() < chance) {
      return {
        status: 'completed',
        completedTasks: max,
        success: true,
        durationSeconds: runSeconds(max),
      };
    }
    const reached = Math.floor(random() * max);
    return {
      status: 'completed',
      completedTasks: reached,
      success: false,
      durationSeconds: runSeconds(reached + 1),
    };
  }
  const partial = Math.floor(random() * max * 0.8);
  if (r < 0.92) {
    return {
      status: 'cancelled',
      completedTasks: partial,
      success: false,
      durationSeconds: runSeconds(partial + random()),
    };
  }
  if (r < 0.985) {
    return {
      status: 'disconnected',
      completedTasks: partial,
      success: false,
      durationSeconds: runSeconds(partial + 0.5) + 60,
    };
  }
  return {
    status: 'timeout',
    completedTasks: partial,
    success: false,
    durationSeconds: 7200 + Math.floor(random() * 90),
  };
}

/**
 * The history rows of one organisation, day by day over the last HISTORY_DAYS days: each headset
 * runs a chain of sessions in working hours (06:00–15:30 UTC, i.e. 09:00–18:30 Moscow time), with
 * breaks between them; only scenarios granted at that moment are run, and nothing ends after `now`.
 */
function planOrganization(
  random: Random,
  now: Date,
  org: SeededOrganization,
  devices: HistoryDevice[],
  levels: SeededLevel[],
  grantedAt: Date,
): NewSession[] {
  const rows: NewSession[] = [];
  const today = startOfUtcDay(now);
  const levelWeight = (level: SeededLevel) => [2, 1.5, 1][level.levelNumber - 1] ?? 1;
  for (let back = HISTORY_DAYS - 1; back >= 0; back--) {
    const day = daysAgo(today, back);
    for (const device of devices) {
      const count = sessionsOnDay(random, day.getUTCDay(), device.weight ?? 1);
      let start = day.getTime() + (6 * 60 + between(random, 0, 90)) * MINUTE_MS;
      for (let n = 0; n < count; n++) {
        const startedAt = new Date(Math.floor(start / 1000) * 1000);
        const available = levels.filter((level) => {
          if (!org.grants.has(level.scenarioKey) || startedAt < grantedAt) return false;
          const expiresAt = org.grants.get(level.scenarioKey);
          return !expiresAt || startedAt < expiresAt;
        });
        if (available.length === 0) break;
        // Scenarios evenly, then modules evenly, then lower levels more often.
        const scenarioKey = weightedPick(
          random,
          [...new Set(available.map((l) => l.scenarioKey))],
          () => 1,
        );
        const ofScenario = available.filter((level) => level.scenarioKey === scenarioKey);
        const moduleId = weightedPick(
          random,
          [...new Set(ofScenario.map((l) => l.moduleId))],
          () => 1,
        );
        const level = weightedPick(
          random,
          ofScenario.filter((l) => l.moduleId === moduleId),
          levelWeight,
        );
        const vrUser = weightedPick(random, org.vrUsers, (user) => user.activity);
        const options = level.options.filter(() => random() < 0.35);
        const outcome = drawOutcome(random, level, vrUser.skill);
        const endedAt = new Date(startedAt.getTime() + outcome.durationSeconds * 1000);
        if (endedAt.getTime() > now.getTime() - 2 * MINUTE_MS) break;
        rows.push({
          organization_id: org.id,
          device_id: device.id,
          vr_user_id: vrUser.id,
          scenario_id: level.scenarioId,
          module_id: level.moduleId,
          level_id: level.levelId,
          started_by_account_id: org.staff.id,
          device_name: device.name,
          device_type: device.type,
          vr_user_name: vrUser.name,
          scenario_name: level.scenarioName.ru,
          module_name: level.moduleName.ru,
          level_name: level.levelName.ru,
          scenario_name_en: level.scenarioName.en,
          module_name_en: level.moduleName.en,
          level_name_en: level.levelName.en,
          level_number: level.levelNumber,
          max_tasks: level.maxTasks,
          selected_options: JSON.stringify(options),
          started_by_email: org.staff.email,
          status: outcome.status,
          completed_tasks: outcome.completedTasks,
          success: outcome.success,
          started_at: startedAt,
          ended_at: endedAt,
          duration_seconds: outcome.durationSeconds,
        });
        start = endedAt.getTime() + between(random, 4, 45) * MINUTE_MS;
        if (start > day.getTime() + 15.5 * 60 * MINUTE_MS) break;
      }
    }
  }
  return rows;
}

/**
 * The whole history, without touching the database: the same seed, clock, ids and devices give
 * the same rows. `demoHeadsets` are the enrolled demo headsets of the demo organisation.
 */
export function planHistory(
  seed: DemoSeed,
  now: Date,
  demoHeadsets: HistoryDevice[],
  randomSeed = HISTORY_SEED,
): NewSession[] {
  const random = seededRandom(randomSeed);
  return [
    ...planOrganization(
      random,
      now,
      seed.demo,
      [...demoHeadsets, ...seed.demo.devices],
      seed.levels,
      seed.grantedAt,
    ),
    ...planOrganization(
      random,
      now,
      seed.partner,
      seed.partner.devices,
      seed.levels,
      seed.grantedAt,
    ),
  ].sort((a, b) => a.started_at.getTime() - b.started_at.getTime());
}

export interface HistorySummary {
  total: number;
  byStatus: Record<Exclude<SessionStatus, 'active'>, number>;
  byOrganization: Record<string, number>;
  successes: number;
}

export function summarizeHistory(rows: NewSession[]): HistorySummary {
  const summary: HistorySummary = {
    total: rows.length,
    byStatus: { completed: 0, cancelled: 0, disconnected: 0, timeout: 0 },
    byOrganization: {},
    successes: 0,
  };
  for (const row of rows) {
    const status = row.status as Exclude<SessionStatus, 'active'>;
    summary.byStatus[status] += 1;
    summary.byOrganization[row.organization_id] =
      (summary.byOrganization[row.organization_id] ?? 0) + 1;
    if (row.success) summary.successes += 1;
  }
  return summary;
}

/** Rows per INSERT: 23 parameters each, far below PostgreSQL's 65,535 per statement. */
const INSERT_CHUNK = 250;

/**
 * Writes the history in multi-row INSERTs (one transaction) and dates the demo headsets back to
 * before it, as if they had been enrolled weeks ago.
 */
export async function seedHistory(
  db: Db,
  clock: Clock,
  seed: DemoSeed,
  demoHeadsets: HistoryDevice[],
  randomSeed = HISTORY_SEED,
): Promise<HistorySummary> {
  const now = clock.now();
  const rows = planHistory(seed, now, demoHeadsets, randomSeed);
  await db.transaction().execute(async (trx) => {
    for (let at = 0; at < rows.length; at += INSERT_CHUNK) {
      await trx
        .insertInto('sessions')
        .values(rows.slice(at, at + INSERT_CHUNK))
        .execute();
    }
    if (demoHeadsets.length > 0) {
      await sql`UPDATE devices SET created_at = ${daysAgo(now, HISTORY_DAYS + 2)}
        WHERE id = ANY(${demoHeadsets.map((device) => device.id)}::uuid[])`.execute(trx);
    }
  });
  return summarizeHistory(rows);
}
