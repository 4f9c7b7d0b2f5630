import type { ServerResponse } from 'node:http';
import { LIVE_KEEPALIVE_SECONDS, LIVE_STREAMS_PER_ACCOUNT, type LiveEvent } from '@vrtc/contract';
import { ACCESS_CHANNEL, parseAccessChange, type AccessChange } from '../auth/access-changes.ts';
import { stillSignedIn } from '../auth/auth.service.ts';
import type { Caller } from '../platform/http/caller.ts';
import type { NotificationListener } from '../platform/database/pg-listener.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { AppError } from '../platform/service/errors.ts';
import type { LiveEvents } from './live-events.ts';

/**
 * Events a stream holds while its identity is re-checked; past this (a flood during a slow
 * check) it ends instead, and the console reconnects and refetches.
 */
const MAX_HELD_EVENTS = 1000;
/** Wait before re-checking again when the database did not answer the re-check. */
const RECHECK_RETRY_MS = 200;

/** Whether the caller's screens show what the event is about. */
export function concerns(caller: Caller, event: LiveEvent): boolean {
  if (event.organization_id === caller.organizationId) return true;
  // The admin device list shows every organisation's devices.
  return caller.role === 'admin' && event.type === 'device';
}

/** What a stream may read is fixed by these: any change of them ends it. */
const sameIdentity = (a: Caller, b: Caller) =>
  a.accountId === b.accountId && a.role === b.role && a.organizationId === b.organizationId;

const tooMany = (limit: number, scope: 'account' | 'server') =>
  new AppError(
    'too_many_streams',
    scope === 'account'
      ? `At most ${limit} live streams per account at once; close one (another tab) or rely on refreshes`
      : `The server holds its ${limit} live streams already; the console refreshes instead`,
    { details: { limit, scope } },
  );

const signedOut = () =>
  new AppError('unauthorized', 'Your session has expired. Please sign in again.');

interface Stream {
  caller: Caller;
  state: 'opening' | 'open' | 'ended';
  /** Until when its token is valid, as last checked. */
  expiresAt: Date;
  /** Bumped by every access change that may concern it; a check applies to the generation it read. */
  generation: number;
  /** Its identity is unconfirmed since an access change: events wait in `held`. */
  stale: boolean;
  held: LiveEvent[];
  /** Events may have been lost (the LISTEN connection was down): say `ready` again. */
  missedEvents: boolean;
  response?: ServerResponse;
  keepalive?: NodeJS.Timeout;
  nextId: number;
}

/**
 * The open live streams (GET /v1/events) of this process, and the rule that a stream speaks only
 * for the sign-in that opened it, as long as that sign-in would be let in by a plain request.
 *
 * Every access change (access-changes.ts: a sign-in ended, an account's password, role,
 * organisation or active flag changed, an organisation (de)activated or deleted) is heard by
 * every process in the order of commits, with the live events. The streams it may concern stop
 * delivering at once (their events are held), and their tokens are checked again against the
 * database in one query: a stream whose token no longer authenticates, or authenticates as
 * another role or organisation, ends (the client's reconnect gets 401); the others get their held
 * events. So a stream never delivers an event its account could not read with a GET at that
 * moment, and ends within one notification and one query of the change, on every process.
 * Notifications missed while the LISTEN connection was down count as a change to every stream.
 */
export class LiveStreams {
  private readonly streams = new Set<Stream>();
  private readonly perAccount = new Map<string, number>();

  constructor(
    private readonly ctx: ServiceContext,
    live: LiveEvents,
    notifications: NotificationListener | undefined,
  ) {
    live.subscribe((event) => {
      for (const stream of this.streams) this.offer(stream, event);
    });
    notifications?.on(ACCESS_CHANNEL, (payload) => {
      const change = parseAccessChange(payload);
      if (change) this.accessChanged(change);
    });
    notifications?.onListening((listening) => {
      if (!listening) return;
      // Whatever was published while the connection was down is lost: each stream, once its
      // sign-in is confirmed, says `ready` again, on which the console reads everything anew.
      for (const stream of this.streams) stream.missedEvents = true;
      this.recheck([...this.streams]);
    });
  }

  /** Open streams on this process. */
  get size(): number {
    return this.streams.size;
  }

