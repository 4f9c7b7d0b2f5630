import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/platform/database/db.ts';
import { migrationVersions } from '../../src/platform/database/migrate.ts';
import { ENROLL_MAX_FAILURES_PER_ADDRESS } from '../../src/headset/enrollment.service.ts';
import { grantAccess, makeScenarioTree } from '../factories.ts';
import { openStream } from '../live-stream.ts';
import { bearerHeader, call, Cluster, CLUSTER_ADMIN, type Answer } from './cluster.ts';

/**
 * Three server processes on one PostgreSQL database behind nginx (deploy/nginx.conf), round robin
 * with no stickiness, as docs/operations.md deploys them. Requests go through nginx unless a step
 * must happen on one node in particular (then straight to that node: start on one, report through
 * another); which node served a request through nginx is read back from the nodes' request logs.
 */

const OFFLINE_AFTER_MS = 6000;
const DISCONNECT_AFTER_MS = 6000;

let cluster: Cluster;
let database: DatabaseHandle;
let adminToken: string;
let levelId: string;
let scenarioId: string;

const through = (path: string) => `${cluster.url}${path}`;
const on = (node: number, path: string) => `${cluster.nodes[node]!.url}${path}`;
const unique = () => crypto.randomBytes(4).toString('hex');

async function login(email: string, password: string, url = through('/v1/auth/login')) {
  const answer = await call(url, { body: { email, password } });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.token as string;
}

/** A new organisation with a client account, signed in, through nginx. */
async function makeTenant() {
  const organization = await call(through('/v1/admin/organizations'), {
    headers: bearerHeader(adminToken),
    body: { name: `Tenant ${unique()}` },
  });
  expect(organization.status, organization.text).toBe(201);
  const email = `client-${unique()}@cluster.test`;
  const account = await call(through('/v1/admin/users'), {
    headers: bearerHeader(adminToken),
    body: {
      email,
      password: 'client-password-1',
      role: 'client',
      organization_id: organization.body.id,
    },
  });
  expect(account.status, account.text).toBe(201);
  const token = await login(email, 'client-password-1');
  return {
    organizationId: organization.body.id as string,
    accountId: account.body.id as string,
    token,
    headers: bearerHeader(token),
  };
}

/** A headset enrolled through nginx with the organisation's code. */
async function enrol(headers: Record<string, string>, name = `Quest ${unique()}`) {
  const code = await call(through('/v1/devices/enrollment-code'), { method: 'POST', headers });
  expect(code.status, code.text).toBe(200);
  const enrolled = await call(through('/v1/headset/enroll'), {
    body: { code: code.body.code, name, type: 'quest' },
  });
  expect(enrolled.status, enrolled.text).toBe(201);
  return {
    id: enrolled.body.device_id as string,
    headers: bearerHeader(enrolled.body.device_token as string),
  };
}

const heartbeat = (url: string, headers: Record<string, string>) =>
  call(url, { method: 'POST', headers, body: {} });

/** Starts a session once the headset shows as waiting to the node asked (its last-seen flushed). */
async function startSession(url: string, headers: Record<string, string>, deviceId: string) {
  let answer: Answer | undefined;
  await expect
    .poll(
      async () => {
        answer = await call(url, {
          headers,
          body: { device_id: deviceId, level_id: levelId, vr_user_name: `Trainee ${unique()}` },
        });
        return answer.status;
      },
      { timeout: 5000, interval: 200 },
    )
    .toBe(201);
  return answer!.body.id as string;
}

