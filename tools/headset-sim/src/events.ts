import type { SessionLaunch } from '@vrtc/contract';
import type { ReportRoute } from './outbox.ts';

/**
 * What a simulated headset tells as it goes: every step an event with one readable line, so the
 * command line prints it and a test waits for it.
 */

export interface HeadsetCredentials {
  device_id: string;
  device_token: string;
}

interface EventBase {
  /** The headset's name. */
  headset: string;
  at: Date;
  /** One readable line, e.g. "[Quest-1] task 2/3". */
  line: string;
}

export type HeadsetEvent = EventBase &
  (
    | { type: 'enrolled'; credentials: HeadsetCredentials }
    | { type: 'connected'; deviceId: string; heartbeatIntervalMs: number }
    | { type: 'heartbeat'; sessionId: string | null; batteryPercent: number }
    | { type: 'session_started'; session: SessionLaunch }
    | { type: 'task'; sessionId: string; completedTasks: number; maxTasks: number }
    | {
        type: 'finished';
        sessionId: string;
        success: boolean;
        completedTasks: number;
        maxTasks: number;
      }
    | { type: 'session_ended'; sessionId: string; reason: string }
    | { type: 'connection_dropped'; forMs: number | null }
    | { type: 'connection_restored'; pendingReports: number }
    | { type: 'outbox_loaded'; pendingReports: number }
    | {
        type: 'report_delivered';
        route: ReportRoute;
        sessionId: string;
        key: string;
        pendingReports: number;
      }
    | {
        type: 'report_dropped';
        route: ReportRoute;
        sessionId: string;
        key: string;
        status: number;
        code: string;
        message: string;
      }
    | { type: 'token_refused'; message: string }
    | { type: 'error'; message: string }
    | { type: 'stopped' }
  );

export type HeadsetEventType = HeadsetEvent['type'];

type Distribute<U> = U extends unknown ? Omit<U, keyof EventBase> : never;
export type EventDetails = Distribute<HeadsetEvent>;

export const shortId = (id: string) => `${id.slice(0, 8)}…`;

export function describe(name: string, event: EventDetails): string {
  const prefix = `[${name}]`;
  switch (event.type) {
    case 'enrolled':
      return `${prefix} enrolled as device ${shortId(event.credentials.device_id)}`;
    case 'connected':
      return `${prefix} connected, heartbeat every ${event.heartbeatIntervalMs} ms`;
    case 'heartbeat':
      return `${prefix} heartbeat (battery ${event.batteryPercent}%${event.sessionId ? `, session ${shortId(event.sessionId)}` : ''})`;
    case 'session_started': {
      const s = event.session;
      const options = s.selected_options.map((o) => o.name).join(', ');
      return (
        `${prefix} session ${shortId(s.id)} started: ${s.scenario_name} / ${s.module_name} / ` +
        `${s.level_name} (${s.max_tasks} tasks) for ${s.vr_user_name}` +
        ` [level ${s.level_id ? shortId(s.level_id) : 'deleted'} rev ${s.level_revision}, ${s.movement_type}]` +
        (options ? `, options: ${options}` : '') +
        (s.completed_tasks > 0 ? `, resuming after task ${s.completed_tasks}` : '')
      );
    }
    case 'task':
      return `${prefix} task ${event.completedTasks}/${event.maxTasks}`;
    case 'finished':
      return event.success
        ? `${prefix} finished: success`
        : `${prefix} finished: failure (${event.completedTasks}/${event.maxTasks} tasks)`;
    case 'session_ended':
      return `${prefix} session ${shortId(event.sessionId)} stopped: ${event.reason}`;
    case 'connection_dropped':
      return event.forMs === null
        ? `${prefix} connection dropped`
        : `${prefix} connection dropped for ${event.forMs} ms`;
    case 'connection_restored':
      return event.pendingReports > 0
        ? `${prefix} connection restored, ${event.pendingReports} report(s) to send`
        : `${prefix} connection restored`;
    case 'outbox_loaded':
      return `${prefix} ${event.pendingReports} report(s) from an earlier run to send`;
    case 'report_delivered':
      return `${prefix} ${event.route} report delivered (${event.pendingReports} left)`;
    case 'report_dropped':
      return `${prefix} ${event.route} report for session ${shortId(event.sessionId)} refused for good (${event.status} ${event.code}: ${event.message}); dropped`;
    case 'token_refused':
      return `${prefix} device token refused: ${event.message}`;
    case 'error':
      return `${prefix} error: ${event.message}`;
    case 'stopped':
      return `${prefix} stopped`;
  }
}
