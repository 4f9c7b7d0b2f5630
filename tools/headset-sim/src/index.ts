import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import {
  IDEMPOTENCY_KEY_HEADER,
  routePath,
  routes,
  type DeviceType,
  type ErrorBody,
  type EndedSessionStatus,
  type FinishBody,
  type HeartbeatBody,
  type HeartbeatResponse,
  type ProgressBody,
  type RouteBody,
  type RouteResponse,
  type SessionLaunch,
  type SessionProgressResponse,
  type TaskReport,
} from '@vrtc/contract';
import { Outbox, type OutboxEntry, type ReportRoute } from './outbox.ts';
import { followPushChannel } from './push.ts';
import {
  DEFAULT_RETRY,
  isRetryableStatus,
  parseRetryAfter,
  retryDelayMs,
  type RetryPolicy,
} from './retry.ts';

export { Outbox, type OutboxEntry, type ReportRoute } from './outbox.ts';
export * from './retry.ts';

/** What the heartbeat's `ended_session.status` means for the trainee on this headset. */
const ENDED_BECAUSE: Record<EndedSessionStatus, string> = {
  cancelled: 'cancelled in the console',
  timeout: 'timed out (the server ended it)',
  disconnected: 'disconnected (the server had not heard from this headset)',
  completed: 'completed',
};

/** The routes a headset calls. */
type HeadsetRoute =
  | typeof routes.enroll
  | typeof routes.heartbeat
  | typeof routes.reportProgress
  | typeof routes.finishSession
  | typeof routes.claimLmsLaunch;

/**
 * A simulated headset speaking the headset protocol (docs/headset-protocol.md): enrols with a
 * code (or reuses saved credentials), heartbeats at the server's interval, plays the sessions the
 * console starts on it task by task, and stops a session when the server says it is over for it.
 * Every step is reported as an event with a readable line.
 *
 * Like a headset on bad Wi-Fi it never waits for the network to play: each report (progress,
 * finish) goes into its outbox first, with an Idempotency-Key made once, its seq and occurred_at,
 * and a separate loop sends the outbox in order, retrying with backoff and jitter until the
 * server has answered each one. With a state folder the outbox is on disk, so reports survive the
 * simulator being killed and leave when it is started again.
 */

export interface HeadsetCredentials {
  device_id: string;
  device_token: string;
}

export interface SimulatedHeadsetOptions {
  /** Base URL of the server, e.g. http://127.0.0.1:8080. */
  server: string;
  /** Device name shown in the console; also the prefix of every event line. */
  name: string;
  type?: DeviceType;
  /** Enrolment code from the console; needed unless `credentials` are given (and still valid). */
  code?: string;
  /** A token saved from an earlier enrolment. When refused and a code is given, enrols again. */
  credentials?: HeadsetCredentials;
  /** Milliseconds per task while playing a session. Default 2000. */
  paceMs?: number;
  /** Share of sessions finished with success, 0..1. Default 0.8. */
  successRate?: number;
  /** Overrides the server's heartbeat_interval_ms. */
  heartbeatIntervalMs?: number;
  /** Battery level reported at start; drains by one point every 60 heartbeats. Default 100. */
  batteryPercent?: number;
  appVersion?: string;
  /** Random source in [0, 1) deciding outcomes; pass a fixed one for deterministic runs. */
  random?: () => number;
  /** Per-request time limit. Default 10000 ms. */
  requestTimeoutMs?: number;
  /**
   * Folder for the outbox (`outbox-<device_id>.jsonl`), kept across runs. Without it the outbox
   * lives in memory and what is unsent when the headset stops is gone.
   */
  stateDir?: string;
  /** Backoff between attempts at a report (Retry-After from the server wins). */
  retry?: Partial<RetryPolicy>;
  /**
   * Seconds the server may hold each call of the push channel (GET /v1/headset/events), which
   * brings a start or a cancel within a second. Default 25; 0 turns it off (heartbeats only).
   */
  pushWaitSeconds?: number;
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
type EventDetails = Distribute<HeadsetEvent>;

/** A non-2xx answer of the server, with its `{ error, message }` body. */
export class ServerError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The answer's Retry-After header, in milliseconds, when it had one. */
    readonly retryAfterMs?: number,
    /** The body's `details`, e.g. `{ status }` of a session that is no longer active. */
    readonly details?: ErrorBody['details'],
  ) {
    super(message);
    this.name = 'ServerError';
  }
}

