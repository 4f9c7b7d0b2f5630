import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { routes, type RouteDefinition, type SessionLaunch } from '@vrtc/contract';
import { Value } from 'typebox/value';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SimulatedHeadset, seededRandom, type HeadsetEvent } from '../src/index.ts';

/**
 * The simulator against a stand-in server that checks every request it gets, and answers every
 * response, against the contract's route map: what the simulator sends is what the server takes.
 */

const SESSION_ID = '00000000-0000-4000-8000-0000000000a1';
const DEVICE_ID = '00000000-0000-4000-8000-0000000000d1';

interface Received {
  route: string;
  body: unknown;
}

function fakeServer(session: SessionLaunch) {
  const received: Received[] = [];
  const problems: string[] = [];
  let ended = false;
  const headsetRoutes = [
    routes.enroll,
    routes.heartbeat,
    routes.reportProgress,
    routes.finishSession,
  ] as const;
  const match = (method: string, url: string) =>
    headsetRoutes.find(
      (route) =>
        route.method === method &&
        new RegExp(`^${route.path.replace(/:\w+/g, '[^/]+')}$`).test(url),
    );
  const check = (route: RouteDefinition, what: string, schema: unknown, value: unknown) => {
    if (schema && !Value.Check(schema as Parameters<typeof Value.Check>[0], value)) {
      problems.push(`${route.path} ${what}: ${JSON.stringify(value)}`);
    }
  };
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk));
    request.on('end', () => {
      const route = match(request.method ?? '', request.url ?? '');
      if (!route) {
        response.writeHead(404).end();
        return;
      }
      const body = text ? JSON.parse(text) : undefined;
      received.push({ route: route.path, body });
      check(route, 'request body', route.body, body);
      let answer: unknown;
      const status: number = route.success.status;
      if (route === routes.enroll) answer = { device_id: DEVICE_ID, device_token: 'token-1' };
      else if (route === routes.heartbeat) {
        answer = {
          device_id: DEVICE_ID,
          movement_type: 'slide',
          heartbeat_interval_ms: 50,
          session: ended ? null : session,
        };
      } else {
        const { completed_tasks } = body as { completed_tasks: number };
        if (route === routes.finishSession) ended = true;
        answer = {
          id: SESSION_ID,
          status: route === routes.finishSession ? 'completed' : 'active',
          completed_tasks,
          max_tasks: session.max_tasks,
        };
      }
      if ('body' in route.success) check(route, 'response', route.success.body, answer);
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer));
    });
  });
  return { server, received, problems };
}

const launch: SessionLaunch = {
  id: SESSION_ID,
  vr_user_name: 'Анна',
  scenario_name: 'Пожарная безопасность',
  module_name: 'Эвакуация',
  level_name: 'Уровень 1',
  level_number: 1,
  max_tasks: 3,
  selected_options: [],
  started_at: '2026-11-22T10:00:00.000Z',
  completed_tasks: 0,
};

const running: SimulatedHeadset[] = [];
const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((headset) => headset.stop()));
  for (const server of servers.splice(0)) server.close();
});

async function play(successRate: number) {
  const fake = fakeServer(launch);
  servers.push(fake.server);
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  const port = (fake.server.address() as AddressInfo).port;
  const events: HeadsetEvent[] = [];
  const headset = new SimulatedHeadset({
    server: `http://127.0.0.1:${port}`,
    name: 'Quest-1',
    code: 'ABCD2345',
    paceMs: 10,
    successRate,
    random: seededRandom(7),
  });
  running.push(headset);
  headset.on('event', (event) => events.push(event));
  await headset.start();
  await vi.waitFor(() => expect(events.map((e) => e.type)).toContain('finished'), {
    timeout: 10_000,
  });
  return { ...fake, events };
}

describe('the simulated headset', () => {
  it('enrols, plays a session task by task and finishes, speaking the contract', async () => {
    const { received, problems, events } = await play(1);
    expect(problems).toEqual([]);
    const progress = received.filter((r) => r.route === routes.reportProgress.path);
    expect(progress.map((r) => r.body)).toEqual(
      [1, 2, 3].map((number) =>
        expect.objectContaining({
          completed_tasks: number,
          task: expect.objectContaining({ number, key: `task-${number}`, result: 'passed' }),
        }),
      ),
    );
    // No task name in one language (a Russian console would read "Задание 1: Task 1").
    for (const r of progress) expect(r.body).not.toHaveProperty('task.name');
    const finish = received.find((r) => r.route === routes.finishSession.path);
    expect(finish?.body).toMatchObject({
      completed_tasks: 3,
      success: true,
      tasks: [{ number: 1 }, { number: 2 }, { number: 3 }],
    });
    expect(events.find((e) => e.type === 'finished')?.line).toBe('[Quest-1] finished: success');
  });

  it('reports the failed task of an unsuccessful run', async () => {
    const { received, problems } = await play(0);
    expect(problems).toEqual([]);
    const finish = received.find((r) => r.route === routes.finishSession.path)?.body as {
      success: boolean;
      tasks: Array<{ result: string }>;
    };
    expect(finish.success).toBe(false);
    expect(finish.tasks.at(-1)?.result).toBe('failed');
  });
});
