import type {
  EndedSessionStatus,
  FinishBody,
  ProgressBody,
  SessionLaunch,
  TaskReport,
} from '@vrtc/contract';
import type { ReportDelivery } from './delivery.ts';
import type { EventDetails } from './events.ts';
import { sleep } from './transport.ts';

/** What the heartbeat's `ended_session.status` means for the trainee on this headset. */
export const ENDED_BECAUSE: Record<EndedSessionStatus, string> = {
  cancelled: 'cancelled in the console',
  timeout: 'timed out (the server ended it)',
  disconnected: 'disconnected (the server had not heard from this headset)',
  completed: 'completed',
};

/** A session being played on the headset. */
export interface Play {
  session: SessionLaunch;
  controller: AbortController;
  /** Set once the finish report is made: the end is then ours, not the server's. */
  finishing: boolean;
  /**
   * Set when the headset lost the network during the play: the server may then have ended the
   * session as disconnected, and still takes its reports late, so a heartbeat no longer listing
   * it does not stop the play (a report's answer says when it is really over).
   */
  lostContact: boolean;
  done: Promise<void>;
}

/** What playing a session needs of its headset. */
export interface PlayHost {
  paceMs: number;
  successRate: number;
  random: () => number;
  reports: ReportDelivery;
  /** Our clock corrected by the server's, as occurred_at. */
  now: () => string;
  emit: (details: EventDetails) => void;
  /** The finish is in the outbox: the session is over for this headset. */
  finished: (play: Play) => void;
}

/**
 * Plays a session task by task at the headset's pace, each task's progress report into the
 * outbox, then its finish: with success, or failed somewhere before the last task.
 */
export async function playSession(play: Play, host: PlayHost, signal: AbortSignal): Promise<void> {
  const { session } = play;
  const total = session.max_tasks;
  const pace = host.paceMs;
  const success = host.random() < host.successRate;
  // Reports of this session still in the outbox (from before a restart) count as played: the
  // run goes on after them rather than playing their tasks again under new keys.
  const held = host.reports.outbox
    .pending()
    .filter((entry) => entry.session_id === session.id && entry.route === 'progress')
    .map((entry) => entry.body as ProgressBody);
  const tasks: TaskReport[] = held.flatMap((body) => (body.task ? [body.task] : []));
  let completed = Math.min(
    Math.max(session.completed_tasks, ...held.map((body) => body.completed_tasks)),
    total,
  );
  // A failed run stops somewhere before the last task (and not before what is done already).
  const reached = success ? total : Math.max(completed, Math.floor(host.random() * total));
  while (completed < reached) {
    const startedAt = Date.now();
    await sleep(pace, signal);
    completed += 1;
    // Task detail as a training app reports it: which task, how it went, score and time. No
    // name: the simulator has no real task to name, and one name in one language would read as
    // "Задание 1: Task 1" in a Russian console; the console words the number in its language.
    const task: TaskReport = {
      number: completed,
      key: `task-${completed}`,
      result: 'passed',
      score: Math.round(60 + host.random() * 40),
      duration_ms: Date.now() - startedAt,
    };
    tasks.push(task);
    // seq: one report per task, so the task count orders them, across restarts too.
    host.reports.queue(session.id, 'progress', {
      completed_tasks: completed,
      task,
      seq: completed,
      occurred_at: host.now(),
    } satisfies ProgressBody);
    host.emit({ type: 'task', sessionId: session.id, completedTasks: completed, maxTasks: total });
  }
  if (!success && completed < total) {
    const startedAt = Date.now();
    await sleep(pace, signal); // the failing task takes its time too
    tasks.push({
      number: completed + 1,
      key: `task-${completed + 1}`,
      result: 'failed',
      score: Math.round(host.random() * 50),
      duration_ms: Date.now() - startedAt,
    });
  }
  play.finishing = true;
  host.reports.queue(session.id, 'finish', {
    completed_tasks: completed,
    success,
    tasks,
    seq: completed + 1,
    occurred_at: host.now(),
  } satisfies FinishBody);
  host.finished(play);
  host.emit({
    type: 'finished',
    sessionId: session.id,
    success,
    completedTasks: completed,
    maxTasks: total,
  });
}
