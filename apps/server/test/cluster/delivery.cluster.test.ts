import crypto from 'node:crypto';
import type { IntegrationEvent, IntegrationWithSecret, WebhookPayload } from '@vrtc/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/platform/database/db.ts';
import { grantAccess, makeScenarioTree } from '../factories.ts';
import { verifySignature, webhookReceiver, type WebhookReceiver } from '../receivers.ts';
import { waitFor } from '../wait-for.ts';
import { bearerHeader, call, Cluster, CLUSTER_ADMIN } from './cluster.ts';

/**
 * Results out across the cluster (issue 26): three server processes on one PostgreSQL database
 * behind nginx each run a dispatcher, woken by every commit. A burst of real events made through
 * nginx (headsets enrolled, sessions started and finished by headsets reporting through whichever
 * node nginx picks, headsets removed) reaches a real receiver on 127.0.0.1 exactly once per
 * event, every signature checked with the standardwebhooks package, and more than one node
 * delivers (each node logs a `delivery` line per attempt it made).
 */

const HEADSETS = 12;
const SESSIONS_PER_HEADSET = 3;
const REMOVED = 4;

let cluster: Cluster;
let database: DatabaseHandle;
let receiver: WebhookReceiver;
let levelId: string;
let scenarioId: string;

const through = (path: string) => `${cluster.url}${path}`;
const unique = () => crypto.randomBytes(4).toString('hex');

async function login(email: string, password: string) {
  const answer = await call(through('/v1/auth/login'), { body: { email, password } });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.token as string;
}

beforeAll(async () => {
  const { serverUrl, nginx } = inject('cluster');
  [cluster, receiver] = await Promise.all([
    Cluster.start({
      nodes: 3,
      serverUrl,
      nginx,
      env: { OUTBOUND_ALLOW_PRIVATE: '127.0.0.1', DRAIN_DELAY_MS: '2000' },
    }),
    webhookReceiver(),
  ]);
  database = await openDatabase({ databaseUrl: cluster.databaseUrl });
  const tree = await makeScenarioTree(database.db, { maxTasks: 3 });
  levelId = tree.level.id;
  scenarioId = tree.scenario.id;
});

afterAll(async () => {
  await receiver?.close();
  await database?.close();
  await cluster?.stop();
});

