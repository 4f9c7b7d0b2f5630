import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../apps/server/src/app.ts';
import { hashToken } from '../apps/server/src/auth/tokens.ts';
import { testConfig } from '../apps/server/src/platform/config/config.ts';
import { openDatabase, type Db } from '../apps/server/src/platform/database/db.ts';
import { migrate } from '../apps/server/src/platform/database/migrate.ts';
import { cliArgs, loadAverage, say } from './cli.ts';
import { createScratchDatabase, makeDeviceTokens, percentile } from './targets.ts';

/**
 * `npm run bench:compliance`: the compliance view at the issue's scale (issue #37). One
 * organisation with 10,000 trainees, 20 qualifications all assigned to all of them (200,000
 * rows), 1,000,000 sessions over 400 days and a handful of trainees revoked, on a scratch
 * PostgreSQL database (DATABASE_URL's server, default postgres://postgres@127.0.0.1:5432/postgres),
 * filled with plain SQL. The real
 * app (buildApp) answers on 127.0.0.1; each read of READS is asked --requests times one after
 * another (after one warm-up), beside a bare Fastify route asked the same way in the same run.
 * Then the CSV export is downloaded while this process's RSS is sampled every 50 ms.
 * A benchmark, not a test: PASS/FAIL against p99 < 200 ms, exit 0 whatever the verdict.
 *
 * Flags: --scale=1 (trainees and sessions scale with it), --requests=20, --keep (keep the
 * database), --database=<name> (measure a database a --keep run filled, migrated to this code
 * first; the fill takes minutes), --reads=<regexp>.
 */

const args = cliArgs();
const SCALE = Number(args.get('scale') ?? 1);
const REQUESTS = Number(args.get('requests') ?? 20);
const KEEP = args.has('keep');
/** An existing database a run with --keep filled: migrated and measured again, never dropped. */
const REUSE = args.get('database');
const READ_FILTER = args.has('reads') ? new RegExp(args.get('reads')!, 'i') : undefined;
const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const TRAINEES = Math.round(10_000 * SCALE);
const QUALIFICATIONS = 20;
const SESSIONS = Math.round(1_000_000 * SCALE);
const TARGET_P99_MS = 200;
const DAY_MS = 24 * 3600 * 1000;

const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const int = (value: number) => Math.round(value).toLocaleString('en-US');

