import type { SessionEvent, SessionTask } from '@vrtc/contract';
import type { LivePublisher } from '../events/live-events.ts';
import type { Session } from '../platform/database/schema.ts';

/** Tells the live streams what became of a session (and so of its device's status). */
export function publishSession(
  live: LivePublisher,
  change: SessionEvent['change'],
  session: Pick<
    Session,
    'id' | 'device_id' | 'organization_id' | 'status' | 'completed_tasks' | 'max_tasks'
  > & { late_result?: boolean },
  task?: SessionTask,
): void {
  live.publish({
    type: 'session',
    change,
    session_id: session.id,
    device_id: session.device_id,
    organization_id: session.organization_id,
    status: session.status,
    completed_tasks: session.completed_tasks,
    max_tasks: session.max_tasks,
    // A late result turns an ended session into a result: the live views show the mark.
    ...(session.late_result ? { late_result: true } : {}),
    ...(task ? { task } : {}),
  });
  // A session starting or ending changes its device's status too.
  if (change !== 'progress' && session.device_id) {
    live.publish({
      type: 'device',
      change: 'updated',
      device_id: session.device_id,
      organization_id: session.organization_id,
    });
  }
}
