import type { SessionFinishedData, SessionStartedData } from '@vrtc/contract';
import type { Session } from '../platform/database/schema.ts';

/** The session's columns integrations are told of (docs/integrations.md). */
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
