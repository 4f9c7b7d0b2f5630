import { HeartbeatResponse, type HeartbeatResponse as Answer } from '@vrtc/contract';
import fastJson from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { serializerCompiler, withNullableForNullUnions } from './serialization.ts';

const compile = (schema: unknown) =>
  serializerCompiler({ schema, method: 'POST', url: '/', httpStatus: '200' }) as (
    value: unknown,
  ) => string;

const idle: Answer = {
  device_id: '0b9c4f3e-9a52-4d8e-a3a4-8b1f6f0e2a11',
  movement_type: 'teleport',
  heartbeat_interval_ms: 5000,
  session: null,
  ended_session: null,
  server_time: '2026-11-29T15:00:00.000Z',
};
const playing: Answer = {
  ...idle,
  session: {
    id: '5d2f0c7e-1b7a-4b0e-9f3c-2f6d7e8a9b10',
    scenario_id: null,
    module_id: '6e3a1d8f-2c8b-4c1f-8a4d-3a7e8f9b0c21',
    level_id: '7f4b2e9a-3d9c-4d2a-9b5e-4b8f9a0c1d32',
    level_revision: 3,
    movement_type: 'slide',
    vr_user_name: 'Иван "Ваня" Петров',
    scenario_name: 'Пожарная безопасность',
    module_name: 'Module 1',
    level_name: 'Level 1',
    level_number: 1,
    max_tasks: 5,
    selected_options: [{ id: '8a5c3f0b-4e0d-4e3b-8c6f-5c9a0b1d2e43', name: 'Night' }],
    started_at: '2026-11-29T14:59:00.000Z',
    completed_tasks: 2,
  },
  ended_session: { id: '9b6d4a1c-5f1e-4f4c-9d7a-6d0b1c2e3f54', status: 'cancelled' },
};

describe('serializerCompiler', () => {
  it('writes a headset answer, idle or in a session, as fast-json-stringify writes the contract schema', () => {
    const ours = compile(HeartbeatResponse);
    const theirs = fastJson(HeartbeatResponse as Parameters<typeof fastJson>[0]);
    for (const answer of [idle, playing, { ...playing, ended_session: null }]) {
      expect(ours(answer)).toBe(theirs(answer));
      expect(JSON.parse(ours(answer))).toEqual(answer);
    }
  });

  it('leaves out what the schema does not name, inside a nullable object too', () => {
    const ours = compile(HeartbeatResponse);
    const extra = {
      ...playing,
      token_hash: 'secret',
      session: { ...playing.session, organization_id: 'not for the headset' },
    };
    expect(JSON.parse(ours(extra))).toEqual(playing);
  });

  it('turns only unions with null into nullable, without touching the schema it was given', () => {
    const status = { anyOf: [{ const: 'a' }, { const: 'b' }] };
    const schema = {
      type: 'object',
      properties: {
        note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        status: { anyOf: [status, { type: 'null' }] },
        list: { type: 'array', items: { anyOf: [{ type: 'integer' }, { type: 'null' }] } },
      },
    };
    const before = JSON.stringify(schema);
    expect(withNullableForNullUnions(schema)).toEqual({
      type: 'object',
      properties: {
        note: { type: 'string', nullable: true },
        // A union of its own stays a union: fast-json-stringify decides it with null among them.
        status: { anyOf: [status, { type: 'null' }] },
        list: { type: 'array', items: { type: 'integer', nullable: true } },
      },
    });
    expect(JSON.stringify(schema)).toBe(before);
    const write = compile(schema);
    expect(write({ note: null, status: null, list: [1, null] })).toBe(
      '{"note":null,"status":null,"list":[1,null]}',
    );
    expect(write({ note: 'x', status: 'b', list: [] })).toBe('{"note":"x","status":"b","list":[]}');
  });
});
