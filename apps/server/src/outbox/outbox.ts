import crypto from 'node:crypto';
import type { IntegrationEvent, IntegrationEventData } from '@vrtc/contract';
import { sql } from 'kysely';
import type { Tx } from '../platform/database/db.ts';

/**
 * The outbox of results out (docs/integrations.md, decision 026), a sink: any domain tells it what
 * happened, in the transaction of the change (`recordOutbox(trx, …)`), beside its audit event. A
 * rolled-back change leaves no event, so nothing is sent of a change that did not happen; a
 * committed one is delivered by the integrations' dispatcher, even after a restart. It calls no
 * domain and knows no domain's rows: each hands it its event's data as the contract shapes it.
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
  if (deliveries > 0) await wakeDispatchers(trx);
  return deliveries;
}

/**
 * Wakes every process's dispatcher when `trx` commits (a NOTIFY on OUTBOX_CHANNEL): for new
 * deliveries, and for one made due again by hand (a redelivery).
 */
export async function wakeDispatchers(trx: Tx): Promise<void> {
  await sql`SELECT pg_notify(${OUTBOX_CHANNEL}, '')`.execute(trx);
}