/** The organisation, its staff token, its trainees, qualifications, assignments and sessions. */
async function fill(db: Db, now: Date) {
  const step: Step = async (name, run) => {
    const started = performance.now();
    await run();
    say(`  ${name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
  const org = await db
    .insertInto('organizations')
    .values({ name: 'Compliance bench' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('accounts')
    .values({
      email: 'staff@compliance.bench',
      password_hash: 'not-used',
      role: 'client',
      organization_id: org.id,
    })
    .execute();
  const scenario = await db
    .insertInto('scenarios')
    .values({ name: 'Warehouse', description: 'bench' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const module = await db
    .insertInto('modules')
    .values({ scenario_id: scenario.id, name: 'Module 1', order_index: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('scenario_access')
    .values({ scenario_id: scenario.id, organization_id: org.id, granted_at: now })
    .execute();
  const o = org.id;
  await step('levels, qualifications (1 level each; 2 need an evaluation)', async () => {
    await sql`INSERT INTO levels (module_id, name, level_number, max_tasks)
      SELECT ${module.id}, 'Level ' || i, i, 5 FROM generate_series(1, ${QUALIFICATIONS}::int) i`.execute(
      db,
    );
    await sql`INSERT INTO qualifications (organization_id, name, validity_days, expiring_within_days,
        evaluation_required, created_at, updated_at)
      SELECT ${o}, 'Qualification ' || lpad(l.level_number::text, 2, '0'),
        CASE WHEN l.level_number % 5 = 0 THEN NULL ELSE 90 + 30 * (l.level_number % 10) END, 30,
        l.level_number <= 2, ${now}, ${now}
      FROM levels l WHERE l.module_id = ${module.id}`.execute(db);
    await sql`INSERT INTO qualification_levels (qualification_id, level_id)
      SELECT q.id, l.id FROM qualifications q JOIN levels l
        ON q.name = 'Qualification ' || lpad(l.level_number::text, 2, '0')
      WHERE q.organization_id = ${o} AND l.module_id = ${module.id}`.execute(db);
  });
  await step(`${int(TRAINEES)} trainees`, () =>
    sql`INSERT INTO vr_users (organization_id, name)
      SELECT ${o}, (ARRAY['Anna','Boris','Vera','Gleb','Daria','Egor','Zoya','Ilya'])[1 + i % 8]
        || ' ' || lpad(i::text, 6, '0') FROM generate_series(1, ${TRAINEES}::int) i`.execute(db),
  );
  await step(`${int(TRAINEES * QUALIFICATIONS)} assignments (a third with a due date)`, () =>
    sql`INSERT INTO qualification_assignments (qualification_id, vr_user_id, organization_id,
        due_at, assigned_at)
      SELECT q.id, v.id, ${o},
        CASE WHEN random() < 0.33 THEN ${now}::timestamptz + (floor(random() * 120) - 60) * interval '1 day' END,
        ${now}
      FROM qualifications q CROSS JOIN vr_users v
      WHERE q.organization_id = ${o} AND v.organization_id = ${o}`.execute(db),
  );
  await fillRecord(db, now, o, { scenarioId: scenario.id, moduleId: module.id }, step);
  // As autovacuum leaves a settled database: statistics, and the visibility map that index-only
  // scans need.
  await step('VACUUM ANALYZE', () => sql`VACUUM ANALYZE`.execute(db));
}

type Step = (name: string, run: () => Promise<unknown>) => Promise<void>;

/** The record: 1,000,000 sessions over 400 days in batches, and the signed passes. */
async function fillRecord(
  db: Db,
  now: Date,
  o: string,
  content: { scenarioId: string; moduleId: string },
  step: Step,
) {
  await sql`CREATE TABLE bench_vr AS SELECT row_number() OVER (ORDER BY id)::int AS n, id, name
    FROM vr_users WHERE organization_id = ${o}`.execute(db);
  await sql`CREATE UNIQUE INDEX ON bench_vr (n)`.execute(db);
  const batches = Math.max(1, Math.ceil(SESSIONS / 200_000));
  for (let b = 0; b < batches; b++) {
    const count = Math.min(200_000, SESSIONS - b * 200_000);
    await step(`sessions ${b * 200_000 + 1}–${b * 200_000 + count}`, () =>
      sql`INSERT INTO sessions (organization_id, vr_user_id, scenario_id, module_id, level_id,
          device_name, device_type, vr_user_name, scenario_name, module_name, level_name,
          level_number, max_tasks, selected_options, status, completed_tasks, success,
          started_at, ended_at, duration_seconds)
        SELECT ${o}, v.id, ${content.scenarioId}, ${content.moduleId}, l.id, 'Headset', 'quest', v.name,
          'Warehouse', 'Module 1', l.name, l.level_number, 5, '[]', r.status,
          CASE WHEN r.success THEN 5 ELSE 2 END, r.success,
          r.started_at, r.started_at + interval '10 minutes', 600
        FROM (
          SELECT 1 + floor(random() * ${TRAINEES}::int)::int AS vr_n,
            1 + floor(random() * ${QUALIFICATIONS}::int)::int AS level_n,
            CASE WHEN random() < 0.75 THEN 'completed' ELSE 'cancelled' END AS status,
            random() < 0.6 AS lucky,
            ${now}::timestamptz - floor(random() * 400) * interval '1 day' - interval '1 hour' AS started_at
          FROM generate_series(1, ${count}::int) g
        ) x
        CROSS JOIN LATERAL (SELECT x.status, x.status = 'completed' AND x.lucky AS success,
          x.started_at) r
        JOIN bench_vr v ON v.n = x.vr_n
        JOIN levels l ON l.module_id = ${content.moduleId} AND l.level_number = x.level_n`.execute(
        db,
      ),
    );
  }
  await sql`DROP TABLE bench_vr`.execute(db);
  await step('evaluations (a pass for 70 % of the trainees in each of the 2 that need one)', () =>
    sql`INSERT INTO qualification_evaluations (organization_id, qualification_id, vr_user_id,
        result, meaning, signer_name, signer_email, signed_at)
      SELECT ${o}, q.id, v.id, 'pass', 'Practical evaluation passed', 'bench', 'bench@example.org',
        ${now}::timestamptz - floor(random() * 300) * interval '1 day'
      FROM qualifications q CROSS JOIN vr_users v
      WHERE q.organization_id = ${o} AND q.evaluation_required AND v.organization_id = ${o}
        AND random() < 0.7`.execute(db),
  );
  // A handful revoked (a status that matches few rows): its page must not walk every trainee.
  await step('revocations (12 trainees in one qualification, within 30 days)', () =>
    sql`INSERT INTO qualification_revocations (organization_id, qualification_id, vr_user_id,
        reason, revoked_at)
      SELECT ${o}, q.id, v.id, 'Incident', ${now}::timestamptz - floor(random() * 30) * interval '1 day'
      FROM (SELECT id FROM qualifications WHERE organization_id = ${o} AND NOT evaluation_required
          ORDER BY name LIMIT 1) q
        CROSS JOIN (SELECT id FROM vr_users WHERE organization_id = ${o} ORDER BY id LIMIT 12) v`.execute(
      db,
    ),
  );
}

/** A fresh bearer token of the organisation's staff account, and its first qualification. */
async function readerOf(db: Db, now: Date) {
  const account = await db
    .selectFrom('accounts')
    .select(['id', 'organization_id'])
    .where('email', '=', 'staff@compliance.bench')
    .executeTakeFirstOrThrow();
  const [token] = makeDeviceTokens(1) as [string];
  await db
    .insertInto('auth_tokens')
    .values({
      account_id: account.id,
      token_hash: hashToken(token),
      created_at: now,
      expires_at: new Date(now.getTime() + DAY_MS),
    })
    .execute();
  const firstQualification = await db
    .selectFrom('qualifications')
    .select('id')
    .where('organization_id', '=', account.organization_id)
    .orderBy('name')
    .executeTakeFirstOrThrow();
  return { token, qualificationId: firstQualification.id };
}

function reused(name: string) {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: async () => {} };
}

interface Answer {
  status: number;
  bytes: number;
  ms: number;
  firstByteMs: number;
}

function get(url: string, token?: string, onChunk?: () => void): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(
      url,
      { headers: token ? { authorization: `Bearer ${token}` } : {}, agent: false },
      (res) => {
        let bytes = 0;
        let firstByteMs = 0;
        res.on('data', (chunk: Buffer) => {
          if (bytes === 0) firstByteMs = performance.now() - started;
          bytes += chunk.length;
          onChunk?.();
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            bytes,
            ms: performance.now() - started,
            firstByteMs,
          }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(300_000, () => req.destroy(new Error('timed out')));
    req.on('error', reject);
  });
}

interface Read {
  name: string;
  path: (c: { qualificationId: string; now: Date }) => string;
}

const dayFrom = (now: Date, days: number) => new Date(now.getTime() + days * DAY_MS).toISOString();
const READS: Read[] = [
  { name: 'first page', path: () => '/v1/compliance?limit=25' },
  { name: 'status=expired', path: () => '/v1/compliance?limit=25&status=expired' },
  { name: 'status=expiring', path: () => '/v1/compliance?limit=25&status=expiring' },
  { name: 'overdue=true', path: () => '/v1/compliance?limit=25&overdue=true' },
  { name: 'status=revoked (a handful)', path: () => '/v1/compliance?limit=25&status=revoked' },
  {
    name: 'status=pending_evaluation',
    path: () => '/v1/compliance?limit=25&status=pending_evaluation',
  },
  {
    name: 'one qualification',
    path: (c) => `/v1/compliance?limit=25&qualification_id=${c.qualificationId}`,
  },
  { name: 'search q=vera', path: () => '/v1/compliance?limit=25&q=vera' },
  { name: 'sort=valid_until', path: () => '/v1/compliance?limit=25&sort=valid_until' },
  {
    name: 'as_of 180 days ago',
    path: (c) => `/v1/compliance?limit=25&as_of=${dayFrom(c.now, -180)}`,
  },
  { name: 'as_of in 90 days', path: (c) => `/v1/compliance?limit=25&as_of=${dayFrom(c.now, 90)}` },
];

async function measure(url: string, token?: string) {
  const warm = await get(url, token);
  const times: number[] = [];
  // A read slower than a second is asked five times: enough to show it misses by far.
  const count = warm.ms > 1000 ? Math.min(5, REQUESTS) : REQUESTS;
  for (let i = 0; i < count; i++) times.push((await get(url, token)).ms);
  return {
    status: warm.status,
    bytes: warm.bytes,
    count,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
  };
}

async function bareBaseline() {
  const app = Fastify({ logger: false });
  const page = {
    rows: Array.from({ length: 25 }, (_, i) => ({ id: i, name: `Row ${i}` })),
    total: 25,
  };
  app.get('/bare', async () => page);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/bare`;
  const result = await measure(url);
  await app.close();
  return result;
}

/** The export downloaded once, this process's RSS sampled every 50 ms and on each chunk. */
async function measureExport(url: string, token: string) {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  const timer = setInterval(sample, 50);
  try {
    const answer = await get(url, token, sample);
    return { ...answer, before, peak };
  } finally {
    clearInterval(timer);
  }
}

/** Each read of READS measured, its row added to `rows`; how many were judged and passed. */
async function measureReads(
  base: string,
  token: string,
  context: { qualificationId: string; now: Date },
  rows: string[][],
) {
  let passing = 0;
  let judged = 0;
  for (const read of READS) {
    if (READ_FILTER && !READ_FILTER.test(read.name)) continue;
    const result = await measure(`${base}${read.path(context)}`, token);
    const ok = result.status === 200 && result.p99 < TARGET_P99_MS;
    judged += 1;
    if (ok) passing += 1;
    rows.push([
      read.name,
      String(result.status),
      int(result.bytes),
      String(result.count),
      ms(result.p50),
      ms(result.p99),
      ok ? 'PASS' : 'FAIL',
    ]);
    say(
      `  ${read.name}: p50 ${ms(result.p50)} ms, p99 ${ms(result.p99)} ms (status ${result.status})`,
    );
  }
  return { passing, judged };
}

/** The report's heading, facts of the run and table of reads. */
function reportOf(run: {
  startedAt: Date;
  loadBefore: string;
  loadMeasured: string;
  fillS: number;
  database: string;
  rows: string[][];
  csv: Awaited<ReturnType<typeof measureExport>>;
}) {
  const { startedAt, loadBefore, loadMeasured, fillS, rows, csv } = run;
  return [
    `# Compliance view at scale — ${startedAt.toISOString()}`,
    '',
    `\`npm run bench:compliance${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\``,
    '',
    `- Machine: ${os.cpus().length} cores, Node ${process.version}; PostgreSQL at ${new URL(SERVER_URL).host}`,
    `- Load average (1 / 5 / 15 min): ${loadBefore} at the start, ${loadMeasured} when measuring, ${loadAverage()} at the end`,
    `- Data: 1 organisation, ${int(TRAINEES)} trainees, ${QUALIFICATIONS} qualifications all assigned (${int(TRAINEES * QUALIFICATIONS)} rows), ${int(SESSIONS)} sessions over 400 days; ${REUSE ? `reused (${run.database})` : `filled in ${fillS.toFixed(0)} s`}`,
    `- Each read: one warm-up, then ${REQUESTS} requests one after another (5 when the warm-up took over 1 s)`,
    '',
    '| read | status | bytes | requests | p50 ms | p99 ms | p99 < 200 ms |',
    '| --- | --- | ---: | ---: | ---: | ---: | --- |',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
    '',
    `CSV export (\`GET /v1/compliance/export\`): status ${csv.status}, ${int(csv.bytes)} bytes, first byte ${ms(csv.firstByteMs)} ms, ` +
      `whole ${(csv.ms / 1000).toFixed(1)} s; RSS of the server process ${mb(csv.before)} before, ${mb(csv.peak)} at its peak (+${mb(csv.peak - csv.before)}).`,
  ];
}

async function main() {
  const startedAt = new Date();
  const loadBefore = loadAverage();
  say(`# Compliance view at scale (npm run bench:compliance)`);
  say(`Node ${process.version}, ${os.cpus().length} cores, load average ${loadBefore}`);
  const scratch = REUSE ? reused(REUSE) : await createScratchDatabase(SERVER_URL);
  say(`${REUSE ? 'Reused' : 'Scratch'} database ${scratch.name}`);
  const handle = await openDatabase({ databaseUrl: scratch.url });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-bench-compliance-'));
  const lines: string[] = [];
  try {
    await migrate(handle.db);
    const now = new Date();
    const fillStarted = performance.now();
    if (!REUSE) await fill(handle.db, now);
    const fillS = (performance.now() - fillStarted) / 1000;
    const { token, qualificationId } = await readerOf(handle.db, now);
    const app = await buildApp({
      db: handle.db,
      config: testConfig({ dataDir, databaseUrl: scratch.url, signingSecret: 'bench' }),
      backgroundJobs: false,
      logger: false,
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const loadMeasured = loadAverage();
    const bare = await bareBaseline();
    const rows: string[][] = [
      [
        'bare Fastify route (reference)',
        String(bare.status),
        int(bare.bytes),
        String(bare.count),
        ms(bare.p50),
        ms(bare.p99),
        '—',
      ],
    ];
    const { passing, judged } = await measureReads(base, token, { qualificationId, now }, rows);
    const csv = await measureExport(`${base}/v1/compliance/export`, token);
    await app.close();
    lines.push(
      ...reportOf({
        startedAt,
        loadBefore,
        loadMeasured,
        fillS,
        database: scratch.name,
        rows,
        csv,
      }),
      '',
      `Verdict: ${passing} of ${judged} reads p99 < ${TARGET_P99_MS} ms.`,
    );
  } finally {
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (!KEEP && !REUSE) await scratch.drop();
  }
  const report = lines.join('\n');
  say();
  say(report);
  const resultsDir = path.join(import.meta.dirname, 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(
    resultsDir,
    `compliance-${startedAt.toISOString().replace(/[-:]/g, '').slice(0, 15)}.md`,
  );
  fs.writeFileSync(file, `${report}\n`);
  say(`Report written to ${path.relative(path.resolve(import.meta.dirname, '..'), file)}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('benchmark failed to run:', error);
    process.exit(1);
  },
);
