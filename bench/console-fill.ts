import { sql, type Kysely } from 'kysely';
import type { Db } from '../apps/server/src/platform/database/db.ts';

/**
 * Fills a freshly migrated database the way a bulk import would: plain SQL, INSERT … SELECT over
 * generate_series, never through the API. Sessions go in a few big statements (one per batch of
 * `sessionBatch` rows), so statement-level triggers on `sessions` (rollups) see them as an import
 * would. Helper tables are TEMP tables on one pinned connection, dropped at the end.
 *
 * Every device gets a token: device number n (1-based, in the order of `bench_dev`) answers to
 * `deviceToken(n)`, stored hashed as enrolment stores it (SHA-256, hex).
 */

export const BENCH_PASSWORD = 'bench-password-1';
export const ADMIN_EMAIL = 'admin@bench.local';
export const deviceToken = (n: number) => `vrtc-bench-device-${n}`;
/** The client account of organisation number `org` (1 = the biggest). */
export const clientEmail = (org: number, j = 1) =>
  `client${j}@org${String(org).padStart(3, '0')}.bench.local`;
/** A fragment of some VR users' names (the search read uses it). */
export const NAME_FRAGMENT = 'nova';

export interface FillSizes {
  organizations: number;
  devices: number;
  vrUsers: number;
  sessions: number;
  activeSessions: number;
  /** Share of each of the above held by organisation 1. */
  biggestShare: number;
  scenarios: number;
  modulesPerScenario: number;
  levelsPerModule: number;
  sessionBatch: number;
}

/** Scale 1: 100 organisations, 20,000 headsets, 50,000 VR users, 1,000,000 sessions. */
export function sizesFor(scale: number, sessionBatch = 100_000): FillSizes {
  // At least 20, so that organisation 1 can hold 10 % while every other holds less.
  const organizations = Math.max(20, Math.round(100 * scale));
  return {
    organizations,
    devices: Math.max(organizations * 2, Math.round(20_000 * scale)),
    vrUsers: Math.max(organizations * 2, Math.round(50_000 * scale)),
    sessions: Math.max(organizations * 10, Math.round(1_000_000 * scale)),
    activeSessions: Math.max(5, Math.round(300 * scale)),
    biggestShare: 0.1,
    scenarios: 20,
    modulesPerScenario: 3,
    levelsPerModule: 3,
    sessionBatch,
  };
}

/**
 * Splits `total` over the organisations: organisation 1 gets `biggestShare`, the others a
 * declining share (weight k^-0.5), each at least one, largest remainders rounded up.
 */