  /**
   * Opens a stream for the caller: refused (429) past the limits, and (401) if its sign-in ended
   * between the request's authentication and now. `start` takes the response over from the
   * framework; `onClientGone` registers what to do when the client disconnects.
   */
  async open(
    caller: Caller,
    io: { start: () => ServerResponse; onClientGone: (end: () => void) => void },
  ): Promise<void> {
    const mine = this.perAccount.get(caller.accountId) ?? 0;
    if (mine >= LIVE_STREAMS_PER_ACCOUNT) throw tooMany(LIVE_STREAMS_PER_ACCOUNT, 'account');
    if (this.streams.size >= this.ctx.config.liveMaxStreams) {
      throw tooMany(this.ctx.config.liveMaxStreams, 'server');
    }
    const stream: Stream = {
      caller,
      state: 'opening',
      expiresAt: new Date(0),
      generation: 0,
      stale: true,
      held: [],
      missedEvents: false,
      nextId: 0,
    };
    this.streams.add(stream);
    this.perAccount.set(caller.accountId, mine + 1);
    io.onClientGone(() => this.end(stream));
    // Registered first, checked second: an access change committed after the request was
    // authenticated is either seen by this check or heard by the registered stream.
    await this.check([stream]);
    if (stream.state === 'ended') throw signedOut();

    const response = io.start();
    stream.response = response;
    stream.state = 'open';
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      // nginx: pass each event on at once rather than buffering the response.
      'x-accel-buffering': 'no',
    });
    response.on('error', () => this.end(stream));
    // A reconnecting EventSource-like client waits this long; the console's own client backs off.
    response.write('retry: 2000\n\n');
    this.sendReady(stream);
    stream.keepalive = setInterval(() => {
      if (this.expired(stream)) this.end(stream);
      else response.write(': keepalive\n\n');
    }, LIVE_KEEPALIVE_SECONDS * 1000);
    stream.keepalive.unref();
    this.release(stream);
  }

  /** Ends every stream (the server is closing). */
  endAll(): void {
    for (const stream of [...this.streams]) this.end(stream);
  }

  private accessChanged(change: AccessChange): void {
    const concerned = [...this.streams].filter((stream) =>
      'accountId' in change
        ? stream.caller.accountId === change.accountId
        : stream.caller.organizationId === change.organizationId,
    );
    this.recheck(concerned);
  }

  /** Holds the streams' events from now on, and checks their sign-ins again. */
  private recheck(streams: Stream[]): void {
    if (streams.length === 0) return;
    for (const stream of streams) {
      stream.generation += 1;
      stream.stale = true;
    }
    void this.check(streams);
  }

  /**
   * One query for the sign-ins of all these streams. A stream changed again meanwhile is checked
   * again; one whose token no longer authenticates as the same identity ends; the others deliver
   * what they held. If the database does not answer, they keep holding and it tries again.
   */
  private async check(streams: Stream[]): Promise<void> {
    const read = streams
      .filter((stream) => stream.state !== 'ended')
      .map((stream) => ({ stream, generation: stream.generation }));
    if (read.length === 0) return;
    let found: Awaited<ReturnType<typeof stillSignedIn>>;
    try {
      found = await stillSignedIn(
        this.ctx.db,
        this.ctx.clock.now(),
        read.map(({ stream }) => stream.caller.tokenId),
      );
    } catch (error) {
      this.ctx.log.warn({ err: error }, 'live streams: could not check sign-ins; retrying');
      await new Promise((resolve) => setTimeout(resolve, RECHECK_RETRY_MS).unref());
      await this.check(read.map(({ stream }) => stream));
      return;
    }
    const again: Stream[] = [];
    for (const { stream, generation } of read) {
      if (stream.state === 'ended') continue;
      if (stream.generation !== generation) {
        again.push(stream);
        continue;
      }
      const now = found.get(stream.caller.tokenId);
      if (!now || !sameIdentity(now.caller, stream.caller)) {
        this.end(stream);
        continue;
      }
      stream.expiresAt = now.expiresAt;
      stream.stale = false;
      if (stream.state === 'open') this.release(stream);
    }
    if (again.length > 0) await this.check(again);
  }

  private offer(stream: Stream, event: LiveEvent): void {
    if (stream.state === 'ended' || !concerns(stream.caller, event)) return;
    if (stream.stale || stream.state === 'opening') {
      if (stream.held.length >= MAX_HELD_EVENTS) this.end(stream);
      else stream.held.push(event);
      return;
    }
    if (this.expired(stream)) this.end(stream);
    else this.send(stream, event.type, event);
  }

  private release(stream: Stream): void {
    if (stream.stale || stream.state !== 'open') return;
    if (stream.missedEvents) this.sendReady(stream);
    const held = stream.held;
    stream.held = [];
    if (held.length > 0 && this.expired(stream)) return this.end(stream);
    for (const event of held) this.send(stream, event.type, event);
  }

  private sendReady(stream: Stream): void {
    stream.missedEvents = false;
    this.send(stream, 'ready', { keepalive_seconds: LIVE_KEEPALIVE_SECONDS });
  }

  private expired(stream: Stream): boolean {
    return this.ctx.clock.now() >= stream.expiresAt;
  }

  private send(stream: Stream, name: string, data: unknown): void {
    stream.response?.write(
      `id: ${++stream.nextId}\nevent: ${name}\ndata: ${JSON.stringify(data)}\n\n`,
    );
  }

  private end(stream: Stream): void {
    if (stream.state === 'ended') return;
    const wasOpen = stream.state === 'open';
    stream.state = 'ended';
    stream.held = [];
    clearInterval(stream.keepalive);
    this.streams.delete(stream);
    const left = (this.perAccount.get(stream.caller.accountId) ?? 1) - 1;
    if (left > 0) this.perAccount.set(stream.caller.accountId, left);
    else this.perAccount.delete(stream.caller.accountId);
    if (wasOpen) stream.response?.end();
  }
}