const shortId = (id: string) => `${id.slice(0, 8)}…`;

function describe(name: string, event: EventDetails): string {
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

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const errorMessage = (error: unknown) => {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
};

interface Play {
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

const BATTERY_DRAIN_EVERY = 60;

/** A refusal saying the session is over for this headset: stop playing it. */
const sessionOver = (error: ServerError) => error.status === 404 || error.status === 409;

export class SimulatedHeadset extends EventEmitter<{ event: [HeadsetEvent] }> {
  readonly name: string;
  private readonly options: SimulatedHeadsetOptions;
  private readonly base: string;
  private readonly random: () => number;
  private readonly retry: RetryPolicy;
  private credentials: HeadsetCredentials | undefined;
  private heartbeatIntervalMs: number;
  private batteryPercent: number;
  private heartbeats = 0;
  private running = false;
  private stopping: Promise<void> | undefined;
  private lifetime = new AbortController();
  private loop: Promise<void> | undefined;
  private push: Promise<void> | undefined;
  private delivery: Promise<void> | undefined;
  private play: Play | undefined;
  /** Sessions this headset has finished or seen ended: never played again. */
  private readonly over = new Set<string>();
  private dropped = false;
  private restoreTimer: NodeJS.Timeout | undefined;
  private readonly restoredWaiters = new Set<() => void>();
  private outbox = Outbox.open();
  private readonly queuedWaiters = new Set<() => void>();
  /** Server clock minus ours, from the heartbeat's server_time: occurred_at is in server time. */
  private clockOffsetMs = 0;

  constructor(options: SimulatedHeadsetOptions) {
    super();
    const successRate = options.successRate ?? 0.8;
    if (!(successRate >= 0 && successRate <= 1)) throw new Error('successRate must be within 0..1');
    if ((options.paceMs ?? 0) < 0) throw new Error('paceMs must not be negative');
    this.options = options;
    this.name = options.name;
    this.base = options.server.replace(/\/+$/, '');
    this.random = options.random ?? Math.random;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.credentials = options.credentials;
    this.heartbeatIntervalMs = options.heartbeatIntervalMs ?? 5000;
    this.batteryPercent = options.batteryPercent ?? 100;
  }

  get deviceId(): string | undefined {
    return this.credentials?.device_id;
  }

  /** The session being played, if any. */
  get currentSessionId(): string | undefined {
    return this.play?.session.id;
  }

  get isConnected(): boolean {
    return !this.dropped;
  }

  /** Reports made and not yet answered by the server (what heartbeats tell as pending_reports). */
  get pendingReports(): number {
    return this.outbox.size;
  }

  /** The reports in the outbox, oldest first. */
  pendingReportEntries(): OutboxEntry[] {
    return this.outbox.pending();
  }

  private emitEvent(details: EventDetails): void {
    const event = {
      ...details,
      headset: this.name,
      at: new Date(),
      line: describe(this.name, details),
    };
    this.emit('event', event as HeadsetEvent);
  }

  /** Calls a route of the headset protocol, as the contract's route map defines it. */
  private async request<R extends HeadsetRoute>(
    route: R,
    call: {
      params?: Record<string, string>;
      body: RouteBody<R>;
      headers?: Record<string, string>;
    },
    token?: string,
  ): Promise<RouteResponse<R>> {
    const signal = AbortSignal.any([
      this.lifetime.signal,
      AbortSignal.timeout(this.options.requestTimeoutMs ?? 10_000),
    ]);
    const response = await fetch(`${this.base}${routePath(route, call.params)}`, {
      method: route.method,
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...call.headers,
      },
      body: JSON.stringify(call.body),
      signal,
    });
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: reported below with the status
    }
    if (!response.ok) {
      const error = parsed as Partial<ErrorBody> | undefined;
      throw new ServerError(
        response.status,
        error?.error ?? 'http_error',
        error?.message ?? `HTTP ${response.status}`,
        parseRetryAfter(response.headers.get('retry-after'), Date.now()),
        error?.details,
      );
    }
    return parsed as RouteResponse<R>;
  }

  /** Enrols with the configured code; the new credentials are also announced as an event. */
  async enroll(): Promise<HeadsetCredentials> {
    if (!this.options.code) throw new Error(`${this.name}: an enrolment code is needed to enrol`);
    const response = await this.request(routes.enroll, {
      body: { code: this.options.code, name: this.name, type: this.options.type ?? 'quest' },
    });
    this.credentials = { device_id: response.device_id, device_token: response.device_token };
    this.emitEvent({ type: 'enrolled', credentials: this.credentials });
    return this.credentials;
  }

  /**
   * Enters the PIN an LMS's launch page shows (docs/lms.md): the server starts the launch's
   * session on this headset, which the next heartbeat delivers and this headset then plays.
   */
  async claimLaunch(pin: string): Promise<RouteResponse<typeof routes.claimLmsLaunch>> {
    if (!this.credentials) throw new Error(`${this.name}: not enrolled`);
    const session = await this.request(
      routes.claimLmsLaunch,
      { body: { pin } },
      this.credentials.device_token,
    );
    // The session is delivered by the heartbeat: ask now rather than at the next interval.
    await this.heartbeat();
    return session;
  }

  /**
   * Enrols if needed (or when a saved token is refused and a code is at hand), opens the outbox
   * this device left in the state folder, sends the first heartbeat, then keeps heartbeating and
   * sending the outbox in the background until `stop()`. Rejects when the headset cannot get in
   * (wrong code, refused token without a code, server unreachable).
   */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.lifetime = new AbortController();
    try {
      if (!this.credentials) await this.enroll();
      this.openOutbox();
      try {
        await this.heartbeat();
      } catch (error) {
        if (!(error instanceof ServerError && error.status === 401 && this.options.code))
          throw error;
        this.emitEvent({ type: 'token_refused', message: `${error.message}; enrolling again` });
        await this.enroll();
        this.openOutbox();
        await this.heartbeat();
      }
    } catch (error) {
      this.running = false;
      this.outbox.close();
      throw error;
    }
    this.emitEvent({
      type: 'connected',
      deviceId: this.credentials!.device_id,
      heartbeatIntervalMs: this.heartbeatIntervalMs,
    });
    this.loop = this.heartbeatLoop();
    this.push = this.pushLoop();
    this.delivery = this.deliveryLoop();
  }

  /** The push channel beside the heartbeats: its answers are followed as theirs are. */
  private async pushLoop(): Promise<void> {
    const waitSeconds = this.options.pushWaitSeconds ?? 25;
    if (waitSeconds <= 0) return;
    await followPushChannel({
      base: this.base,
      token: () => this.credentials?.device_token,
      signal: this.lifetime.signal,
      waitSeconds,
      dropped: () => this.dropped,
      online: (signal) => this.online(signal),
      onAnswer: (answer) => this.onSessionState(answer.session, answer.ended_session),
      onError: (message) => this.emitEvent({ type: 'error', message }),
    });
  }

  /**
   * The outbox of the enrolled device: on disk in the state folder (one file per device, as its
   * reports can only be sent with its token), else in memory. Sessions it holds a finish for are
   * over for this headset even while the server still lists them: it must not play them again.
   */
  private openOutbox(): void {
    const deviceId = this.credentials!.device_id;
    const file = this.options.stateDir
      ? path.join(this.options.stateDir, `outbox-${deviceId}.jsonl`)
      : undefined;
    // On disk: read again (the file holds all of it). In memory: kept across stop and start.
    if (file) {
      this.outbox.close();
      this.outbox = Outbox.open(file);
    }
    for (const entry of this.outbox.pending()) {
      if (entry.route === 'finish') this.over.add(entry.session_id);
    }
    if (this.outbox.size > 0 && file) {
      this.emitEvent({ type: 'outbox_loaded', pendingReports: this.outbox.size });
    }
  }

  /**
   * Stops heartbeats, the outbox's sending and any session being played (the server will see the
   * device go silent). Reports not yet sent stay in the outbox for the next start.
   */
  stop(): Promise<void> {
    if (!this.running) return this.stopping ?? Promise.resolve();
    this.running = false;
    this.lifetime.abort(new Error('stopped'));
    clearTimeout(this.restoreTimer);
    for (const wake of this.restoredWaiters) wake();
    this.stopping = (async () => {
      await Promise.allSettled([this.loop, this.push, this.delivery, this.play?.done]);
      this.outbox.close();
      this.emitEvent({ type: 'stopped' });
    })();
    return this.stopping;
  }

  /**
   * Simulates losing the network: no heartbeat and no report leaves the headset, for `forMs`
   * milliseconds or, without it, until `restoreConnection()` (or for good). A session in progress
   * goes on; its reports wait in the outbox and leave in order when the connection is back.
   */
  dropConnection(forMs?: number): void {
    clearTimeout(this.restoreTimer);
    this.dropped = true;
    this.lostContact();
    this.emitEvent({ type: 'connection_dropped', forMs: forMs ?? null });
    if (forMs !== undefined) {
      this.restoreTimer = setTimeout(() => this.restoreConnection(), forMs);
    }
  }

  restoreConnection(): void {
    clearTimeout(this.restoreTimer);
    if (!this.dropped) return;
    this.dropped = false;
    this.emitEvent({ type: 'connection_restored', pendingReports: this.outbox.size });
    for (const wake of this.restoredWaiters) wake();
    this.restoredWaiters.clear();
  }

  /** The server cannot hear us: it may end the session being played as disconnected. */
  private lostContact(): void {
    if (this.play) this.play.lostContact = true;
  }

  private async online(signal: AbortSignal): Promise<void> {
    while (this.dropped && !signal.aborted) {
      await new Promise<void>((resolve) => {
        this.restoredWaiters.add(resolve);
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    }
    if (signal.aborted) throw signal.reason;
  }

  private async heartbeatLoop(): Promise<void> {
    const signal = this.lifetime.signal;
    while (this.running) {
      try {
        await sleep(this.heartbeatIntervalMs, signal);
      } catch {
        return;
      }
      if (this.dropped) continue;
      try {
        await this.heartbeat();
      } catch (error) {
        if (!this.running) return;
        if (error instanceof ServerError && error.status === 401) {
          this.emitEvent({ type: 'token_refused', message: error.message });
          void this.stop();
          return;
        }
        if (!(error instanceof ServerError)) this.lostContact();
        this.emitEvent({ type: 'error', message: `heartbeat failed: ${errorMessage(error)}` });
      }
    }
  }

  private async heartbeat(): Promise<void> {
    if (!this.credentials) throw new Error('not enrolled');
    this.heartbeats += 1;
    if (this.heartbeats % BATTERY_DRAIN_EVERY === 0 && this.batteryPercent > 5) {
      this.batteryPercent -= 1;
    }
    const body: HeartbeatBody = {
      battery_percent: this.batteryPercent,
      app_version: this.options.appVersion ?? 'sim-1.0.0',
      pending_reports: this.outbox.size,
    };
    const sentAt = Date.now();
    const response = await this.request(routes.heartbeat, { body }, this.credentials.device_token);
    const serverTime = Date.parse(response.server_time);
    if (!Number.isNaN(serverTime)) this.clockOffsetMs = serverTime - (sentAt + Date.now()) / 2;
    this.heartbeatIntervalMs = this.options.heartbeatIntervalMs ?? response.heartbeat_interval_ms;
    this.emitEvent({
      type: 'heartbeat',
      sessionId: response.session?.id ?? null,
      batteryPercent: this.batteryPercent,
    });
    this.onSessionState(response.session, response.ended_session);
  }

  /** Follows what the server says the device should be doing. */
  private onSessionState(
    session: SessionLaunch | null,
    ended: HeartbeatResponse['ended_session'] = null,
  ): void {
    const play = this.play;
    if (play && !play.finishing && !play.lostContact && play.session.id !== session?.id) {
      this.endPlay(
        play,
        ended?.id === play.session.id
          ? ENDED_BECAUSE[ended.status]
          : 'the server no longer lists it as active',
      );
    }
    if (
      session &&
      !this.over.has(session.id) &&
      this.play?.session.id !== session.id &&
      this.running
    ) {
      this.startPlay(session);
    }
  }

  private endPlay(play: Play, reason: string): void {
    this.over.add(play.session.id);
    if (this.play === play) this.play = undefined;
    play.controller.abort(new Error(reason));
    this.emitEvent({ type: 'session_ended', sessionId: play.session.id, reason });
  }

  private startPlay(session: SessionLaunch): void {
    const controller = new AbortController();
    const play: Play = {
      session,
      controller,
      finishing: false,
      lostContact: this.dropped,
      done: Promise.resolve(),
    };
    // Another session listed while one is still playing: the earlier one is over for us.
    if (this.play) this.endPlay(this.play, 'another session was started on this headset');
    this.play = play;
    this.emitEvent({ type: 'session_started', session });
    play.done = this.playSession(play).catch((error: unknown) => {
      if (controller.signal.aborted || !this.running) return; // ended or stopped: already told
      this.emitEvent({
        type: 'error',
        message: `session ${shortId(session.id)}: ${errorMessage(error)}`,
      });
    });
  }

  private async playSession(play: Play): Promise<void> {
    const { session } = play;
    const signal = AbortSignal.any([play.controller.signal, this.lifetime.signal]);
    const total = session.max_tasks;
    const pace = this.options.paceMs ?? 2000;
    const success = this.random() < (this.options.successRate ?? 0.8);
    // Reports of this session still in the outbox (from before a restart) count as played: the
    // run goes on after them rather than playing their tasks again under new keys.
    const held = this.outbox
      .pending()
      .filter((entry) => entry.session_id === session.id && entry.route === 'progress')
      .map((entry) => entry.body as ProgressBody);
    const tasks: TaskReport[] = held.flatMap((body) => (body.task ? [body.task] : []));
    let completed = Math.min(
      Math.max(session.completed_tasks, ...held.map((body) => body.completed_tasks)),
      total,
    );
    // A failed run stops somewhere before the last task (and not before what is done already).
    const reached = success ? total : Math.max(completed, Math.floor(this.random() * total));
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
        score: Math.round(60 + this.random() * 40),
        duration_ms: Date.now() - startedAt,
      };
      tasks.push(task);
      // seq: one report per task, so the task count orders them, across restarts too.
      this.queue(session.id, 'progress', {
        completed_tasks: completed,
        task,
        seq: completed,
        occurred_at: this.now(),
      } satisfies ProgressBody);
      this.emitEvent({
        type: 'task',
        sessionId: session.id,
        completedTasks: completed,
        maxTasks: total,
      });
    }
    if (!success && completed < total) {
      const startedAt = Date.now();
      await sleep(pace, signal); // the failing task takes its time too
      tasks.push({
        number: completed + 1,
        key: `task-${completed + 1}`,
        result: 'failed',
        score: Math.round(this.random() * 50),
        duration_ms: Date.now() - startedAt,
      });
    }
    play.finishing = true;
    this.queue(session.id, 'finish', {
      completed_tasks: completed,
      success,
      tasks,
      seq: completed + 1,
      occurred_at: this.now(),
    } satisfies FinishBody);
    this.over.add(session.id);
    if (this.play === play) this.play = undefined;
    this.emitEvent({
      type: 'finished',
      sessionId: session.id,
      success,
      completedTasks: completed,
      maxTasks: total,
    });
  }

  /** Our clock corrected by the server's, as occurred_at. */
  private now(): string {
    return new Date(Date.now() + this.clockOffsetMs).toISOString();
  }

  /** Puts a report in the outbox (on disk before this returns) with its key made once. */
  private queue(sessionId: string, route: ReportRoute, body: ProgressBody | FinishBody): void {
    this.outbox.add({ key: crypto.randomUUID(), route, session_id: sessionId, body });
    for (const wake of this.queuedWaiters) wake();
    this.queuedWaiters.clear();
  }

  private async nextReport(signal: AbortSignal): Promise<OutboxEntry> {
    for (;;) {
      const entry = this.outbox.first();
      if (entry) return entry;
      await new Promise<void>((resolve) => {
        this.queuedWaiters.add(resolve);
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
      if (signal.aborted) throw signal.reason;
    }
  }

  /**
   * Sends the outbox, oldest report first, each with its Idempotency-Key, one at a time so they
   * arrive in the order they were made. A network error, 408, 429 or 5xx keeps the report at the
   * head and tries it again after a backoff with jitter (or the server's Retry-After); any other
   * answer takes it out: delivered, or refused for good (dropped, and told as an event). A
   * refusal saying the session is over for this headset (404, 409) stops its play.
   */
  private async deliveryLoop(): Promise<void> {
    const signal = this.lifetime.signal;
    let failures = 0;
    while (this.running) {
      let entry: OutboxEntry;
      try {
        entry = await this.nextReport(signal);
        await this.online(signal);
      } catch {
        return;
      }
      try {
        await this.send(entry);
        failures = 0;
        this.outbox.remove(entry.key);
        this.emitEvent({
          type: 'report_delivered',
          route: entry.route,
          sessionId: entry.session_id,
          key: entry.key,
          pendingReports: this.outbox.size,
        });
        continue;
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof ServerError && !isRetryableStatus(error.status)) {
          failures = 0;
          this.outbox.remove(entry.key);
          this.emitEvent({
            type: 'report_dropped',
            route: entry.route,
            sessionId: entry.session_id,
            key: entry.key,
            status: error.status,
            code: error.code,
            message: error.message,
          });
          this.onRefused(entry, error);
          continue;
        }
        if (!(error instanceof ServerError)) this.lostContact();
        failures += 1;
        const delay = retryDelayMs(
          failures,
          this.retry,
          Math.random,
          error instanceof ServerError ? error.retryAfterMs : undefined,
        );
        this.emitEvent({
          type: 'error',
          message: `${entry.route} report failed: ${errorMessage(error)}; retrying in ${delay} ms`,
        });
        try {
          await sleep(delay, signal);
        } catch {
          return;
        }
      }
    }
  }

  private send(entry: OutboxEntry): Promise<SessionProgressResponse> {
    const params = { id: entry.session_id };
    const headers = { [IDEMPOTENCY_KEY_HEADER]: entry.key };
    const token = this.credentials!.device_token;
    return entry.route === 'progress'
      ? this.request(
          routes.reportProgress,
          { params, headers, body: entry.body as ProgressBody },
          token,
        )
      : this.request(
          routes.finishSession,
          { params, headers, body: entry.body as FinishBody },
          token,
        );
  }

  /** What a final refusal of a report means for the headset. */
  private onRefused(entry: OutboxEntry, error: ServerError): void {
    if (error.status === 401) {
      this.emitEvent({ type: 'token_refused', message: error.message });
      void this.stop();
      return;
    }
    if (!sessionOver(error)) return;
    this.over.add(entry.session_id);
    const play = this.play;
    if (play?.session.id === entry.session_id) this.endPlay(play, error.message);
  }
}

/** A random source from a seed (mulberry32), for reproducible simulated outcomes. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
