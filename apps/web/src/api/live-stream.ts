import { type LiveEvent } from '@vrtc/contract';
import { fetchNoting } from './connection';
import { routes } from './routes';
import { createParser } from 'eventsource-parser';

/**
 * The console's connection to GET /v1/events (docs/decisions/012-live-events.md), without React:
 * `fetch` with the sign-in cookie (the browser sends it; decision 025), the body parsed as
 * Server-Sent Events, and a reconnection with growing pauses whenever it is refused, breaks, ends
 * or falls silent. `fetch` rather than EventSource: it sees the refusal's status (a 429 waits
 * longer) and the silence of a stream a proxy left open. What it hears goes to the callbacks; `live-events.tsx` turns it
 * into refreshed screens.
 */

export const LIVE_EVENTS_PATH = routes.liveEvents.path;

/** Whether the stream is up (screens follow it) or down (screens poll every 5 s meanwhile). */
export type LiveMode = 'live' | 'polling';

export interface LiveStreamCallbacks {
  /** The stream is open (after every connection): whatever happened before must be read again. */
  onReady(): void;
  onEvent(event: LiveEvent): void;
  onModeChange(mode: LiveMode): void;
}

export interface LiveStreamOptions extends LiveStreamCallbacks {
  /** Pauses before reconnecting: the first, doubled at each failure up to the last. */
  backoff?: { initialMs: number; maxMs: number };
  /** Pause after the server refused a stream for the account's or its own limit (429). */
  tooManyStreamsMs?: number;
  /**
   * Silence (no event, no keepalive comment) after which the stream is taken for dead: a proxy
   * or a lost network may leave it open but mute. Default: twice the server's keepalive, + 5 s.
   */
  silenceMs?: number;
}

export const DEFAULT_BACKOFF = { initialMs: 1000, maxMs: 30_000 };
const TOO_MANY_STREAMS_MS = 60_000;
const DEFAULT_KEEPALIVE_SECONDS = 15;

/** The pause before the `attempt`-th reconnection (0-based), with ±20 % jitter. */
export function backoffDelay(
  attempt: number,
  { initialMs, maxMs } = DEFAULT_BACKOFF,
  random = Math.random,
): number {
  const base = Math.min(maxMs, initialMs * 2 ** attempt);
  return Math.round(base * (0.8 + random() * 0.4));
}

/** Why a connection ended: the pause before the next depends on it. */
class StreamRefused extends Error {
  constructor(readonly status: number) {
    super(`The live stream was refused with status ${status}`);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Opens the stream and keeps it open until the returned function is called. Starts in `polling`
 * mode; `live` from each `ready` until the connection is lost.
 */
export function startLiveStream(options: LiveStreamOptions): () => void {
  const stop = new AbortController();
  let mode: LiveMode = 'polling';
  const setMode = (next: LiveMode) => {
    if (next === mode) return;
    mode = next;
    options.onModeChange(next);
  };

  void (async () => {
    let attempt = 0;
    while (!stop.signal.aborted) {
      let pause: number;
      try {
        await connect(options, stop.signal, () => {
          attempt = 0;
          setMode('live');
          options.onReady();
        });
        pause = backoffDelay(attempt++, options.backoff);
      } catch (error) {
        if (stop.signal.aborted) break;
        pause =
          error instanceof StreamRefused && error.status === 429
            ? (options.tooManyStreamsMs ?? TOO_MANY_STREAMS_MS)
            : backoffDelay(attempt++, options.backoff);
      }
      setMode('polling');
      await sleep(pause, stop.signal);
    }
  })();

  return () => stop.abort();
}

/** One connection: resolves when the server ends the stream, rejects when it fails. */
async function connect(
  options: LiveStreamOptions,
  stopped: AbortSignal,
  onReady: () => void,
): Promise<void> {
  const connection = new AbortController();
  const abort = () => connection.abort();
  stopped.addEventListener('abort', abort, { once: true });
  let silenceMs = options.silenceMs ?? (2 * DEFAULT_KEEPALIVE_SECONDS + 5) * 1000;
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  const heard = () => {
    clearTimeout(watchdog);
    watchdog = setTimeout(abort, silenceMs);
  };
  try {
    heard();
    // The stream is the first to hear of an outage: it tries again within seconds, on any screen.
    // A refusal of the stream alone (a proxy, a network) is no outage: the probe tells them apart.
    const response = await fetchNoting(
      LIVE_EVENTS_PATH,
      {
        headers: { accept: 'text/event-stream' },
        credentials: 'same-origin',
        cache: 'no-store',
        signal: connection.signal,
      },
      { confirmOutage: true },
    );
    if (!response.ok || !response.body) throw new StreamRefused(response.status);

    const parser = createParser({
      onEvent(message) {
        let data: unknown;
        try {
          data = JSON.parse(message.data);
        } catch {
          return; // not ours to read
        }
        if (message.event === 'ready') {
          const keepalive = (data as { keepalive_seconds?: unknown }).keepalive_seconds;
          if (options.silenceMs === undefined && typeof keepalive === 'number' && keepalive > 0)
            silenceMs = (2 * keepalive + 5) * 1000;
          onReady();
        } else if (message.event === 'device' || message.event === 'session') {
          options.onEvent(data as LiveEvent);
        }
      },
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      heard();
      parser.feed(value);
    }
  } finally {
    clearTimeout(watchdog);
    stopped.removeEventListener('abort', abort);
    connection.abort();
  }
}
