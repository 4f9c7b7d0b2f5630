import {
  AUDIT_ACTOR_TYPES,
  AUDIT_OUTCOMES,
  DELIVERY_STATUSES,
  INTEGRATION_DISABLED_REASONS,
  INTEGRATION_KINDS,
  DEVICE_TYPES,
  EVALUATION_RESULTS,
  MOVEMENT_TYPES,
  ROLES,
  SERVER_ENDED_STATUSES,
  SESSION_STATUSES,
} from '@vrtc/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/platform/database/db.ts';
import { createTestDatabase } from './harness.ts';

/**
 * The contract declares each closed set of values once; the database's CHECK constraints spell them
 * again in SQL. They must not drift apart.
 */
let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

async function allowedBy(table: string, column: string): Promise<string[]> {
  const { rows } = await sql<{ definition: string }>`
    SELECT pg_get_constraintdef(c.oid) AS definition
    FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
    WHERE t.relname = ${table} AND c.contype = 'c'`.execute(database.db);
  const check = rows.find(
    (row) => row.definition.includes(`(${column} =`) || row.definition.includes(`${column} = ANY`),
  );
  expect(check, `${table}.${column} has a CHECK constraint`).toBeDefined();
  return [...check!.definition.matchAll(/'([^']+)'/g)].map((match) => match[1]!);
}

describe('enumerations', () => {
  it('are the same in the contract and in the database', async () => {
    expect(await allowedBy('devices', 'type')).toEqual([...DEVICE_TYPES]);
    expect(await allowedBy('devices', 'movement_type')).toEqual([...MOVEMENT_TYPES]);
    expect(await allowedBy('sessions', 'status')).toEqual([...SESSION_STATUSES]);
    expect(await allowedBy('accounts', 'role')).toEqual([...ROLES]);
    expect(await allowedBy('sessions', 'ended_by_server_as')).toEqual([...SERVER_ENDED_STATUSES]);
    expect(await allowedBy('audit_events', 'actor_type')).toEqual([...AUDIT_ACTOR_TYPES]);
    expect(await allowedBy('audit_events', 'outcome')).toEqual([...AUDIT_OUTCOMES]);
    expect(await allowedBy('integrations', 'kind')).toEqual([...INTEGRATION_KINDS]);
    expect(await allowedBy('integrations', 'disabled_reason')).toEqual([
      ...INTEGRATION_DISABLED_REASONS,
    ]);
    expect(await allowedBy('deliveries', 'status')).toEqual([...DELIVERY_STATUSES]);
    expect(await allowedBy('qualification_evaluations', 'result')).toEqual([...EVALUATION_RESULTS]);
  });
});
