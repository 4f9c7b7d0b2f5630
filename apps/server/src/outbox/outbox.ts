import crypto from 'node:crypto';
import type {
  IntegrationEvent,
  IntegrationEventData,
  SessionFinishedData,
  SessionStartedData,
} from '@vrtc/contract';
import { sql } from 'kysely';
import type { Tx } from '../platform/database/db.ts';
import type { Session } from '../platform/database/schema.ts';

/**
 * The outbox of results out (docs/integrations.md, decision 026), a sink: any domain tells it what
 * happened, in the transaction of the change (`recordOutbox(trx, …)`), beside its audit event. A
 * rolled-back change leaves no event, so nothing is sent of a change that did not happen; a
 * committed one is delivered by the integrations' dispatcher, even after a restart. It calls no
 * domain.
 *
 * The event is kept only when an enabled integration of its organisation receives its type; it is
 * fanned out into one delivery per such integration in the same statement, and a NOTIFY on
 * OUTBOX_CHANNEL (delivered at commit, to every process) wakes the dispatchers at once.
 */
export const OUTBOX_CHANNEL = 'vrtc_outbox';

export interface OutboxRecord<T extends IntegrationEvent> {
  organizationId: string;
  type: T;
  /** When it happened: the service's clock (decision 017). */
  at: Date;
  data: IntegrationEventData[T];
}

/** Writes the event and its deliveries in `trx`; answers how many integrations will receive it. */
export async function recordOutbox<T extends IntegrationEvent>(
  trx: Tx,
  record: OutboxRecord<T>,
): Promise<number> {
  const id = crypto.randomUUID();
  const payload = JSON.stringify({
    type: record.type,
    timestamp: record.at.toISOString(),
    data: record.data,
  });
  const { rows } = await sql<{ deliveries: string }>`
    WITH targets AS (
      SELECT id FROM integrations
      WHERE organization_id = ${record.organizationId} AND enabled
        AND ${record.type}::text = ANY (events)
    ), event AS (
      INSERT INTO outbox_events (id, organization_id, type, payload, created_at)
      SELECT ${id}, ${record.organizationId}, ${record.type}, ${payload}::jsonb, ${record.at}
      WHERE EXISTS (SELECT 1 FROM targets)
      RETURNING id
    ), delivered AS (
      INSERT INTO deliveries (integration_id, event_id, event_type, next_attempt_at, created_at)
      SELECT targets.id, event.id, ${record.type}, ${record.at}, ${record.at}
      FROM targets CROSS JOIN event
      RETURNING 1
    )
    SELECT count(*)::text AS deliveries FROM delivered`.execute(trx);
  const deliveries = Number(rows[0]?.deliveries ?? 0);
  if (deliveries > 0) await sql`SELECT pg_notify(${OUTBOX_CHANNEL}, '')`.execute(trx);
  return deliveries;
}

type SessionRow = Pick<
  Session,
  | 'id'
  | 'organization_id'
  | 'vr_user_id'
  | 'vr_user_name'
  | 'device_id'
  | 'device_name'
  | 'device_type'
  | 'scenario_id'
  | 'scenario_name'
  | 'scenario_name_en'
  | 'module_id'
  | 'module_name'
  | 'module_name_en'
  | 'level_id'
  | 'level_name'
  | 'level_name_en'
  | 'level_number'
  | 'level_revision'
  | 'max_tasks'
  | 'started_at'
>;

const iso = (value: Date | string) => new Date(value).toISOString();

/** session.started's data, from the session's row (which keeps the names it ran with). */
export function sessionStartedData(session: SessionRow): SessionStartedData {
  return {
    session_id: session.id,
    organization_id: session.organization_id,
    vr_user: { id: session.vr_user_id, name: session.vr_user_name },
    device: { id: session.device_id, name: session.device_name, type: session.device_type },
    scenario: {
      id: session.scenario_id,
      name: session.scenario_name,
      name_en: session.scenario_name_en,
    },
    module: { id: session.module_id, name: session.module_name, name_en: session.module_name_en },
    level: {
      id: session.level_id,
      name: session.level_name,
      name_en: session.level_name_en,
      number: session.level_number,
      revision: session.level_revision,
    },
    max_tasks: session.max_tasks,
    started_at: iso(session.started_at),
  };
}

/** session.finished's data, from the ended session's row. */
export function sessionFinishedData(
  session: SessionRow &
    Pick<
      Session,
      | 'status'
      | 'success'
      | 'completed_tasks'
      | 'ended_at'
      | 'duration_seconds'
      | 'late_result'
      | 'ended_by_server_as'
    >,
): SessionFinishedData {
  const endedAt = session.ended_at ?? session.started_at;
  return {
    ...sessionStartedData(session),
    status: session.status === 'active' ? 'completed' : session.status,
    success: session.success === true,
    completed_tasks: session.completed_tasks,
    ended_at: iso(endedAt),
    duration_seconds: session.duration_seconds ?? 0,
    late_result: session.late_result,
    ended_by_server_as: session.ended_by_server_as,
  };
}