export function split(total: number, organizations: number, biggestShare: number): number[] {
  const weights = Array.from({ length: organizations }, (_, i) => (i === 0 ? 0 : (i + 1) ** -0.5));
  const others = weights.reduce((a, b) => a + b, 0);
  const shares = weights.map((w, i) =>
    i === 0 ? biggestShare : ((1 - biggestShare) * w) / others,
  );
  const exact = shares.map((share) => share * total);
  const counts = exact.map((value) => Math.max(1, Math.floor(value)));
  let left = total - counts.reduce((a, b) => a + b, 0);
  const byRemainder = exact
    .map((value, i) => ({ i, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder);
  for (let k = 0; left > 0; k = (k + 1) % byRemainder.length, left -= 1) {
    counts[byRemainder[k]!.i]! += 1;
  }
  // Minimums of one can overshoot a tiny total: take back from the largest of the others.
  while (left < 0) {
    let largest = 1;
    for (let i = 2; i < counts.length; i++) if (counts[i]! > counts[largest]!) largest = i;
    if (counts[largest]! <= 1) break;
    counts[largest]! -= 1;
    left += 1;
  }
  return counts;
}

export interface FillStep {
  name: string;
  rows: number;
  ms: number;
}

export interface FillResult {
  steps: FillStep[];
  totalMs: number;
  biggest: {
    id: string;
    name: string;
    devices: number;
    vrUsers: number;
    sessions: number;
    endedSessions: number;
    activeSessions: number;
  };
  /** Device numbers of the devices running the active sessions. */
  activeDeviceNumbers: number[];
  /** Device numbers of devices without an active session, organisation 1's first. */
  idleDeviceNumbers: number[];
  totals: Record<string, number>;
}

const SCENARIO_NAMES = [
  'Fire safety',
  'Working at height',
  'First aid',
  'Forklift operation',
  'Confined spaces',
  'Electrical safety',
  'Chemical spill response',
  'Crane signalling',
  'Warehouse picking',
  'Customer de-escalation',
  'Welding safety',
  'Lockout / tagout',
  'Evacuation drill',
  'Scaffolding inspection',
  'PPE basics',
  'Hazard spotting',
  'Machine guarding',
  'Loading dock',
  'Emergency shutdown',
  'Gas leak response',
];
const FIRST_NAMES = [
  'Anna',
  'Boris',
  'Clara',
  'Dmitri',
  'Elena',
  'Farid',
  'Greta',
  'Hugo',
  'Irina',
  'Jonas',
  'Katya',
  'Lars',
  'Maria',
  'Nikolai',
  'Olga',
  'Pavel',
  'Quentin',
  'Rosa',
  'Sergei',
  'Tanya',
  'Ulrich',
  'Vera',
  'Wojciech',
  'Xenia',
  'Yusuf',
  'Zoe',
  'Ahmed',
  'Bianca',
  'Carlos',
  'Daria',
  'Emil',
  'Fatima',
  'Georg',
  'Hanna',
  'Igor',
  'Julia',
  'Kirill',
  'Lena',
  'Mikhail',
  'Nina',
];
const LAST_NAMES = [
  'Ivanova',
  'Petrov',
  'Smirnova',
  'Kuznetsov',
  'Popova',
  'Vasiliev',
  'Sokolova',
  'Mikhailov',
  'Novikova',
  'Fedorov',
  'Morozova',
  'Volkov',
  'Alekseeva',
  'Lebedev',
  'Semenova',
  'Egorov',
  'Pavlova',
  'Kozlov',
  'Stepanova',
  'Nikolaev',
  'Hansen',
  'Jensen',
  'Larsen',
  'Nielsen',
  'Berg',
  'Lindqvist',
  'Johansson',
  'Andersson',
  'Karlsson',
  'Nilsson',
  'Müller',
  'Schmidt',
  'Schneider',
  'Fischer',
  'Weber',
  'Meyer',
  'Wagner',
  'Becker',
  'Schulz',
  'Hoffmann',
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Williams',
  'Wilson',
  'Johnson',
  'Davies',
  'García',
  'Martínez',
];
const textArray = (values: string[]) =>
  sql.raw(`ARRAY[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}]`);

type Conn = Kysely<unknown>;

/** Fills the database; `log` gets one line per step. */
export async function fillDatabase(
  db: Db,
  sizes: FillSizes,
  options: { now: Date; passwordHash: string; log: (line: string) => void },
): Promise<FillResult> {
  const { now, passwordHash, log } = options;
  const steps: FillStep[] = [];
  const started = performance.now();
  const devicesPerOrg = split(sizes.devices, sizes.organizations, sizes.biggestShare);
  const vrUsersPerOrg = split(sizes.vrUsers, sizes.organizations, sizes.biggestShare);
  const endedSessions = sizes.sessions - sizes.activeSessions;
  const sessionsPerOrg = split(endedSessions, sizes.organizations, sizes.biggestShare);

  return db.connection().execute(async (connection) => {
    const conn = connection as unknown as Conn;
    const step = async (name: string, run: () => Promise<number | bigint | undefined | void>) => {
      const at = performance.now();
      const rows = Number((await run()) ?? 0);
      const ms = performance.now() - at;
      steps.push({ name, rows, ms });
      log(`    ${name}: ${rows.toLocaleString('en-US')} rows, ${(ms / 1000).toFixed(1)} s`);
    };
    const exec = async (query: ReturnType<typeof sql>) =>
      (await query.execute(conn)).numAffectedRows ?? 0n;
    const nowTs = sql`${now.toISOString()}::timestamptz`;

    // A bulk import's session setting: no wait for the WAL flush of each statement.
    await sql`SET synchronous_commit = off`.execute(conn);

    let platformId = '';
    await step('organisations, accounts', async () => {
      await sql`CREATE TEMP TABLE bench_org (
        n int PRIMARY KEY, id uuid NOT NULL DEFAULT gen_random_uuid(), name text NOT NULL,
        dev_lo int NOT NULL, dev_cnt int NOT NULL, vr_lo int NOT NULL, vr_cnt int NOT NULL,
        sess_lo int NOT NULL, sess_cnt int NOT NULL, acct_cnt int NOT NULL, lvl_cnt int NOT NULL DEFAULT 0
      )`.execute(conn);
      let dev = 1;
      let vr = 1;
      let sess = 0;
      const rows: string[] = [];
      for (let i = 0; i < sizes.organizations; i++) {
        const n = i + 1;
        const name =
          n === 1
            ? 'Northwind Industrial Training (biggest)'
            : `Training Centre ${String(n).padStart(3, '0')}`;
        rows.push(
          `(${n}, '${name}', ${dev}, ${devicesPerOrg[i]}, ${vr}, ${vrUsersPerOrg[i]}, ${sess}, ${sessionsPerOrg[i]}, ${2 + (n % 2)})`,
        );
        dev += devicesPerOrg[i]!;
        vr += vrUsersPerOrg[i]!;
        sess += sessionsPerOrg[i]!;
      }
      await sql`INSERT INTO bench_org (n, name, dev_lo, dev_cnt, vr_lo, vr_cnt, sess_lo, sess_cnt, acct_cnt)
        VALUES ${sql.raw(rows.join(', '))}`.execute(conn);
      // The admin's own organisation, as the first start creates it (first-admin.ts).
      const platform = await sql<{ id: string }>`
        INSERT INTO organizations (name, created_at) VALUES ('Platform', ${nowTs} - interval '430 days')
        RETURNING id`.execute(conn);
      platformId = platform.rows[0]!.id;
      await sql`
        INSERT INTO accounts (email, password_hash, role, organization_id, created_at)
        VALUES (${ADMIN_EMAIL}, ${passwordHash}, 'admin', ${platformId}::uuid, ${nowTs} - interval '430 days')`.execute(
        conn,
      );
      const orgs = await exec(sql`
        INSERT INTO organizations (id, name, active, created_at)
        SELECT id, name, true, ${nowTs} - interval '425 days' + n * interval '1 hour' FROM bench_org`);
      await sql`CREATE TEMP TABLE bench_acct AS
        SELECT o.n AS org_n, j, gen_random_uuid() AS id,
          'client' || j || '@org' || lpad(o.n::text, 3, '0') || '.bench.local' AS email
        FROM bench_org o, generate_series(1, o.acct_cnt) j`.execute(conn);
      await sql`ALTER TABLE bench_acct ADD PRIMARY KEY (org_n, j)`.execute(conn);
      const accounts = await exec(sql`
        INSERT INTO accounts (id, email, password_hash, role, organization_id, active, created_at)
        SELECT a.id, a.email, ${passwordHash}, 'client', o.id, true, ${nowTs} - interval '420 days'
        FROM bench_acct a JOIN bench_org o ON o.n = a.org_n`);
      return Number(orgs) + Number(accounts) + 2;
    });

    await step('content (scenarios, modules, levels, options)', async () => {
      await sql`CREATE TEMP TABLE bench_scn AS
        SELECT s AS n, gen_random_uuid() AS id,
          (${textArray(SCENARIO_NAMES)})[1 + (s - 1) % ${sql.lit(SCENARIO_NAMES.length)}]
            || CASE WHEN s > ${sql.lit(SCENARIO_NAMES.length)} THEN ' ' || s ELSE '' END AS name
        FROM generate_series(1, ${sql.lit(sizes.scenarios)}) s`.execute(conn);
      let rows = await exec(sql`
        INSERT INTO scenarios (id, name, description, active, created_at)
        SELECT id, name, 'Training scenario: ' || name, n <= ${sql.lit(sizes.scenarios - 2)},
          ${nowTs} - interval '430 days'
        FROM bench_scn`);
      await sql`CREATE TEMP TABLE bench_mod AS
        SELECT s.n AS scn_n, m, gen_random_uuid() AS id,
          (ARRAY['Basics', 'Practice', 'Assessment', 'Refresher'])[1 + (m - 1) % 4] AS name
        FROM bench_scn s, generate_series(1, ${sql.lit(sizes.modulesPerScenario)}) m`.execute(conn);
      rows += await exec(sql`
        INSERT INTO modules (id, scenario_id, name, description, order_index, created_at)
        SELECT m.id, s.id, m.name, 'Module ' || m.m || ' of ' || s.name, m.m - 1,
          ${nowTs} - interval '430 days'
        FROM bench_mod m JOIN bench_scn s ON s.n = m.scn_n`);
      await sql`CREATE TEMP TABLE bench_lvl AS
        SELECT (row_number() OVER (ORDER BY m.scn_n, m.m, l))::int AS n, gen_random_uuid() AS level_id,
          m.id AS module_id, s.id AS scenario_id, s.n AS scn_n, s.name AS scenario_name,
          m.name AS module_name,
          (ARRAY['Guided', 'Standard', 'Expert', 'Master'])[1 + (l - 1) % 4] AS level_name,
          l AS level_number, 3 + (s.n * 7 + m.m * 3 + l * 5) % 6 AS max_tasks,
          2 + (s.n + m.m + l) % 2 AS opt_cnt, NULL::jsonb AS opt_sets
        FROM bench_mod m JOIN bench_scn s ON s.n = m.scn_n,
          generate_series(1, ${sql.lit(sizes.levelsPerModule)}) l`.execute(conn);
      await sql`ALTER TABLE bench_lvl ADD PRIMARY KEY (n)`.execute(conn);
      rows += await exec(sql`
        INSERT INTO levels (id, module_id, name, level_number, description, max_tasks, created_at)
        SELECT level_id, module_id, level_name, level_number, 'Level ' || level_number, max_tasks,
          ${nowTs} - interval '430 days'
        FROM bench_lvl`);
      await sql`CREATE TEMP TABLE bench_opt AS
        SELECT l.n AS lvl_n, o, gen_random_uuid() AS id,
          (ARRAY['Night', 'Smoke', 'Rain', 'Noise', 'Crowd', 'Time pressure'])[1 + (l.n + o) % 6] AS name
        FROM bench_lvl l, generate_series(1, l.opt_cnt) o`.execute(conn);
      rows += await exec(sql`
        INSERT INTO level_options (id, level_id, name, description, order_index, created_at)
        SELECT o.id, l.level_id, o.name, 'Variant: ' || o.name, o.o - 1, ${nowTs} - interval '430 days'
        FROM bench_opt o JOIN bench_lvl l ON l.n = o.lvl_n`);
      // The option sets a session may record: none, the first, the first two, … (jsonb -> k).
      await sql`UPDATE bench_lvl l SET opt_sets = (
          SELECT jsonb_agg(p.prefix ORDER BY p.k) FROM (
            SELECT k, coalesce((
              SELECT jsonb_agg(jsonb_build_object('id', o.id, 'name', o.name) ORDER BY o.o)
              FROM bench_opt o WHERE o.lvl_n = l.n AND o.o <= k), '[]'::jsonb) AS prefix
            FROM generate_series(0, l.opt_cnt) k) p)`.execute(conn);
      return Number(rows);
    });

    await step('scenario access', async () => {
      // Organisation 1 holds every scenario, the others three in four; most grants never expire,
      // some run for months more, one in ten expired 20 days ago.
      await sql`CREATE TEMP TABLE bench_access AS
        SELECT o.n AS org_n, s.n AS scn_n FROM bench_org o, bench_scn s
        WHERE o.n = 1 OR (s.n + o.n) % 4 <> 0`.execute(conn);
      const rows = await exec(sql`
        INSERT INTO scenario_access (scenario_id, organization_id, granted_at, granted_by, expires_at)
        SELECT s.id, o.id, ${nowTs} - interval '415 days', ${ADMIN_EMAIL},
          CASE WHEN (a.scn_n * 3 + a.org_n) % 10 < 7 THEN NULL
            WHEN (a.scn_n * 3 + a.org_n) % 10 < 9 THEN ${nowTs} + interval '180 days'
            ELSE ${nowTs} - interval '20 days' END
        FROM bench_access a JOIN bench_org o ON o.n = a.org_n JOIN bench_scn s ON s.n = a.scn_n`);
      await sql`CREATE TEMP TABLE bench_org_level AS
        SELECT a.org_n, (row_number() OVER (PARTITION BY a.org_n ORDER BY l.n))::int AS k, l.n AS lvl_n
        FROM bench_access a JOIN bench_lvl l ON l.scn_n = a.scn_n`.execute(conn);
      await sql`ALTER TABLE bench_org_level ADD PRIMARY KEY (org_n, k)`.execute(conn);
      await sql`UPDATE bench_org o SET lvl_cnt = (SELECT count(*) FROM bench_org_level x WHERE x.org_n = o.n)`.execute(
        conn,
      );
      return Number(rows);
    });

    await step('devices (headsets, with tokens)', async () => {
      await sql`CREATE TEMP TABLE bench_dev AS
        SELECT g AS n, gen_random_uuid() AS id, o.n AS org_n,
          'Headset ' || lpad((g - o.dev_lo + 1)::text, 4, '0') AS name,
          (ARRAY['quest', 'quest', 'quest', 'quest', 'pico', 'pico', 'oculus', 'oculus', 'quest', 'other'])[1 + g % 10] AS type
        FROM bench_org o, generate_series(o.dev_lo, o.dev_lo + o.dev_cnt - 1) g`.execute(conn);
      await sql`ALTER TABLE bench_dev ADD PRIMARY KEY (n)`.execute(conn);
      return exec(sql`
        INSERT INTO devices (id, organization_id, name, type, movement_type, token_hash, last_seen_at,
          battery_percent, app_version, created_at)
        SELECT d.id, o.id, d.name, d.type, CASE WHEN d.n % 5 = 0 THEN 'teleport' ELSE 'slide' END,
          encode(sha256(convert_to('vrtc-bench-device-' || d.n, 'UTF8')), 'hex'), NULL,
          20 + (d.n * 37) % 81, (ARRAY['1.4.2', '1.5.0', '1.5.1'])[1 + d.n % 3],
          ${nowTs} - interval '415 days' + (d.n % 10) * interval '1 day'
        FROM bench_dev d JOIN bench_org o ON o.n = d.org_n`);
    });

    await step('VR users', async () => {
      await sql`CREATE TEMP TABLE bench_vr AS
        SELECT g AS n, gen_random_uuid() AS id, o.n AS org_n,
          (${textArray(FIRST_NAMES)})[1 + g % ${sql.lit(FIRST_NAMES.length)}] || ' ' ||
          (${textArray(LAST_NAMES)})[1 + (g / ${sql.lit(FIRST_NAMES.length)}) % ${sql.lit(LAST_NAMES.length)}] AS name
        FROM bench_org o, generate_series(o.vr_lo, o.vr_lo + o.vr_cnt - 1) g`.execute(conn);
      await sql`ALTER TABLE bench_vr ADD PRIMARY KEY (n)`.execute(conn);
      return exec(sql`
        INSERT INTO vr_users (id, organization_id, name, notes, created_at)
        SELECT v.id, o.id, v.name, CASE WHEN v.n % 7 = 0 THEN 'Shift ' || (1 + v.n % 3) END,
          ${nowTs} - interval '405 days' + (v.n % 5) * interval '1 day'
        FROM bench_vr v JOIN bench_org o ON o.n = v.org_n`);
    });
    await sql`ANALYZE bench_org, bench_acct, bench_lvl, bench_org_level, bench_dev, bench_vr`.execute(
      conn,
    );

    // The columns every session row carries, from the picks of layer `r` (one row per session,
    // its random draws made once: a subquery with volatile functions is never flattened).
    const sessionColumns = sql`organization_id, device_id, vr_user_id, scenario_id, module_id,
      level_id, started_by_account_id, device_name, device_type, vr_user_name, scenario_name,
      module_name, level_name, level_number, max_tasks, selected_options, started_by_email, status,
      completed_tasks, success, started_at, ended_at, duration_seconds`;
    const joins = sql`
      JOIN bench_org o ON o.n = r.org_n
      JOIN bench_dev d ON d.n = r.dev_n
      JOIN bench_vr v ON v.n = r.vr_n
      JOIN bench_org_level ol ON ol.org_n = r.org_n AND ol.k = r.lvl_k
      JOIN bench_lvl l ON l.n = ol.lvl_n
      JOIN bench_acct a ON a.org_n = r.org_n AND a.j = r.acct_j`;

    // Oldest first, as years of history accumulate: batch b holds every organisation's b-th slice
    // of its sessions in time (one organisation's n-th session is its n-th oldest), so the
    // sessions table and the rollups lie in time order, as in a console that has run for 400
    // days. (Batches by organisation instead left each organisation's 400 days in one block and
    // every rollup row rewritten by every batch: a day's figures then sat on every page.)
    const batches = Math.ceil(endedSessions / sizes.sessionBatch);
    for (let b = 0; b < batches; b++) {
      await step(`sessions, ended, batch ${b + 1}/${batches} (one INSERT … SELECT)`, () =>
        exec(sql`
        INSERT INTO sessions (${sessionColumns})
        SELECT o.id, d.id, v.id, l.scenario_id, l.module_id, l.level_id, a.id,
          d.name, d.type, v.name, l.scenario_name, l.module_name, l.level_name, l.level_number,
          l.max_tasks, l.opt_sets -> floor(r.r_opt * (l.opt_cnt + 1))::int, a.email, x.status,
          CASE WHEN x.status = 'completed' AND r.r_succ < 0.8 THEN l.max_tasks
            ELSE floor(r.r_tasks * l.max_tasks)::int END,
          x.status = 'completed' AND r.r_succ < 0.8,
          x.started_at, x.started_at + x.duration * interval '1 second', x.duration
        FROM (
          SELECT g AS ord, o.n AS org_n,
            o.dev_lo + floor(random() * o.dev_cnt)::int AS dev_n,
            o.vr_lo + floor(power(random(), 1.5) * o.vr_cnt)::int AS vr_n,
            1 + floor(random() * o.lvl_cnt)::int AS lvl_k,
            1 + floor(random() * o.acct_cnt)::int AS acct_j,
            random() AS r_status, random() AS r_tasks, random() AS r_dur,
            -- Days ago / 400, older for earlier sessions: the inverse of the distribution the
            -- sessions follow (half spread evenly over the 400 days, half weighted to recent
            -- ones, 1 - sqrt(uniform)), F(x) = 1.5x - 0.5x², at the session's place in time.
            1.5 - sqrt(2.25 - 2 * (1 - (g - o.sess_lo + random()) / o.sess_cnt)) AS days_ago,
            random() AS r_hour, random() AS r_opt, random() AS r_succ
          FROM bench_org o,
            generate_series(o.sess_lo + o.sess_cnt * ${b}::int / ${batches}::int,
              o.sess_lo + o.sess_cnt * ${b + 1}::int / ${batches}::int - 1) g
        ) r
        CROSS JOIN LATERAL (
          SELECT y.status, y.duration,
            CASE WHEN y.day_start + y.duration * interval '1 second' > ${nowTs} - interval '1 minute'
              THEN y.day_start - interval '1 day' ELSE y.day_start END AS started_at
          FROM (
            SELECT z.status,
              (CASE z.status
                WHEN 'completed' THEN 240 + r.r_dur * 1200
                WHEN 'cancelled' THEN 20 + r.r_dur * 600
                WHEN 'disconnected' THEN 60 + r.r_dur * 1200
                ELSE 7200 + r.r_dur * 60 END)::int AS duration,
              date_trunc('day', ${nowTs})
                - floor(400 * r.days_ago) * interval '1 day'
                + (6 * 3600 + r.r_hour * 12 * 3600) * interval '1 second' AS day_start
            FROM (SELECT CASE WHEN r.r_status < 0.70 THEN 'completed'
                WHEN r.r_status < 0.82 THEN 'cancelled'
                WHEN r.r_status < 0.92 THEN 'disconnected'
                ELSE 'timeout' END AS status) z
          ) y
        ) x
        ${joins}`),
      );
    }

    // A few hundred sessions under way, on distinct devices spread over every organisation
    // (one active session per device: sessions_one_active_per_device).
    const step_ = Math.max(1, Math.floor(sizes.devices / sizes.activeSessions));
    await step('sessions, active (one INSERT … SELECT)', () =>
      exec(sql`
        INSERT INTO sessions (${sessionColumns})
        SELECT o.id, d.id, v.id, l.scenario_id, l.module_id, l.level_id, a.id,
          d.name, d.type, v.name, l.scenario_name, l.module_name, l.level_name, l.level_number,
          l.max_tasks, l.opt_sets -> floor(r.r_opt * (l.opt_cnt + 1))::int, a.email, 'active',
          floor(r.r_tasks * l.max_tasks)::int, NULL,
          ${nowTs} - (60 + r.r_dur * 45 * 60) * interval '1 second', NULL, NULL
        FROM (
          SELECT d.n AS dev_n, d.org_n,
            o.vr_lo + floor(random() * o.vr_cnt)::int AS vr_n,
            1 + floor(random() * o.lvl_cnt)::int AS lvl_k,
            1 + floor(random() * o.acct_cnt)::int AS acct_j,
            random() AS r_tasks, random() AS r_dur, random() AS r_opt
          FROM bench_dev d JOIN bench_org o ON o.n = d.org_n
          WHERE (d.n - 1) % ${step_}::int = 0 ORDER BY d.n LIMIT ${sizes.activeSessions}::int
        ) r
        ${joins}`),
    );
    const active = await sql<{ n: number }>`
      SELECT d.n FROM bench_dev d JOIN sessions s ON s.device_id = d.id AND s.status = 'active'
      ORDER BY d.n`.execute(conn);
    const activeDeviceNumbers = active.rows.map((row) => Number(row.n));

    await step("devices' last-seen times (from their sessions)", () =>
      exec(sql`
        UPDATE devices d SET last_seen_at = m.last_seen
        FROM (SELECT device_id, max(coalesce(ended_at, started_at)) AS last_seen
              FROM sessions GROUP BY device_id) m
        WHERE d.id = m.device_id`),
    );

    await step('VACUUM ANALYZE', async () => {
      await sql`VACUUM (ANALYZE)`.execute(conn);
      return 0;
    });

    const biggest = await sql<{ id: string; name: string }>`
      SELECT id, name FROM bench_org WHERE n = 1`.execute(conn);
    const idle = await sql<{ n: number }>`
      SELECT d.n FROM bench_dev d
      WHERE NOT EXISTS (SELECT 1 FROM sessions s WHERE s.device_id = d.id AND s.status = 'active')
      ORDER BY d.org_n, d.n LIMIT 1000`.execute(conn);
    const counts = await sql<Record<string, string>>`
      SELECT (SELECT count(*) FROM organizations) AS organizations,
        (SELECT count(*) FROM accounts) AS accounts,
        (SELECT count(*) FROM devices) AS devices,
        (SELECT count(*) FROM vr_users) AS vr_users,
        (SELECT count(*) FROM sessions) AS sessions,
        (SELECT count(*) FROM sessions WHERE status = 'active') AS active_sessions,
        (SELECT count(*) FROM scenarios) AS scenarios,
        (SELECT count(*) FROM levels) AS levels,
        (SELECT count(*) FROM level_options) AS level_options,
        (SELECT count(*) FROM scenario_access) AS scenario_access`.execute(conn);
    const activeBiggest = activeDeviceNumbers.filter((n) => n < 1 + devicesPerOrg[0]!).length;
    await sql`DROP TABLE bench_org, bench_acct, bench_scn, bench_mod, bench_lvl, bench_opt,
      bench_access, bench_org_level, bench_dev, bench_vr`.execute(conn);

    return {
      steps,
      totalMs: performance.now() - started,
      biggest: {
        id: biggest.rows[0]!.id,
        name: biggest.rows[0]!.name,
        devices: devicesPerOrg[0]!,
        vrUsers: vrUsersPerOrg[0]!,
        sessions: sessionsPerOrg[0]! + activeBiggest,
        endedSessions: sessionsPerOrg[0]!,
        activeSessions: activeBiggest,
      },
      activeDeviceNumbers,
      idleDeviceNumbers: idle.rows.map((row) => Number(row.n)),
      totals: Object.fromEntries(
        Object.entries(counts.rows[0]!).map(([key, value]) => [key, Number(value)]),
      ),
    };
  });
}