describe('three nodes delivering webhooks', () => {
  it('deliver each event of a burst once, signed, and more than one node delivers', async () => {
    // An organisation with a client account, and its webhook, through nginx.
    const adminToken = await login(CLUSTER_ADMIN.email, CLUSTER_ADMIN.password);
    const organization = await call(through('/v1/admin/organizations'), {
      headers: bearerHeader(adminToken),
      body: { name: `Hooks ${unique()}` },
    });
    expect(organization.status, organization.text).toBe(201);
    const organizationId = organization.body.id as string;
    const email = `hooks-${unique()}@cluster.test`;
    const account = await call(through('/v1/admin/users'), {
      headers: bearerHeader(adminToken),
      body: {
        email,
        password: 'client-password-1',
        role: 'client',
        organization_id: organizationId,
      },
    });
    expect(account.status, account.text).toBe(201);
    const staff = bearerHeader(await login(email, 'client-password-1'));
    await grantAccess(database.db, scenarioId, organizationId, null);
    const created = await call(through('/v1/integrations'), {
      headers: staff,
      body: {
        kind: 'webhook',
        url: `${receiver.url}/cluster-hook`,
        events: ['session.started', 'session.finished', 'device.enrolled', 'device.removed'],
      },
    });
    expect(created.status, created.text).toBe(201);
    const { integration, secret } = created.body as unknown as IntegrationWithSecret;

    // The burst: headsets enrolled, each running sessions one after another, all at once.
    const code = await call(through('/v1/devices/enrollment-code'), {
      method: 'POST',
      headers: staff,
    });
    expect(code.status, code.text).toBe(200);
    const runHeadset = async (n: number) => {
      const enrolled = await call(through('/v1/headset/enroll'), {
        body: { code: code.body.code, name: `Quest ${n}`, type: 'quest' },
      });
      expect(enrolled.status, enrolled.text).toBe(201);
      const deviceId = enrolled.body.device_id as string;
      const headset = bearerHeader(enrolled.body.device_token as string);
      for (let round = 0; round < SESSIONS_PER_HEADSET; round++) {
        // Started once the node asked sees the headset waiting (its last-seen flushed).
        const started = await waitFor(
          async () => {
            await call(through('/v1/headset/heartbeat'), { headers: headset, body: {} });
            const answer = await call(through('/v1/sessions/start'), {
              headers: staff,
              body: { device_id: deviceId, level_id: levelId, vr_user_name: `Trainee ${n}` },
            });
            return answer.status === 201 ? answer : undefined;
          },
          { timeout: 15_000, interval: 100, what: `a session started on Quest ${n}` },
        );
        const finished = await call(
          through(`/v1/headset/sessions/${started.body.id as string}/finish`),
          { headers: headset, body: { completed_tasks: 3, success: round % 2 === 0 } },
        );
        expect(finished.status, finished.text).toBe(200);
      }
      return deviceId;
    };
    const devices = await Promise.all(Array.from({ length: HEADSETS }, (_, n) => runHeadset(n)));
    for (const deviceId of devices.slice(0, REMOVED)) {
      const removed = await call(through(`/v1/devices/${deviceId}`), {
        method: 'DELETE',
        headers: staff,
      });
      expect(removed.status, removed.text).toBe(200);
    }
    const sessions = HEADSETS * SESSIONS_PER_HEADSET;
    const expected: Record<IntegrationEvent, number> = {
      'device.enrolled': HEADSETS,
      'session.started': sessions,
      'session.finished': sessions,
      'device.removed': REMOVED,
      'license.expiring': 0,
      'qualification.earned': 0,
      'qualification.expiring': 0,
      'qualification.expired': 0,
      'qualification.revoked': 0,
    };
    const total = HEADSETS + 2 * sessions + REMOVED;

    // The reports reached every node (round robin): each node committed some of the events.
    const finishRoute = '/v1/headset/sessions/:id/finish';
    for (const node of cluster.nodes) {
      await waitFor(
        () =>
          cluster
            .logsOf(node.index)
            .some((line) => line.msg === 'request' && line.route === finishRoute),
        { timeout: 3000, what: `node ${node.index} to have taken a finish` },
      );
    }

    // Every attempt is logged by the node that made it, once it is recorded.
    const deliveryLines = () =>
      cluster.nodes.flatMap((node) =>
        cluster
          .logsOf(node.index)
          .filter((line) => line.msg === 'delivery' && line.integration_id === integration.id)
          .map((line) => ({
            node: node.index,
            delivery_id: line.delivery_id,
            status: line.status,
            attempt: line.attempt,
          })),
      );
    await waitFor(() => deliveryLines().length >= total, {
      timeout: 20_000,
      what: `${total} deliveries logged`,
    });
    const lines = deliveryLines();
    expect(lines).toHaveLength(total);
    expect(lines.every((line) => line.status === 200 && line.attempt === 1)).toBe(true);
    expect(new Set(lines.map((line) => line.delivery_id)).size).toBe(total);
    const byNode = [0, 1, 2].map((index) => lines.filter((line) => line.node === index).length);
    expect(
      byNode.filter((count) => count > 0).length,
      `deliveries by node: ${byNode}`,
    ).toBeGreaterThan(1);

    // The receiver got every event once, each signature valid.
    const received = receiver.received.filter((request) => request.url === '/cluster-hook');
    const perId = new Map<string, number>();
    for (const request of received) {
      const id = String(request.headers['webhook-id']);
      perId.set(id, (perId.get(id) ?? 0) + 1);
    }
    expect([...perId.values()].filter((count) => count !== 1)).toEqual([]);
    expect(received).toHaveLength(total);
    const types: Record<string, number> = {};
    for (const request of received) {
      const payload = verifySignature(secret!, request) as WebhookPayload;
      types[payload.type] = (types[payload.type] ?? 0) + 1;
    }
    expect(types).toEqual(
      Object.fromEntries(Object.entries(expected).filter(([, count]) => count > 0)),
    );

    // The delivery rows agree: each delivered on its first attempt, one per event.
    const rows = await database.db
      .selectFrom('deliveries')
      .select(['event_id', 'status', 'attempts', 'last_status_code'])
      .where('integration_id', '=', integration.id)
      .execute();
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((row) => row.event_id))).toEqual(new Set(perId.keys()));
    expect(
      rows.filter(
        (row) => row.status !== 'delivered' || row.attempts !== 1 || row.last_status_code !== 200,
      ),
    ).toEqual([]);
  }, 120_000);
});
