import { routes, type HeartbeatResponse } from '@vrtc/contract';

/** What the push channel's loop needs of its headset. */
export interface PushChannel {
  /** Base URL of the server. */
  base: string;
  token: () => string | undefined;
  /** Aborted when the headset stops. */
  signal: AbortSignal;
  /** Seconds the server may hold each call (0..30). */
  waitSeconds: number;
  /** True while the headset simulates a lost network: no call leaves it. */
  dropped: () => boolean;
  /** Resolves once the network is back (or the headset stops). */
  online: (signal: AbortSignal) => Promise<void>;
  /** Each answer, followed as a heartbeat's is. */
  onAnswer: (answer: HeartbeatResponse) => void;
  onError: (message: string) => void;
}

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

/**
 * Keeps `GET /v1/headset/events` open (docs/headset-protocol.md): each answer is followed at once
 * and the next call names the session it gave, so a start or a cancel arrives within a second.
 * After a failure it waits 1 s doubling to 30 s; the heartbeat tells the same meanwhile. A server
 * without the channel (404) or a refused token (401: the heartbeat acts on it) ends the loop.
 */
export async function followPushChannel(channel: PushChannel): Promise<void> {
  let known: string | undefined;
  let failures = 0;
  while (!channel.signal.aborted) {
    if (channel.dropped()) {
      await channel.online(channel.signal).catch(() => undefined);
      continue;
    }
    const token = channel.token();
    if (!token) return;
    try {
      const query = new URLSearchParams({ wait: String(channel.waitSeconds) });
      if (known) query.set('session', known);
      const response = await fetch(`${channel.base}${routes.headsetEvents.path}?${query}`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.any([
          channel.signal,
          AbortSignal.timeout((channel.waitSeconds + 10) * 1000),
        ]),
      });
      if (response.status === 401 || response.status === 404) return;
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const answer = (await response.json()) as HeartbeatResponse;
      failures = 0;
      if (channel.dropped()) continue; // heard while "offline": as if it never arrived
      known = answer.session?.id;
      channel.onAnswer(answer);
    } catch (error) {
      if (channel.signal.aborted) return;
      failures += 1;
      channel.onError(`push channel: ${error instanceof Error ? error.message : String(error)}`);
      const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(failures - 1, 10));
      await pause(delay * (0.5 + Math.random() / 2), channel.signal);
    }
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
