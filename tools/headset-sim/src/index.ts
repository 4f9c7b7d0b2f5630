import { EventEmitter } from 'node:events';
import path from 'node:path';
import {
  routes,
  type HeartbeatBody,
  type HeartbeatResponse,
  type RouteResponse,
  type SessionLaunch,
} from '@vrtc/contract';
import { ReportDelivery } from './delivery.ts';
import {
  describe,
  shortId,
  type EventDetails,
  type HeadsetCredentials,
  type HeadsetEvent,
} from './events.ts';
import { Outbox, type OutboxEntry } from './outbox.ts';
import type { SimulatedHeadsetOptions } from './options.ts';
import { ENDED_BECAUSE, playSession, type Play, type PlayHost } from './play.ts';
import { followPushChannel } from './push.ts';
import { DEFAULT_RETRY, type RetryPolicy } from './retry.ts';
import { errorMessage, ServerError, sleep, Transport, untilWoken } from './transport.ts';

export type { HeadsetCredentials, HeadsetEvent, HeadsetEventType } from './events.ts';
export { Outbox, type OutboxEntry, type ReportRoute } from './outbox.ts';
export { seededRandom, type SimulatedHeadsetOptions } from './options.ts';
export * from './retry.ts';
export { ServerError } from './transport.ts';

const BATTERY_DRAIN_EVERY = 60;

/** A refusal saying the session is over for this headset: stop playing it. */
const sessionOver = (error: ServerError) => error.status === 404 || error.status === 409;

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
export class SimulatedHeadset extends EventEmitter<{ event: [HeadsetEvent] }> {
  readonly name: string;
  private readonly options: SimulatedHeadsetOptions;
  private readonly base: string;
  private readonly random: () => number;
  private readonly retry: RetryPolicy;
  private readonly transport: Transport;
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
  private readonly reports = new ReportDelivery();
  private play: Play | undefined;
  /** Sessions this headset has finished or seen ended: never played again. */
  private readonly over = new Set<string>();
  private dropped = false;
  private restoreTimer: NodeJS.Timeout | undefined;
  private readonly restoredWaiters = new Set<() => void>();
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
    this.transport = new Transport(
      this.base,
      options.requestTimeoutMs ?? 10_000,
      () => this.lifetime.signal,
    );
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
    return this.reports.outbox.size;
  }

  /** The reports in the outbox, oldest first. */
  pendingReportEntries(): OutboxEntry[] {
    return this.reports.outbox.pending();
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

  /** Enrols with the configured code; the new credentials are also announced as an event. */
  async enroll(): Promise<HeadsetCredentials> {
    if (!this.options.code) throw new Error(`${this.name}: an enrolment code is needed to enrol`);
    const response = await this.transport.request(routes.enroll, {
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
    const session = await this.transport.request(
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
      this.reports.outbox.close();
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
      this.reports.outbox.close();
      this.reports.outbox = Outbox.open(file);
    }
    for (const entry of this.reports.outbox.pending()) {
      if (entry.route === 'finish') this.over.add(entry.session_id);
    }
    if (this.reports.outbox.size > 0 && file) {
      this.emitEvent({ type: 'outbox_loaded', pendingReports: this.reports.outbox.size });
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
      this.reports.outbox.close();
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
    this.emitEvent({ type: 'connection_restored', pendingReports: this.reports.outbox.size });
    for (const wake of this.restoredWaiters) wake();
  }

  /** The server cannot hear us: it may end the session being played as disconnected. */
  private lostContact(): void {
    if (this.play) this.play.lostContact = true;
  }

  private async online(signal: AbortSignal): Promise<void> {
    while (this.dropped && !signal.aborted) {
      await untilWoken(this.restoredWaiters, signal);
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
      pending_reports: this.reports.outbox.size,
    };
    const sentAt = Date.now();
    const response = await this.transport.request(
      routes.heartbeat,
      { body },
      this.credentials.device_token,
    );
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
    const signal = AbortSignal.any([controller.signal, this.lifetime.signal]);
    play.done = playSession(play, this.playHost(), signal).catch((error: unknown) => {
      if (controller.signal.aborted || !this.running) return; // ended or stopped: already told
      this.emitEvent({
        type: 'error',
        message: `session ${shortId(session.id)}: ${errorMessage(error)}`,
      });
    });
  }

  private playHost(): PlayHost {
    return {
      paceMs: this.options.paceMs ?? 2000,
      successRate: this.options.successRate ?? 0.8,
      random: this.random,
      reports: this.reports,
      now: () => this.now(),
      emit: (details) => this.emitEvent(details),
      finished: (play) => {
        this.over.add(play.session.id);
        if (this.play === play) this.play = undefined;
      },
    };
  }

  /** Our clock corrected by the server's, as occurred_at. */
  private now(): string {
    return new Date(Date.now() + this.clockOffsetMs).toISOString();
  }

  /**
   * The outbox's sending (ReportDelivery.run); a refusal saying the session is over for this
   * headset (404, 409) stops its play.
   */
  private deliveryLoop(): Promise<void> {
    return this.reports.run(
      {
        retry: this.retry,
        running: () => this.running,
        online: (signal) => this.online(signal),
        send: (entry) => this.transport.sendReport(entry, this.credentials!.device_token),
        emit: (details) => this.emitEvent(details),
        lostContact: () => this.lostContact(),
        onRefused: (entry, error) => this.onRefused(entry, error),
      },
      this.lifetime.signal,
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