beforeAll(async () => {
  const { serverUrl, nginx } = inject('cluster');
  cluster = await Cluster.start({
    nodes: 3,
    serverUrl,
    nginx,
    env: {
      OFFLINE_AFTER_MS: String(OFFLINE_AFTER_MS),
      DISCONNECT_AFTER_MS: String(DISCONNECT_AFTER_MS),
      DRAIN_DELAY_MS: '2000',
    },
  });
  database = await openDatabase({ databaseUrl: cluster.databaseUrl });
  adminToken = await login(CLUSTER_ADMIN.email, CLUSTER_ADMIN.password);
  // Content and its licence are the admin's to make (tested elsewhere); what is tested here is
  // what runs on them. The admin's own organisation (the only one yet) may run the scenario.
  const tree = await makeScenarioTree(database.db, { maxTasks: 3 });
  levelId = tree.level.id;
  scenarioId = tree.scenario.id;
  const [organization] = await database.db.selectFrom('organizations').select('id').execute();
  await grantAccess(database.db, scenarioId, organization!.id, null);
});

afterAll(async () => {
  await database?.close();
  await cluster?.stop();
});

describe('three nodes behind nginx', () => {
  it('all start at once on an empty database: migrations and the first admin happen once', async () => {
    const { rows } = await sql<{ version: string }>`
      SELECT version FROM schema_migrations ORDER BY version`.execute(database.db);
    expect(rows.map((row) => row.version)).toEqual(migrationVersions());
    const admins = await database.db.selectFrom('accounts').select('email').execute();
    expect(admins).toEqual([{ email: CLUSTER_ADMIN.email }]);
    for (const node of cluster.nodes) {
      const ready = await call(`${node.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(ready.body.checks).toMatchObject({
        database: 'ok',
        device_notifications: 'listening',
      });
    }
  });

  it('spreads requests over every node (round robin) and keeps the request id end to end', async () => {
    const ids = Array.from({ length: 9 }, () => crypto.randomBytes(16).toString('hex'));
    for (const id of ids) {
      const answer = await call(through('/v1/me'), {
        headers: { ...bearerHeader(adminToken), 'x-request-id': id },
      });
      expect(answer.status).toBe(200);
      expect(answer.headers['x-request-id']).toBe(id);
    }
    const served = await Promise.all(ids.map((id) => cluster.servedByEventually(id)));
    expect(new Set(served)).toEqual(new Set([0, 1, 2]));

    // Without one, nginx makes the id; the node logs that same id.
    const answer = await call(through('/v1/me'), { headers: bearerHeader(adminToken) });
    const generated = answer.headers['x-request-id'] as string;
    expect(generated).toMatch(/^[0-9a-f]{32}$/);
    expect(await cluster.servedByEventually(generated)).toBeDefined();
    // nginx's own access log names the same request (written once the answer is out).
    await expect.poll(() => cluster.nginx.accessLog()).toContain(`"request_id":"${generated}"`);
  });

  it('signs in and keeps tenants apart whichever node answers', async () => {
    const a = await makeTenant();
    const b = await makeTenant();
    const created = await call(through('/v1/vr-users'), {
      headers: a.headers,
      body: { name: 'Only in A' },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    for (let i = 0; i < 6; i++) {
      const path = `/v1/vr-users/${id}/sessions`;
      expect((await call(through(path), { headers: b.headers })).status).toBe(404);
      expect((await call(through(path), { headers: a.headers })).status).toBe(200);
    }
    const listed = await call(through('/v1/vr-users'), { headers: b.headers });
    expect(listed.body.vr_users).toEqual([]);
    // Signing out on one node ends the token on all of them.
    const logout = await call(through('/v1/auth/logout'), { method: 'POST', headers: a.headers });
    expect(logout.status).toBe(200);
    for (const node of [0, 1, 2]) {
      expect((await call(on(node, '/v1/me'), { headers: a.headers })).status).toBe(401);
    }
  });

  it('starts a session on one node, reports it through the others, and every node’s cache follows', async () => {
    const staff = { headers: bearerHeader(adminToken) };
    const headset = await enrol(staff.headers);
    // Each node caches the headset with no session.
    for (const node of [0, 1, 2]) {
      const beat = await heartbeat(on(node, '/v1/headset/heartbeat'), headset.headers);
      expect(beat.status).toBe(200);
      expect(beat.body.session).toBeNull();
    }
    const sessionId = await startSession(on(0, '/v1/sessions/start'), staff.headers, headset.id);

    // Nodes 1 and 2 hear of it (NOTIFY at commit) and answer the session from then on.
    for (const node of [1, 2]) {
      await expect
        .poll(async () => {
          const beat = await heartbeat(on(node, '/v1/headset/heartbeat'), headset.headers);
          return (beat.body.session as { id?: string } | null)?.id;
        })
        .toBe(sessionId);
    }
    const progress = await call(on(1, `/v1/headset/sessions/${sessionId}/progress`), {
      headers: headset.headers,
      body: { completed_tasks: 2 },
    });
    expect(progress.status, progress.text).toBe(200);
    const active = await call(on(2, '/v1/sessions/active'), { headers: staff.headers });
    expect(active.body.active_sessions).toEqual([
      expect.objectContaining({ id: sessionId, completed_tasks: 2 }),
    ]);
    const finish = await call(on(2, `/v1/headset/sessions/${sessionId}/finish`), {
      headers: headset.headers,
      body: { completed_tasks: 3, success: true },
    });
    expect(finish.status, finish.text).toBe(200);
    expect(finish.body.status).toBe('completed');
    // Node 0 cached the session when it started it; it hears that it ended.
    await expect
      .poll(
        async () => (await heartbeat(on(0, '/v1/headset/heartbeat'), headset.headers)).body.session,
      )
      .toBeNull();
    // A second finish, on any node, is refused: the session ended once.
    const again = await call(on(0, `/v1/headset/sessions/${sessionId}/finish`), {
      headers: headset.headers,
      body: { completed_tasks: 3, success: true },
    });
    expect(again.status).toBe(409);

    // A movement type changed through nginx reaches every node's answer.
    const moved = await call(through(`/v1/devices/${headset.id}/movement-type`), {
      method: 'PUT',
      headers: staff.headers,
      body: { movement_type: 'teleport' },
    });
    expect(moved.status, moved.text).toBe(200);
    for (const node of [0, 1, 2]) {
      await expect
        .poll(
          async () =>
            (await heartbeat(on(node, '/v1/headset/heartbeat'), headset.headers)).body
              .movement_type,
        )
        .toBe('teleport');
    }
  });

  it('wakes a push call held through nginx on one node with a start and a cancel made on another', async () => {
    const staff = { headers: bearerHeader(adminToken) };
    const headset = await enrol(staff.headers);
    expect((await heartbeat(through('/v1/headset/heartbeat'), headset.headers)).status).toBe(200);
    const waiting = async () =>
      Promise.all(
        cluster.nodes.map(
          async (node) => (await cluster.metrics(node.index)).get('vrtc_headset_push_waiting') ?? 0,
        ),
      );
    /** Opens a push call through nginx; resolves once a node holds it, with that node. */
    const hold = async (session?: string) => {
      const before = await waiting();
      const query = `wait=25${session ? `&session=${session}` : ''}`;
      const sentAt = Date.now();
      const answer = call(through(`/v1/headset/events?${query}`), { headers: headset.headers })
        // The headset's only way to hear anything here: it sends no heartbeat meanwhile.
        .then((response) => ({ ...response, heldMs: Date.now() - sentAt }));
      let node = -1;
      await expect
        .poll(async () => (node = (await waiting()).findIndex((held, i) => held > before[i]!)), {
          timeout: 10_000,
          interval: 100,
        })
        .toBeGreaterThanOrEqual(0);
      return { node, answer };
    };
    const other = (node: number) => (node + 1) % cluster.nodes.length;

    const waitingForStart = await hold();
    const sessionId = await startSession(
      on(other(waitingForStart.node), '/v1/sessions/start'),
      staff.headers,
      headset.id,
    );
    const started = await waitingForStart.answer;
    expect(started.status, started.text).toBe(200);
    expect((started.body.session as { id: string }).id).toBe(sessionId);
    // Answered by the start, not by `wait` running out (nor by buffering in nginx).
    expect(started.heldMs).toBeLessThan(25_000);

    const waitingForEnd = await hold(sessionId);
    const cancel = await call(on(other(waitingForEnd.node), `/v1/sessions/${sessionId}/cancel`), {
      method: 'POST',
      headers: staff.headers,
    });
    expect(cancel.status, cancel.text).toBe(200);
    const ended = await waitingForEnd.answer;
    expect(ended.status, ended.text).toBe(200);
    expect(ended.body.session).toBeNull();
    expect(ended.body.ended_session).toEqual({ id: sessionId, status: 'cancelled' });
    expect(ended.heldMs).toBeLessThan(25_000);
  });

  it('answers a retried report with its first answer, whichever node the retry lands on', async () => {
    const staff = { headers: bearerHeader(adminToken) };
    const headset = await enrol(staff.headers);
    await heartbeat(on(0, '/v1/headset/heartbeat'), headset.headers);
    const sessionId = await startSession(on(0, '/v1/sessions/start'), staff.headers, headset.id);
    const keyed = (key: string) => ({ ...headset.headers, 'Idempotency-Key': key });
    const progress = `/v1/headset/sessions/${sessionId}/progress`;
    const finish = `/v1/headset/sessions/${sessionId}/finish`;

    // One progress sent to two nodes at once (a retry racing the first try): one node applies it,
    // the other answers what that one stored.
    const progressKey = crypto.randomUUID();
    const copies = await Promise.all(
      [1, 2].map((node) =>
        call(on(node, progress), {
          headers: keyed(progressKey),
          body: { completed_tasks: 1, seq: 1 },
        }),
      ),
    );
    expect(copies.map((copy) => copy.status)).toEqual([200, 200]);
    expect(copies[1]!.body).toEqual(copies[0]!.body);

    // The finish's answer is lost on its way back; the headset retries, through other nodes.
    const finishKey = crypto.randomUUID();
    const result = { completed_tasks: 3, success: true };
    const first = await call(on(1, finish), { headers: keyed(finishKey), body: result });
    expect(first.status, first.text).toBe(200);
    for (const node of [0, 2]) {
      const retry = await call(on(node, finish), { headers: keyed(finishKey), body: result });
      expect(retry.status, retry.text).toBe(200);
      expect(retry.body).toEqual(first.body);
    }
    // The key with another result is refused on every node.
    const reused = await call(through(finish), {
      headers: keyed(finishKey),
      body: { completed_tasks: 2, success: false },
    });
    expect(reused.status).toBe(422);
    expect(reused.body.error).toBe('idempotency_key_reused');
    const stored = await database.db
      .selectFrom('sessions')
      .select(['status', 'completed_tasks', 'success'])
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ status: 'completed', completed_tasks: 3, success: true });
  });

  it('shuts out a deactivated organisation’s headsets on every node at once, and lets them back', async () => {
    const tenant = await makeTenant();
    const headset = await enrol(tenant.headers);
    for (const node of [0, 1, 2]) {
      expect((await heartbeat(on(node, '/v1/headset/heartbeat'), headset.headers)).status).toBe(
        200,
      );
    }
    const setActive = (active: boolean) =>
      call(through(`/v1/admin/organizations/${tenant.organizationId}`), {
        method: 'PUT',
        headers: bearerHeader(adminToken),
        body: { active },
      });
    expect((await setActive(false)).status).toBe(200);
    for (const node of [0, 1, 2]) {
      await expect
        .poll(
          async () => (await heartbeat(on(node, '/v1/headset/heartbeat'), headset.headers)).status,
        )
        .toBe(401);
    }
    expect((await setActive(true)).status).toBe(200);
    for (const node of [0, 1, 2]) {
      await expect
        .poll(
          async () => (await heartbeat(on(node, '/v1/headset/heartbeat'), headset.headers)).status,
        )
        .toBe(200);
    }
  });

  it('ends a live stream held by one node when the password is reset through another', async () => {
    const tenant = await makeTenant();
    // Straight to node 1, as a console whose stream nginx sent there.
    const stream = await openStream(cluster.nodes[1]!.url, tenant.headers);
    const resetAt = Date.now();
    const reset = await call(on(0, `/v1/admin/users/${tenant.accountId}/password`), {
      headers: bearerHeader(adminToken),
      body: { new_password: 'client-password-2' },
    });
    expect(reset.status, reset.text).toBe(200);
    await stream.ended;
    expect(Date.now() - resetAt).toBeLessThan(2000);
    for (const node of [0, 1, 2]) {
      expect((await call(on(node, '/v1/events'), { headers: tenant.headers })).status).toBe(401);
    }
  });

  it('ends a live stream held by one node when the directory deactivates the person by SCIM through another', async () => {
    const tenant = await makeTenant();
    const issued = await call(
      on(1, `/v1/admin/organizations/${tenant.organizationId}/scim-token`),
      {
        headers: bearerHeader(adminToken),
        body: { name: 'Entra ID' },
      },
    );
    expect(issued.status, issued.text).toBe(201);
    const stream = await openStream(cluster.nodes[1]!.url, tenant.headers);
    const disabledAt = Date.now();
    // As Entra ID sends it, straight to node 0.
    const disabled = await call(on(0, `/scim/v2/Users/${tenant.accountId}`), {
      method: 'PATCH',
      headers: {
        ...bearerHeader(issued.body.token as string),
        'content-type': 'application/scim+json',
      },
      body: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
      },
    });
    expect(disabled.status, disabled.text).toBe(200);
    await stream.ended;
    expect(Date.now() - disabledAt).toBeLessThan(2000);
    for (const node of [0, 1, 2]) {
      expect((await call(on(node, '/v1/events'), { headers: tenant.headers })).status).toBe(401);
    }
  });

  it('shares the enrolment code and the limits between nodes, keyed on the client nginx saw', async () => {
    const tenant = await makeTenant();
    const codes = await Promise.all(
      [0, 1, 2].map((node) =>
        call(on(node, '/v1/devices/enrollment-code'), { method: 'POST', headers: tenant.headers }),
      ),
    );
    const code = codes[0]!.body.code as string;
    expect(codes.map((answer) => answer.body.code)).toEqual([code, code, code]);
    const renewed = await call(through('/v1/devices/enrollment-code/renew'), {
      method: 'POST',
      headers: tenant.headers,
    });
    expect(renewed.status).toBe(200);
    for (const node of [0, 1, 2]) {
      const old = await call(on(node, '/v1/headset/enroll'), {
        body: { code, name: 'Late', type: 'pico' },
      });
      expect(old.status).toBe(400);
      expect(old.body.error).toBe('enrollment_code_invalid');
    }

    // ENROLL_MAX_FAILURES_PER_ADDRESS wrong codes per client address in 15 minutes, counted by
    // every node together: of a burst, exactly that many are judged. Through nginx the nodes see
    // 127.0.0.1 (nginx) connect; TRUST_PROXY lets them read the client from X-Forwarded-For,
    // which nginx appends to (a forged value in front is ignored).
    const guess = (from: string, headers: Record<string, string> = {}) =>
      call(through('/v1/headset/enroll'), {
        from,
        headers,
        body: { code: 'ZZZZZZZZ', name: 'Guess', type: 'pico' },
      });
    const statuses: number[] = [];
    for (let sent = 0; sent <= ENROLL_MAX_FAILURES_PER_ADDRESS; sent += 50) {
      const batch = Math.min(50, ENROLL_MAX_FAILURES_PER_ADDRESS + 1 - sent);
      const answers = await Promise.all(Array.from({ length: batch }, () => guess('127.0.0.3')));
      statuses.push(...answers.map((answer) => answer.status));
    }
    expect(statuses.filter((status) => status === 400)).toHaveLength(
      ENROLL_MAX_FAILURES_PER_ADDRESS,
    );
    expect(statuses.filter((status) => status === 429)).toHaveLength(1);
    const forged = await guess('127.0.0.3', { 'x-forwarded-for': '203.0.113.9' });
    expect(forged.status).toBe(429);
    expect(Number(forged.headers['retry-after'])).toBeGreaterThan(0);
    expect((await guess('127.0.0.4')).status).toBe(400);
    // The nodes logged the client's address, not nginx's (once the last line is written).
    const enrolments = () =>
      [0, 1, 2]
        .flatMap((node) => cluster.logsOf(node))
        .filter((line) => line.msg === 'request' && line.path === '/v1/headset/enroll');
    await expect
      .poll(() => new Set(enrolments().map((line) => line.ip)))
      .toEqual(new Set(['127.0.0.1', '127.0.0.3', '127.0.0.4']));
    const logged = enrolments();
    // Spread over the nodes, and refused on whichever one answered.
    const servedFrom3 = logged.filter((line) => line.ip === '127.0.0.3');
    expect(new Set(servedFrom3.map((line) => line.hostname + String(line.pid))).size).toBe(3);

    // Five failed sign-ins per address and account, whichever node each lands on; the account
    // stays open from another address.
    const email = `victim-${unique()}@cluster.test`;
    await call(through('/v1/admin/users'), {
      headers: bearerHeader(adminToken),
      body: {
        email,
        password: 'right-password-1',
        role: 'client',
        organization_id: tenant.organizationId,
      },
    });
    const attempts = [];
    for (let i = 0; i < 5; i++) {
      attempts.push(
        (
          await call(through('/v1/auth/login'), {
            from: '127.0.0.5',
            body: { email, password: `wrong-${i}` },
          })
        ).status,
      );
    }
    expect(attempts).toEqual([401, 401, 401, 401, 401]);
    const locked = await call(through('/v1/auth/login'), {
      from: '127.0.0.5',
      body: { email, password: 'right-password-1' },
    });
    expect(locked.status).toBe(429);
    const elsewhere = await call(through('/v1/auth/login'), {
      from: '127.0.0.6',
      body: { email, password: 'right-password-1' },
    });
    expect(elsewhere.status).toBe(200);
  });

  it('ends each silent session exactly once, whichever node’s sweeper gets there', async () => {
    const tenant = await makeTenant();
    await grantAccess(database.db, scenarioId, tenant.organizationId, null);
    // Nothing else is running, so every session the sweepers end below is one of these.
    const { rows: running } = await sql<{ count: number }>`
      SELECT count(*)::int AS count FROM sessions WHERE status = 'active'`.execute(database.db);
    expect(running[0]!.count).toBe(0);
    const count = 12;
    const headsets = [];
    for (let i = 0; i < count; i++) headsets.push(await enrol(tenant.headers));
    await Promise.all(headsets.map((h) => heartbeat(through('/v1/headset/heartbeat'), h.headers)));
    const endedBefore = await cluster.metricSum(
      'vrtc_sweeper_sessions_ended_total{reason="disconnected"}',
    );
    const sessions = await Promise.all(
      headsets.map((h) => startSession(through('/v1/sessions/start'), tenant.headers, h.id)),
    );
    // The headsets fall silent; DISCONNECT_AFTER_MS later each session is swept.
    await expect
      .poll(
        async () => {
          const { rows } = await sql<{ count: number }>`
            SELECT count(*)::int AS count FROM sessions
            WHERE id = ANY(${sessions}::uuid[]) AND status = 'disconnected'`.execute(database.db);
          return rows[0]!.count;
        },
        { timeout: DISCONNECT_AFTER_MS + 15_000, interval: 500 },
      )
      .toBe(count);
    // Once each: the sweepers of all nodes together ended exactly these sessions, even after
    // every node has swept twice more (a whole sweep begun after the last one ended) …
    const sweepsOf = async (node: number) => {
      const metrics = await cluster.metrics(node);
      return (
        (metrics.get('vrtc_sweeper_runs_total{outcome="swept"}') ?? 0) +
        (metrics.get('vrtc_sweeper_runs_total{outcome="skipped"}') ?? 0)
      );
    };
    const sweepsBefore = await Promise.all([0, 1, 2].map(sweepsOf));
    await expect
      .poll(
        async () => {
          const sweeps = await Promise.all([0, 1, 2].map(sweepsOf));
          return sweeps.every((runs, node) => runs >= sweepsBefore[node]! + 2);
        },
        { timeout: 15_000, interval: 200 },
      )
      .toBe(true);
    const endedAfter = await cluster.metricSum(
      'vrtc_sweeper_sessions_ended_total{reason="disconnected"}',
    );
    expect(endedAfter - endedBefore).toBe(count);
    // … and the statistics count each once.
    const { rows } = await sql<{ disconnected: number }>`
      SELECT coalesce(sum(disconnected), 0)::int AS disconnected FROM session_daily
      WHERE organization_id = ${tenant.organizationId}`.execute(database.db);
    expect(rows[0]!.disconnected).toBe(count);
    // Several nodes tried; the lock let one at a time look.
    const runs = await Promise.all(
      [0, 1, 2].map(
        async (node) =>
          (await cluster.metrics(node)).get('vrtc_sweeper_runs_total{outcome="swept"}') ?? 0,
      ),
    );
    expect(runs.filter((swept) => swept > 0).length).toBeGreaterThanOrEqual(2);
  });
});

describe('a node failing or leaving', () => {
  /** Waits until the load has had `count` writes acknowledged (the writes go on meanwhile). */
  async function acknowledgedAtLeast(load: { acknowledged: string[] }, count: number) {
    await expect
      .poll(() => load.acknowledged.length, { timeout: 30_000, interval: 50 })
      .toBeGreaterThanOrEqual(count);
  }

  /** Writes through nginx from `workers` loops until stopped; what was acknowledged, what failed. */
  function writeLoad(
    tenant: { headers: Record<string, string> },
    headsetHeaders: Record<string, string>[],
    workers = 3,
  ) {
    const acknowledged: string[] = [];
    const failures: Array<Answer & { request: string }> = [];
    /** The names of the VR users whose creation failed: none may exist afterwards. */
    const refusedNames: string[] = [];
    let heartbeats = 0;
    let running = true;
    const loops = Array.from({ length: workers }, async (_, worker) => {
      for (let i = 0; running; i++) {
        const name = `Load ${worker}-${i}-${unique()}`;
        const write = await call(through('/v1/vr-users'), {
          headers: tenant.headers,
          body: { name },
        });
        if (write.status === 201) acknowledged.push(write.body.id as string);
        else {
          failures.push({ ...write, request: 'POST /v1/vr-users' });
          refusedNames.push(name);
        }
        const beat = await heartbeat(
          through('/v1/headset/heartbeat'),
          headsetHeaders[worker % headsetHeaders.length]!,
        );
        heartbeats += 1;
        if (beat.status !== 200) failures.push({ ...beat, request: 'POST /v1/headset/heartbeat' });
        const read = await call(through('/v1/vr-users?limit=5'), { headers: tenant.headers });
        if (read.status !== 200) failures.push({ ...read, request: 'GET /v1/vr-users' });
      }
    });
    return {
      acknowledged,
      failures,
      refusedNames,
      get heartbeats() {
        return heartbeats;
      },
      async stop() {
        running = false;
        await Promise.all(loops);
      },
    };
  }

  async function stored(ids: string[]): Promise<number> {
    const { rows } = await sql<{ count: number }>`
      SELECT count(*)::int AS count FROM vr_users WHERE id = ANY(${ids}::uuid[])`.execute(
      database.db,
    );
    return rows[0]!.count;
  }

  it('loses no acknowledged write when a node is killed mid-run, and takes it back when it returns', async () => {
    const tenant = await makeTenant();
    const headsets = [await enrol(tenant.headers), await enrol(tenant.headers)];
    const load = writeLoad(
      tenant,
      headsets.map((h) => h.headers),
    );
    try {
      // Killed mid-run: once writes are flowing, and the load goes on until the other nodes
      // have acknowledged as many again.
      await acknowledgedAtLeast(load, 10);
      expect(await cluster.stopNode(1, 'SIGKILL')).toBeNull();
      await acknowledgedAtLeast(load, load.acknowledged.length + 15);
    } finally {
      await load.stop();
    }
    const failed = load.failures.map((f) => `${f.request} → ${f.status} ${f.text}`);

    expect(load.acknowledged.length).toBeGreaterThan(20);
    expect(await stored(load.acknowledged)).toBe(load.acknowledged.length);
    // At most the writes in flight on the killed node failed (one per writer): nginx resends
    // reads and heartbeats to another node, never a write that may have been carried out. They
    // failed in the API's shape (nginx's error page), never as a 500.
    expect(failed.length, failed.join('\n')).toBeLessThanOrEqual(3);
    expect(
      load.failures.filter(
        (f) =>
          f.request !== 'POST /v1/vr-users' ||
          f.status !== 503 ||
          f.body.error !== 'service_unavailable',
      ),
      failed.join('\n'),
    ).toEqual([]);

    await cluster.restartNode(1);
    // nginx skips a failed node for fail_timeout (5 s), then tries it again.
    await expect
      .poll(
        async () => {
          const requestId = crypto.randomBytes(16).toString('hex');
          await call(through('/v1/me'), {
            headers: { ...bearerHeader(adminToken), 'x-request-id': requestId },
          });
          return cluster.servedByEventually(requestId);
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBe(1);
  });

  it('drains a node on SIGTERM through nginx: no read or heartbeat fails, no write is lost or half-done', async () => {
    await cluster.ensureAllRunning();
    const tenant = await makeTenant();
    const headsets = [await enrol(tenant.headers), await enrol(tenant.headers)];
    const load = writeLoad(
      tenant,
      headsets.map((h) => h.headers),
    );
    const node = cluster.nodes[2]!;
    // What the node's /readyz says, every 50 ms, until it stops answering.
    const readiness: number[] = [];
    let watching = true;
    const watch = (async () => {
      while (watching) {
        readiness.push((await call(`${node.url}/readyz`)).status);
        // Pacing: a sample of /readyz every 50 ms, as a load balancer's probe (not a wait).
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    try {
      await acknowledgedAtLeast(load, 10);
      node.process.child.kill('SIGTERM');
      expect(await node.process.exited).toBe(0);
      await acknowledgedAtLeast(load, load.acknowledged.length + 10);
    } finally {
      watching = false;
      await watch;
      await load.stop();
    }

    // Ready, then draining (503) while it still answered, then gone (no connection).
    const states = readiness.filter((status, i) => status !== readiness[i - 1]);
    expect(states).toEqual([200, 503, 0]);
    // Reads and heartbeats never fail: nginx resends them. A POST that meets the very instant
    // the node stops listening (a connection it had accepted but not yet read, reset as the
    // process closes) is answered 503 by nginx and not resent, as it might have arrived: at most
    // one per writer, and never carried out, so the client's retry is safe (docs/operations.md).
    const unexpected = load.failures.filter(
      (f) => !(f.request === 'POST /v1/vr-users' && f.status === 503),
    );
    expect(unexpected.map((f) => `${f.request} → ${f.status} ${f.text}`)).toEqual([]);
    expect(load.refusedNames.length).toBeLessThanOrEqual(3);
    const { rows: applied } = await sql<{ name: string }>`
      SELECT name FROM vr_users WHERE name = ANY(${load.refusedNames}::text[])`.execute(
      database.db,
    );
    expect(applied).toEqual([]);
    expect(await stored(load.acknowledged)).toBe(load.acknowledged.length);
    await cluster.ensureAllRunning();
    expect((await call(`${cluster.nodes[2]!.url}/readyz`)).status).toBe(200);
  });
});
